CREATE TABLE `audit_log` (
	`id` text PRIMARY KEY NOT NULL,
	`at` text NOT NULL,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`target` text NOT NULL,
	`status` integer NOT NULL,
	`detail` text
);
--> statement-breakpoint
CREATE INDEX `audit_log_at` ON `audit_log` (`at`);--> statement-breakpoint
CREATE TABLE `spend_ledger` (
	`user_key` text NOT NULL,
	`day` text NOT NULL,
	`usd` real DEFAULT 0 NOT NULL,
	`tokens` integer DEFAULT 0 NOT NULL,
	`calls` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_key`, `day`)
);
--> statement-breakpoint
CREATE INDEX `spend_ledger_day` ON `spend_ledger` (`day`);--> statement-breakpoint
CREATE TABLE `spending_limits` (
	`scope` text NOT NULL,
	`period` text NOT NULL,
	`usd` real,
	`tokens` integer,
	`updated_at` text NOT NULL,
	`updated_by` text,
	PRIMARY KEY(`scope`, `period`)
);
--> statement-breakpoint
ALTER TABLE `events` ADD `actor` text;--> statement-breakpoint
ALTER TABLE `experiments` ADD `owner_user_id` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `owner_user_id` text;