CREATE TABLE "review_items" (
	"id" text PRIMARY KEY NOT NULL,
	"queue_id" text NOT NULL,
	"position" integer NOT NULL,
	"record" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_queues" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" text NOT NULL,
	"record" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"queue_id" text NOT NULL,
	"item_id" text NOT NULL,
	"reviewer" text NOT NULL,
	"reviewed_at" text NOT NULL,
	"record" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "review_items" ADD CONSTRAINT "review_items_queue_id_review_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."review_queues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_queue_id_review_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."review_queues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_item_id_review_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."review_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "review_items_position" ON "review_items" USING btree ("queue_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_item_reviewer" ON "reviews" USING btree ("queue_id","item_id","reviewer");