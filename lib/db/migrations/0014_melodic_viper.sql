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
CREATE UNIQUE INDEX `reviews_item_reviewer` ON `reviews` (`queue_id`,`item_id`,`reviewer`);