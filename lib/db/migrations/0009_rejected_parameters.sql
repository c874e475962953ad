CREATE TABLE `rejected_parameters` (
	`model_id` text NOT NULL,
	`parameter` text NOT NULL,
	`rejected_at` text NOT NULL,
	PRIMARY KEY(`model_id`, `parameter`)
);
