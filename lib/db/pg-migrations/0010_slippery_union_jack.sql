CREATE TABLE "audit_log" (
	"id" text PRIMARY KEY NOT NULL,
	"ord" bigint GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_ord_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" text NOT NULL,
	"actor" jsonb NOT NULL,
	"action" text NOT NULL,
	"target" jsonb NOT NULL,
	"status" integer NOT NULL,
	"detail" text
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "actor" jsonb;--> statement-breakpoint
ALTER TABLE "experiments" ADD COLUMN "owner_user_id" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "owner_user_id" text;--> statement-breakpoint
CREATE INDEX "audit_log_at" ON "audit_log" USING btree ("at");