ALTER TABLE "optimisations" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "optimisations" ADD COLUMN "lease_expires_at" bigint;