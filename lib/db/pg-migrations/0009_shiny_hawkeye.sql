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
ALTER TABLE "annotation_events" ADD CONSTRAINT "annotation_events_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "annotation_events_run" ON "annotation_events" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "annotation_events_annotation" ON "annotation_events" USING btree ("annotation_id");