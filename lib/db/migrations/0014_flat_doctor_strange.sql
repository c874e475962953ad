CREATE TABLE `search_branches` (
	`branch_id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`indexed_seq` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `search_nodes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`trial_key` text NOT NULL,
	`branch_id` text NOT NULL,
	`event_id` text NOT NULL,
	`field` text NOT NULL,
	`step` integer,
	`text` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `search_nodes_branch` ON `search_nodes` (`branch_id`);--> statement-breakpoint
CREATE TABLE `search_trials` (
	`key` text PRIMARY KEY NOT NULL,
	`branch_id` text NOT NULL,
	`run_id` text NOT NULL,
	`meta` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `search_trials_branch` ON `search_trials` (`branch_id`);