CREATE TABLE "branch_leases" (
	"branch_id" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"expires_at" bigint NOT NULL,
	"activity" jsonb
);
--> statement-breakpoint
CREATE TABLE "branch_summaries" (
	"branch_id" text PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"status" text NOT NULL,
	"queued_at" text NOT NULL,
	"summary" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "branches" (
	"id" text PRIMARY KEY NOT NULL,
	"ord" bigint GENERATED ALWAYS AS IDENTITY (sequence name "branches_ord_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"run_id" text NOT NULL,
	"parent_branch_id" text,
	"fork_seq" bigint,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bundles" (
	"content_hash" text PRIMARY KEY NOT NULL,
	"imported_at" text NOT NULL,
	"file_name" text NOT NULL,
	"manifest" jsonb NOT NULL,
	"run_ids" jsonb NOT NULL,
	"experiment_ids" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"branch_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"type" text NOT NULL,
	"schema_version" integer NOT NULL,
	"occurred_at" text NOT NULL,
	"caused_by" text,
	"data" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "experiment_runs" (
	"experiment_id" text NOT NULL,
	"task_id" text NOT NULL,
	"arm" text NOT NULL,
	"run_id" text NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "experiments" (
	"id" text PRIMARY KEY NOT NULL,
	"ord" bigint GENERATED ALWAYS AS IDENTITY (sequence name "experiments_ord_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" text NOT NULL,
	"name" text NOT NULL,
	"definition" jsonb NOT NULL,
	"task_set_name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "human_grades" (
	"id" text PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"branch_id" text NOT NULL,
	"trial" integer NOT NULL,
	"task_id" text NOT NULL,
	"verdict" text NOT NULL,
	"criteria" jsonb,
	"note" text NOT NULL,
	"judge_verdict" text NOT NULL,
	"judge_score" double precision NOT NULL,
	"graded_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memory_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"store" text NOT NULL,
	"environment" text NOT NULL,
	"task_id" text NOT NULL,
	"text" text NOT NULL,
	"source_run_id" text NOT NULL,
	"source_branch_id" text NOT NULL,
	"source_trial" integer NOT NULL,
	"source_event_id" text NOT NULL,
	"created_at" text NOT NULL,
	"expires_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memory_stores" (
	"name" text PRIMARY KEY NOT NULL,
	"retention_days" double precision NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prices" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"input_usd_per_mtok" double precision NOT NULL,
	"output_usd_per_mtok" double precision NOT NULL,
	"cached_input_usd_per_mtok" double precision,
	"entered_at" text NOT NULL,
	"note" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "response_cache" (
	"request_hash" text PRIMARY KEY NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"id" text PRIMARY KEY NOT NULL,
	"ord" bigint GENERATED ALWAYS AS IDENTITY (sequence name "runs_ord_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" text NOT NULL,
	"root_branch_id" text NOT NULL,
	"title" text NOT NULL,
	"config" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_sets" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"environment" text NOT NULL,
	"created_at" text NOT NULL,
	"tasks" jsonb NOT NULL,
	"problems" jsonb NOT NULL,
	"content_hash" text
);
--> statement-breakpoint
CREATE TABLE "template_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"template_id" text NOT NULL,
	"number" integer NOT NULL,
	"parent_id" text,
	"text" text NOT NULL,
	"message" text NOT NULL,
	"created_at" text NOT NULL,
	"built_in" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" text PRIMARY KEY NOT NULL,
	"ord" bigint GENERATED ALWAYS AS IDENTITY (sequence name "templates_ord_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"family" text NOT NULL,
	"role" text NOT NULL,
	"strategy" text,
	"built_in" boolean NOT NULL,
	"source" text,
	"labels" jsonb NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "branch_leases" ADD CONSTRAINT "branch_leases_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "branch_summaries" ADD CONSTRAINT "branch_summaries_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "branch_summaries" ADD CONSTRAINT "branch_summaries_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "branches" ADD CONSTRAINT "branches_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiment_runs" ADD CONSTRAINT "experiment_runs_experiment_id_experiments_id_fk" FOREIGN KEY ("experiment_id") REFERENCES "public"."experiments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiment_runs" ADD CONSTRAINT "experiment_runs_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "human_grades" ADD CONSTRAINT "human_grades_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_entries" ADD CONSTRAINT "memory_entries_store_memory_stores_name_fk" FOREIGN KEY ("store") REFERENCES "public"."memory_stores"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_versions" ADD CONSTRAINT "template_versions_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "branch_summaries_status" ON "branch_summaries" USING btree ("status","queued_at");--> statement-breakpoint
CREATE INDEX "branch_summaries_run" ON "branch_summaries" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "branches_run" ON "branches" USING btree ("run_id");--> statement-breakpoint
CREATE UNIQUE INDEX "events_branch_seq" ON "events" USING btree ("branch_id","seq");--> statement-breakpoint
CREATE INDEX "events_run" ON "events" USING btree ("run_id");--> statement-breakpoint
CREATE UNIQUE INDEX "experiment_runs_cell" ON "experiment_runs" USING btree ("experiment_id","task_id","arm");--> statement-breakpoint
CREATE UNIQUE INDEX "experiment_runs_run" ON "experiment_runs" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "experiments_created_at" ON "experiments" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "human_grades_trial" ON "human_grades" USING btree ("run_id","branch_id","trial");--> statement-breakpoint
CREATE UNIQUE INDEX "memory_entries_source" ON "memory_entries" USING btree ("store","source_event_id");--> statement-breakpoint
CREATE INDEX "memory_entries_task" ON "memory_entries" USING btree ("store","environment","task_id","created_at");--> statement-breakpoint
CREATE INDEX "memory_entries_expiry" ON "memory_entries" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "prices_model" ON "prices" USING btree ("provider","model","entered_at");--> statement-breakpoint
CREATE INDEX "runs_created_at" ON "runs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "task_sets_hash" ON "task_sets" USING btree ("environment","content_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "template_versions_number" ON "template_versions" USING btree ("template_id","number");--> statement-breakpoint
CREATE INDEX "templates_family_role" ON "templates" USING btree ("family","role");