CREATE TABLE `template_versions` (
	`id` text PRIMARY KEY NOT NULL,
	`template_id` text NOT NULL,
	`number` integer NOT NULL,
	`parent_id` text,
	`text` text NOT NULL,
	`message` text NOT NULL,
	`created_at` text NOT NULL,
	`built_in` integer NOT NULL,
	FOREIGN KEY (`template_id`) REFERENCES `templates`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `template_versions_number` ON `template_versions` (`template_id`,`number`);--> statement-breakpoint
CREATE TABLE `templates` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`family` text NOT NULL,
	`role` text NOT NULL,
	`strategy` text,
	`built_in` integer NOT NULL,
	`source` text,
	`labels` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `templates_family_role` ON `templates` (`family`,`role`);--> statement-breakpoint
CREATE TRIGGER `template_versions_immutable_update` BEFORE UPDATE ON `template_versions` BEGIN SELECT RAISE(ABORT, 'template versions are immutable; save a new version instead'); END;
--> statement-breakpoint
CREATE TRIGGER `template_versions_immutable_delete` BEFORE DELETE ON `template_versions` BEGIN SELECT RAISE(ABORT, 'template versions are immutable; save a new version instead'); END;
