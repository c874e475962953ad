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
CREATE INDEX `annotation_events_annotation` ON `annotation_events` (`annotation_id`);--> statement-breakpoint
CREATE TABLE `review_items` (
	`id` text PRIMARY KEY NOT NULL,
	`queue_id` text NOT NULL,
	`position` integer NOT NULL,
	`record` text NOT NULL,
	FOREIGN KEY (`queue_id`) REFERENCES `review_queues`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `review_items_position` ON `review_items` (`queue_id`,`position`);--> statement-breakpoint
CREATE TABLE `review_queues` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` text NOT NULL,
	`record` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `reviews` (
	`queue_id` text NOT NULL,
	`item_id` text NOT NULL,
	`reviewer` text NOT NULL,
	`reviewed_at` text NOT NULL,
	`record` text NOT NULL,
	FOREIGN KEY (`queue_id`) REFERENCES `review_queues`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`item_id`) REFERENCES `review_items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reviews_item_reviewer` ON `reviews` (`queue_id`,`item_id`,`reviewer`);--> statement-breakpoint
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