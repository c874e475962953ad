-- Template versions are immutable (as SQLite's triggers in migration 0005 enforce): refuse UPDATE and DELETE.
CREATE FUNCTION template_versions_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'template versions are immutable; save a new version instead';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER template_versions_immutable_update BEFORE UPDATE ON template_versions FOR EACH ROW EXECUTE FUNCTION template_versions_immutable();
--> statement-breakpoint
CREATE TRIGGER template_versions_immutable_delete BEFORE DELETE ON template_versions FOR EACH ROW EXECUTE FUNCTION template_versions_immutable();
