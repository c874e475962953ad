import { rateLimitViewSchema } from "@/lib/domain/rate-limit-view";
import { handle } from "@/lib/server/http-errors";
import { readRateLimitView } from "@/lib/server/job-queue/rate-limit-view";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * The provider limits of this server's `REFLEXION_RATE_LIMITS`, read-only: per
 * pattern requests/min, tokens/min, calls in flight and the window; whether the counters are
 * shared through PostgreSQL or kept per process; and in shared mode the provider + model pairs a
 * 429's `Retry-After` blocks now, with until when. Never an API key or a key's hash.
 */
export const GET = handle(async () => Response.json(rateLimitViewSchema.parse(await readRateLimitView(process.env))));
