CREATE TABLE "lessons" (
	"id" text PRIMARY KEY NOT NULL,
	"file_text" text NOT NULL,
	"updated_at" text NOT NULL
);
