CREATE TABLE `memory_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`store` text NOT NULL,
	`environment` text NOT NULL,
	`task_id` text NOT NULL,
	`text` text NOT NULL,
	`source_run_id` text NOT NULL,
	`source_branch_id` text NOT NULL,
	`source_trial` integer NOT NULL,
	`source_event_id` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`store`) REFERENCES `memory_stores`(`name`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `memory_entries_source` ON `memory_entries` (`store`,`source_event_id`);--> statement-breakpoint
CREATE INDEX `memory_entries_task` ON `memory_entries` (`store`,`environment`,`task_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `memory_entries_expiry` ON `memory_entries` (`expires_at`);--> statement-breakpoint
CREATE TABLE `memory_stores` (
	`name` text PRIMARY KEY NOT NULL,
	`retention_days` real NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `prices` (
	`id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`model` text NOT NULL,
	`input_usd_per_mtok` real NOT NULL,
	`output_usd_per_mtok` real NOT NULL,
	`cached_input_usd_per_mtok` real,
	`entered_at` text NOT NULL,
	`note` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `prices_model` ON `prices` (`provider`,`model`,`entered_at`);--> statement-breakpoint
CREATE TRIGGER `prices_append_only_update` BEFORE UPDATE ON `prices` BEGIN SELECT RAISE(ABORT, 'price rows are kept as history; add a newer row instead'); END;
--> statement-breakpoint
CREATE TRIGGER `prices_append_only_delete` BEFORE DELETE ON `prices` BEGIN SELECT RAISE(ABORT, 'price rows are kept as history; add a newer row instead'); END;
