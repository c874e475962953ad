CREATE TABLE `branches` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`parent_branch_id` text,
	`fork_seq` integer,
	`created_at` text NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`branch_id` text NOT NULL,
	`seq` integer NOT NULL,
	`type` text NOT NULL,
	`schema_version` integer NOT NULL,
	`occurred_at` text NOT NULL,
	`caused_by` text,
	`data` text NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`branch_id`) REFERENCES `branches`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `events_branch_seq` ON `events` (`branch_id`,`seq`);--> statement-breakpoint
CREATE INDEX `events_run` ON `events` (`run_id`);--> statement-breakpoint
CREATE TABLE `run_leases` (
	`run_id` text PRIMARY KEY NOT NULL,
	`owner` text NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `runs` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` text NOT NULL,
	`root_branch_id` text NOT NULL,
	`title` text NOT NULL,
	`config` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `runs_created_at` ON `runs` (`created_at`);--> statement-breakpoint
CREATE TABLE `task_sets` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`environment` text NOT NULL,
	`created_at` text NOT NULL,
	`tasks` text NOT NULL,
	`problems` text NOT NULL
);
