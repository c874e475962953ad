CREATE TABLE "run_trial_stats" (
	"run_id" text PRIMARY KEY NOT NULL,
	"branch_id" text NOT NULL,
	"last_seq" integer NOT NULL,
	"version" integer NOT NULL,
	"stats" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "run_trial_stats" ADD CONSTRAINT "run_trial_stats_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE no action ON UPDATE no action;