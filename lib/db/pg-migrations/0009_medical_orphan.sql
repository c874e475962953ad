CREATE TABLE "search_branches" (
	"branch_id" text PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"indexed_seq" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_nodes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "search_nodes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"trial_key" text NOT NULL,
	"branch_id" text NOT NULL,
	"event_id" text NOT NULL,
	"field" text NOT NULL,
	"step" integer,
	"text" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_trials" (
	"key" text PRIMARY KEY NOT NULL,
	"branch_id" text NOT NULL,
	"run_id" text NOT NULL,
	"meta" jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_nodes_branch" ON "search_nodes" USING btree ("branch_id");--> statement-breakpoint
CREATE INDEX "search_trials_branch" ON "search_trials" USING btree ("branch_id");