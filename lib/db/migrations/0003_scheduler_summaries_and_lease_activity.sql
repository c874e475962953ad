CREATE TABLE `branch_summaries` (
	`branch_id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`status` text NOT NULL,
	`queued_at` text NOT NULL,
	`summary` text NOT NULL,
	FOREIGN KEY (`branch_id`) REFERENCES `branches`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `branch_summaries_status` ON `branch_summaries` (`status`,`queued_at`);--> statement-breakpoint
CREATE INDEX `branch_summaries_run` ON `branch_summaries` (`run_id`);--> statement-breakpoint
ALTER TABLE `branch_leases` ADD `activity` text;