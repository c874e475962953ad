CREATE TABLE `annotation_events` (
	`id` text PRIMARY KEY NOT NULL,
	`seq` integer NOT NULL,
	`run_id` text NOT NULL,
	`annotation_id` text NOT NULL,
	`type` text NOT NULL,
	`data` text NOT NULL,
	`occurred_at` text NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `annotation_events_seq` ON `annotation_events` (`seq`);--> statement-breakpoint
CREATE INDEX `annotation_events_run` ON `annotation_events` (`run_id`);--> statement-breakpoint
CREATE INDEX `annotation_events_annotation` ON `annotation_events` (`annotation_id`);