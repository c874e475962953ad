import { Pool } from "pg";
import { z } from "zod";
import { pgErrorCode } from "@/lib/db/pg/database";
import { describePgError } from "@/lib/db/pg/describe-pg-error";
import { isPostgresUrl } from "@/lib/db/pg/database-url";
import { guardPool } from "@/lib/db/pg/pool-error-listener";
import type { AdaptiveLimit, BlockedModel, RateLimitEntry, RateLimitView } from "@/lib/domain/rate-limit-view";
import { processAdaptiveGate } from "@/lib/llm/rate-limits/adaptive-gate";
import { PROCESS_ID, readAdaptiveReports } from "@/lib/llm/rate-limits/adaptive-publish";
import { adaptiveLimitsOf } from "@/lib/llm/rate-limits/adaptive-report";
import { RATE_LIMIT_TABLE } from "@/lib/llm/rate-limits/call-limiter";
import { adaptiveLimitsOn } from "@/lib/llm/rate-limits/from-env";
import { parseRateLimits, type RateLimitTable } from "@/lib/llm/rate-limits/config";

/**
 * The read-only view of the shared provider limits for `/jobs` (served by
 * `GET /api/jobs/rate-limits`). It sits with the job queue because both are what shared mode's
 * workers hold in common: the limits come from this process's `REFLEXION_RATE_LIMITS` (every
 * process should have the same), the blocks from the limiter's PostgreSQL table.
 *
 * A 429 block is the row `rl-blocked:<provider:model>|<key id>` of {@link RATE_LIMIT_TABLE}
 * (rate-limiter-flexible's `block()`: points = 2, `expire` the block's end in epoch ms;
 * lib/llm/rate-limits/call-limiter.ts). Only the part before the last `|` — the provider + model —
 * leaves this module; the key id (a hash of the API key) is dropped here and never reaches a client.
 * In the embedded mode blocks live in each process's memory and are not readable: `blocked` is null.
 * The blocks are read through a small pool of this module's own (one connection, closed when idle)
 * rather than the run store's: the production build may bundle the store classes into several
 * chunks, so the store cannot be recognised as PostgreSQL by its class here.
 *
 * The adaptive limits come from this process's gate in the embedded mode (the app server drives
 * its runs itself), and in shared mode from every process's reports in the shared database
 * (lib/llm/rate-limits/adaptive-publish.ts, refreshed every 5 s).
 */
export async function readRateLimitView(env: Record<string, string | undefined>, now = Date.now()): Promise<RateLimitView> {
  let table: RateLimitTable = {};
  let problem: string | null = null;
  try {
    table = parseRateLimits(env.REFLEXION_RATE_LIMITS);
  } catch (error) {
    problem = `${error instanceof Error ? error.message : String(error)} Fix REFLEXION_RATE_LIMITS in every process's environment and restart them.`;
  }
  const limits = rateLimitEntries(table);
  const url = env.REFLEXION_DATABASE_URL?.trim();
  const shared = isPostgresUrl(url);
  let blocked: BlockedModel[] | null = null;
  if (shared && url) {
    try {
      blocked = await readBlocks(url, now);
    } catch (error) {
      blocked = null;
      problem ??= `Could not read the rate-limit table ${RATE_LIMIT_TABLE}: ${describePgError(error)}. Check that REFLEXION_DATABASE_URL's database is reachable, then reload.`;
    }
  }
  let adaptiveOn = true;
  try {
    adaptiveOn = adaptiveLimitsOn(env);
  } catch (error) {
    problem ??= `${error instanceof Error ? error.message : String(error)} Fix it in every process's environment and restart them.`;
  }
  let models: AdaptiveLimit[] = [];
  if (adaptiveOn && shared && url) {
    try {
      models = adaptiveLimitsOf(await readAdaptiveReports(poolFor(url), now));
    } catch (error) {
      problem ??= `Could not read the adaptive limits' reports: ${describePgError(error)}. Check that REFLEXION_DATABASE_URL's database is reachable, then reload.`;
    }
  } else if (adaptiveOn) {
    models = adaptiveLimitsOf(processAdaptiveGate.snapshots().map((snapshot) => ({ ...snapshot, process: PROCESS_ID })));
  }
  const counters = shared ? "shared" : limits.length > 0 ? "process" : "off";
  return { counters, limits, blocked, adaptive: { mode: adaptiveOn ? "on" : "off", models }, problem, readAt: new Date(now).toISOString() };
}

const SCOPE_ORDER = { model: 0, provider: 1, all: 2 } as const;

/** The configured patterns, most specific first (the order `limitFor` matches them), with per-window figures. */
export function rateLimitEntries(table: RateLimitTable): RateLimitEntry[] {
  const perWindow = (perMinute: number | undefined, window: number) => (perMinute ? Math.max(1, Math.floor((perMinute * window) / 60)) : null);
  return Object.entries(table)
    .map(([pattern, limit]): RateLimitEntry => ({
      pattern,
      scope: pattern === "*" ? "all" : pattern.includes(":") ? "model" : "provider",
      requestsPerMinute: limit.requestsPerMinute ?? null,
      tokensPerMinute: limit.tokensPerMinute ?? null,
      concurrent: limit.concurrent ?? null,
      windowSeconds: limit.windowSeconds,
      requestsPerWindow: perWindow(limit.requestsPerMinute, limit.windowSeconds),
      tokensPerWindow: perWindow(limit.tokensPerMinute, limit.windowSeconds),
    }))
    .sort((a, b) => SCOPE_ORDER[a.scope] - SCOPE_ORDER[b.scope] || a.pattern.localeCompare(b.pattern));
}

const BLOCK_PREFIX = "rl-blocked:";
const rowsSchema = z.object({ rows: z.array(z.object({ key: z.string(), expire: z.coerce.number().nullable() })) });
/** PostgreSQL's `undefined_table`: no call was limited yet, so the table was never created. */
const UNDEFINED_TABLE = "42P01";

const pools = new Map<string, Pool>();

/** This module's pool on `url`: at most one connection, closed after 10 s idle, never holding the process open. */
function poolFor(url: string): Pool {
  let pool = pools.get(url);
  if (!pool) {
    pool = new Pool({ connectionString: url, max: 1, idleTimeoutMillis: 10_000, allowExitOnIdle: true, application_name: "reflexion-rate-limit-view" });
    // A connection the server closes (restart, test teardown) must not crash the process.
    guardPool(pool, "rate-limit view");
    pools.set(url, pool);
  }
  return pool;
}

/** Models blocked now, by provider + model (the latest end of their keys' blocks), soonest end first. */
async function readBlocks(url: string, now: number): Promise<BlockedModel[]> {
  let result: unknown;
  try {
    result = await poolFor(url).query(`SELECT key, expire FROM "${RATE_LIMIT_TABLE}" WHERE key LIKE $1 AND points > 1 AND expire > $2`, [`${BLOCK_PREFIX}%`, now]);
  } catch (error) {
    if (pgErrorCode(error) === UNDEFINED_TABLE) return [];
    throw error;
  }
  const byModel = new Map<string, { keys: number; until: number }>();
  for (const row of rowsSchema.parse(result).rows) {
    const limiterKey = row.key.slice(BLOCK_PREFIX.length);
    const bar = limiterKey.lastIndexOf("|");
    const modelId = bar === -1 ? limiterKey : limiterKey.slice(0, bar);
    const seen = byModel.get(modelId) ?? { keys: 0, until: 0 };
    byModel.set(modelId, { keys: seen.keys + 1, until: Math.max(seen.until, row.expire ?? now) });
  }
  return [...byModel.entries()]
    .map(([modelId, { keys, until }]) => ({ modelId, keys, until: new Date(until).toISOString() }))
    .sort((a, b) => a.until.localeCompare(b.until));
}
