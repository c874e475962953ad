-- Price rows are kept as history (as SQLite's triggers in migration 0007 enforce): refuse UPDATE and DELETE.
CREATE FUNCTION prices_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'price rows are kept as history; add a newer row instead';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER prices_append_only_update BEFORE UPDATE ON prices FOR EACH ROW EXECUTE FUNCTION prices_append_only();
--> statement-breakpoint
CREATE TRIGGER prices_append_only_delete BEFORE DELETE ON prices FOR EACH ROW EXECUTE FUNCTION prices_append_only();
