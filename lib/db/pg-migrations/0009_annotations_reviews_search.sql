CREATE TABLE "annotation_events" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "annotation_events_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"run_id" text NOT NULL,
	"annotation_id" text NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"occurred_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_items" (
	"id" text PRIMARY KEY NOT NULL,
	"queue_id" text NOT NULL,
	"position" integer NOT NULL,
	"record" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_queues" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" text NOT NULL,
	"record" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"queue_id" text NOT NULL,
	"item_id" text NOT NULL,
	"reviewer" text NOT NULL,
	"reviewed_at" text NOT NULL,
	"record" jsonb NOT NULL
);
--> statement-breakpoint
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
ALTER TABLE "annotation_events" ADD CONSTRAINT "annotation_events_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_items" ADD CONSTRAINT "review_items_queue_id_review_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."review_queues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_queue_id_review_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."review_queues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_item_id_review_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."review_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "annotation_events_run" ON "annotation_events" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "annotation_events_annotation" ON "annotation_events" USING btree ("annotation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "review_items_position" ON "review_items" USING btree ("queue_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_item_reviewer" ON "reviews" USING btree ("queue_id","item_id","reviewer");--> statement-breakpoint
CREATE INDEX "search_nodes_branch" ON "search_nodes" USING btree ("branch_id");--> statement-breakpoint
CREATE INDEX "search_trials_branch" ON "search_trials" USING btree ("branch_id");