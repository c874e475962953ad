import { z } from "zod";
import { splitModelId } from "@/lib/domain/model-id";
import { describeIssues } from "@/lib/domain/describe-issues";

/**
 * Provider limits enforced at the call site: per provider + model + API key,
 * requests and tokens per window and calls in flight, shared by every worker in shared mode.
 *
 * `REFLEXION_RATE_LIMITS` is a JSON object from a pattern to its limits. A pattern is a model id
 * (`openai:gpt-4o-mini`), a provider (`openai`) or `*`; the most specific one that matches a call's
 * model applies. Example:
 *
 *   REFLEXION_RATE_LIMITS='{"openai": {"requestsPerMinute": 500, "tokensPerMinute": 200000, "concurrent": 8},
 *                           "compatible:fake-model": {"requestsPerMinute": 120}}'
 *
 * Every field is optional; a missing one is not limited. `windowSeconds` (default 60) is the
 * length of the counting window: the limiter admits `requestsPerMinute × windowSeconds / 60`
 * requests (and as many tokens) per window, so a shorter window spreads the same rate more evenly.
 */
export const rateLimitSchema = z
  .object({
    /** Requests started per minute (each SDK retry counts). */
    requestsPerMinute: z.number().positive().optional(),
    /** Prompt + completion tokens per minute (estimated before the call, corrected after). */
    tokensPerMinute: z.number().positive().optional(),
    /** Calls in flight at once. */
    concurrent: z.number().int().positive().optional(),
    /** The counting window, in seconds (1–3600). */
    windowSeconds: z.number().int().min(1).max(3600).default(60),
  })
  .strict();

/** Limits for one pattern, as parsed. */
export type RateLimit = z.infer<typeof rateLimitSchema>;

/** All configured limits by pattern. */
export type RateLimitTable = Readonly<Record<string, RateLimit>>;

/**
 * Parses `REFLEXION_RATE_LIMITS` (empty or unset: no limits).
 * @throws Error naming the variable and what to fix when it is not valid JSON of that shape.
 */
export function parseRateLimits(value: string | undefined): RateLimitTable {
  if (!value?.trim()) return {};
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch (error) {
    throw new Error(`REFLEXION_RATE_LIMITS is not JSON (${error instanceof Error ? error.message : String(error)}). Example: {"openai": {"requestsPerMinute": 500, "concurrent": 8}}.`);
  }
  const parsed = z.record(z.string().min(1), rateLimitSchema).safeParse(json);
  if (!parsed.success) {
    throw new Error(`REFLEXION_RATE_LIMITS: ${describeIssues(parsed.error, "value", 1)}. Fields: requestsPerMinute, tokensPerMinute, concurrent, windowSeconds.`);
  }
  return parsed.data;
}

/** The limits that apply to `modelId` (`provider:model`): its own entry, else its provider's, else `*`, else null. */
export function limitFor(table: RateLimitTable, modelId: string): RateLimit | null {
  const { provider } = splitModelId(modelId);
  return table[modelId] ?? table[provider] ?? table["*"] ?? null;
}
