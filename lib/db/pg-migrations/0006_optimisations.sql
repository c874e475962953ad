CREATE TABLE "optimisations" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	"status" text NOT NULL,
	"target_template_id" text NOT NULL,
	"record" jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "optimisations_target_template" ON "optimisations" USING btree ("target_template_id");