ALTER TABLE `optimisations` ADD `lease_owner` text;--> statement-breakpoint
ALTER TABLE `optimisations` ADD `lease_expires_at` integer;