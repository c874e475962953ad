CREATE TABLE `optimisations` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`status` text NOT NULL,
	`target_template_id` text NOT NULL,
	`record` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `optimisations_target_template` ON `optimisations` (`target_template_id`);