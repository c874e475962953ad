ALTER TABLE "task_sets" ADD COLUMN "task_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Sets stored before the column: counted once here, so listing them never reads their tasks again.
UPDATE "task_sets" SET "task_count" = jsonb_array_length("tasks");
