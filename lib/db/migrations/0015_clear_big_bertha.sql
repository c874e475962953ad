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
ALTER TABLE `events` ADD `actor` text;--> statement-breakpoint
ALTER TABLE `experiments` ADD `owner_user_id` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `owner_user_id` text;