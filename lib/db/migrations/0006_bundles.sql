CREATE TABLE `bundles` (
	`content_hash` text PRIMARY KEY NOT NULL,
	`imported_at` text NOT NULL,
	`file_name` text NOT NULL,
	`manifest` text NOT NULL,
	`run_ids` text NOT NULL,
	`experiment_ids` text NOT NULL
);
