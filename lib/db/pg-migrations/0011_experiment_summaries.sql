CREATE TABLE "experiment_summaries" (
	"experiment_id" text PRIMARY KEY NOT NULL,
	"fingerprint" text NOT NULL,
	"summary" jsonb NOT NULL,
	"computed_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "experiment_summaries" ADD CONSTRAINT "experiment_summaries_experiment_id_experiments_id_fk" FOREIGN KEY ("experiment_id") REFERENCES "public"."experiments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "experiment_runs_position" ON "experiment_runs" USING btree ("experiment_id","position");