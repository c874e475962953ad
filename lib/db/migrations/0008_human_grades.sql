CREATE TABLE `human_grades` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`branch_id` text NOT NULL,
	`trial` integer NOT NULL,
	`task_id` text NOT NULL,
	`verdict` text NOT NULL,
	`criteria` text,
	`note` text NOT NULL,
	`judge_verdict` text NOT NULL,
	`judge_score` real NOT NULL,
	`graded_at` text NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `human_grades_trial` ON `human_grades` (`run_id`,`branch_id`,`trial`);