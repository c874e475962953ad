CREATE TABLE `experiment_runs` (
	`experiment_id` text NOT NULL,
	`task_id` text NOT NULL,
	`arm` text NOT NULL,
	`run_id` text NOT NULL,
	`position` integer NOT NULL,
	FOREIGN KEY (`experiment_id`) REFERENCES `experiments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `experiment_runs_cell` ON `experiment_runs` (`experiment_id`,`task_id`,`arm`);--> statement-breakpoint
CREATE UNIQUE INDEX `experiment_runs_run` ON `experiment_runs` (`run_id`);--> statement-breakpoint
CREATE TABLE `experiments` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` text NOT NULL,
	`name` text NOT NULL,
	`definition` text NOT NULL,
	`task_set_name` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `experiments_created_at` ON `experiments` (`created_at`);