CREATE TABLE `experiment_summaries` (
	`experiment_id` text PRIMARY KEY NOT NULL,
	`fingerprint` text NOT NULL,
	`summary` text NOT NULL,
	`computed_at` text NOT NULL,
	FOREIGN KEY (`experiment_id`) REFERENCES `experiments`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `experiment_runs_position` ON `experiment_runs` (`experiment_id`,`position`);