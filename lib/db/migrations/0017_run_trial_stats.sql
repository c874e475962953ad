CREATE TABLE `run_trial_stats` (
	`run_id` text PRIMARY KEY NOT NULL,
	`branch_id` text NOT NULL,
	`last_seq` integer NOT NULL,
	`version` integer NOT NULL,
	`stats` text NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action
);
