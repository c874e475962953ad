ALTER TABLE `task_sets` ADD `task_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Sets stored before the column: counted once here, so listing them never parses their tasks again.
UPDATE `task_sets` SET `task_count` = json_array_length(`tasks`);
