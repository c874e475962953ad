import { z } from "zod";

/**
 * `GET /api/jobs/rate-limits`: the provider limits of `REFLEXION_RATE_LIMITS`
 * as this server parsed them, where their counters live, and which provider + model is blocked by
 * a 429's `Retry-After` right now. Read-only; never an API key or a key's hash — a blocked entry
 * names the provider + model only (several keys of one model are counted, not named).
 */

const perMinute = z.number().positive().nullable();

/** One configured pattern (`provider:model`, `provider` or `*`) and its limits. */
export const rateLimitEntrySchema = z.object({
  pattern: z.string(),
  /** What the pattern matches: one model, every model of a provider, or every call. */
  scope: z.enum(["model", "provider", "all"]),
  /** Requests started per minute (each SDK retry counts); null: not limited. */
  requestsPerMinute: perMinute,
  /** Prompt + completion tokens per minute; null: not limited. */
  tokensPerMinute: perMinute,
  /** Calls in flight at once; null: not limited. */
  concurrent: z.number().int().positive().nullable(),
  /** The counting window, in seconds. */
  windowSeconds: z.number().int().positive(),
  /** Requests admitted per window (`floor(requestsPerMinute × windowSeconds / 60)`, at least 1); null: not limited. */
  requestsPerWindow: z.number().int().positive().nullable(),
  /** Tokens admitted per window, likewise; null: not limited. */
  tokensPerWindow: z.number().int().positive().nullable(),
});
export type RateLimitEntry = z.infer<typeof rateLimitEntrySchema>;

/** A provider + model blocked after a 429, until `until` (ISO-8601). */
export const blockedModelSchema = z.object({
  modelId: z.string(),
  /** How many API keys of this model are blocked (never which). */
  keys: z.number().int().positive(),
  until: z.string(),
});
export type BlockedModel = z.infer<typeof blockedModelSchema>;

/**
 * The adaptive limit learnt for one provider + model (lib/llm/rate-limits/adaptive-controller.ts),
 * over its API keys and, in shared mode, over the processes that reported it in the last
 * 30 s (each adapts within its share; the figures are their sums). Never a key or its hash.
 */
export const adaptiveLimitSchema = z.object({
  modelId: z.string(),
  /** API keys of this model with an adaptive limit (never which). */
  keys: z.number().int().positive(),
  /** Processes reporting it (1 in the embedded mode). */
  processes: z.number().int().positive(),
  /** The learnt request rate, requests per second; null while open (no 429 yet: only the configured limits hold). */
  ratePerS: z.number().nonnegative().nullable(),
  /** Requests started per second over the last 5 s. */
  measuredRatePerS: z.number().nonnegative(),
  /** The learnt calls in flight; null while open. */
  concurrency: z.number().int().positive().nullable(),
  /** Calls in flight now. */
  inFlight: z.number().int().nonnegative(),
  /** Requests answered 429, and requests started, since the processes started. */
  rateLimited: z.number().int().nonnegative(),
  started: z.number().int().nonnegative(),
  /** Paused by a 429's Retry-After until (ISO-8601), or null. */
  pausedUntil: z.string().nullable(),
});
/** One provider + model's adaptive limit, as `/jobs` and the progress line read it. */
export type AdaptiveLimit = z.infer<typeof adaptiveLimitSchema>;

export const rateLimitViewSchema = z.object({
  /** `shared`: counters in PostgreSQL, held by every worker together; `process`: in each process's memory; `off`: no limiter (embedded, none configured). */
  counters: z.enum(["shared", "process", "off"]),
  limits: z.array(rateLimitEntrySchema),
  /** Blocks readable from the shared store; null when they are not (each process keeps its own in memory). */
  blocked: z.array(blockedModelSchema).nullable(),
  /**
   * Adaptive limits (`REFLEXION_ADAPTIVE_LIMITS`, default on): `on` with what was learnt per provider +
   * model — read from this process in the embedded mode, from every worker's reports in shared mode —
   * or `off`.
   */
  adaptive: z.object({ mode: z.enum(["on", "off"]), models: z.array(adaptiveLimitSchema) }),
  /** A problem reading the configuration or the store, as a sentence saying what to do; null when none. */
  problem: z.string().nullable(),
  /** When this was read (ISO-8601). */
  readAt: z.string(),
});
export type RateLimitView = z.infer<typeof rateLimitViewSchema>;
