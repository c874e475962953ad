import type { Pool } from "pg";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { AdaptiveGate } from "./adaptive-gate";
import type { CallOutcome } from "./adaptive-controller";
import { createAdaptiveTable, publishAdaptiveLimits } from "./adaptive-publish";
import { limitFor, type RateLimit, type RateLimitTable } from "./config";

/**
 * The call-site limiter (docs/scale-and-export.md §2.4 "Provider limits at the
 * call site"): before each provider request — every SDK retry included — a call takes a permit
 * for its key (`provider:model|key-id`, the key id a hash of the API key, never the key):
 * a request point, its estimated tokens and a slot in flight, waiting while any is used up; and a
 * 429's `Retry-After` blocks the key for everyone. Counters live in rate-limiter-flexible limiters:
 * `RateLimiterPostgres` on the shared database in shared mode (so every worker on every machine
 * counts against the same rows, table {@link RATE_LIMIT_TABLE}), `RateLimiterMemory` in the
 * embedded default (one process).
 *
 * Windows are fixed (rate-limiter-flexible's): at most `requestsPerMinute × windowSeconds / 60`
 * requests start per window of `windowSeconds`. Calls in flight are counted in a window of
 * {@link CONCURRENCY_WINDOW_S}: a worker that dies holding slots frees them when it ends.
 *
 * With an {@link AdaptiveGate} (the default, unless `REFLEXION_ADAPTIVE_LIMITS=off`), each call
 * first waits for its key's adaptive limit in this process — the rate and calls in flight learnt
 * from 429s, Retry-After, latency and time limits (adaptive-controller.ts), under the configured
 * limits as ceilings — and reports its outcome when released.
 */
export interface CallRateLimiter {
  /** True when the counters are shared through PostgreSQL. */
  readonly shared: boolean;
  /**
   * Waits until a request for `key` may start under the limits of `modelId`; resolves to a permit
   * to release when the response has ended (with the tokens it really used, when known).
   * Rejects with the signal's reason when `signal` aborts while waiting.
   */
  acquire(call: { key: string; modelId: string; estimatedTokens: number }, signal?: AbortSignal): Promise<CallPermit>;
  /** Blocks `key` for every worker for `ms` ms (a 429's `Retry-After`; at least 50 ms). */
  block(key: string, ms: number): Promise<void>;
  /** The adaptive limits of this process (null: adaptation is off). */
  readonly adaptive: AdaptiveGate | null;
  close(): Promise<void>;
}

/** A request's hold on its key's limits. */
export interface CallPermit {
  /**
   * Frees the slot in flight and corrects the token estimate to `actualTokens` (null: keep the
   * estimate); `outcome` (default `error`: says nothing about load) teaches the adaptive limit. Idempotent.
   */
  release(actualTokens: number | null, outcome?: CallOutcome): Promise<void>;
}

/** The shared table of the limiters' counters (created on first use). */
export const RATE_LIMIT_TABLE = "reflexion_rate_limits";
/** Window of the in-flight counter, in seconds: the longest a dead worker's slots stay taken. */
export const CONCURRENCY_WINDOW_S = 120;

type LimiterFactory = (options: { keyPrefix: string; points: number; duration: number }) => RateLimiterAbstract;

interface KeyLimiters {
  requests: RateLimiterAbstract | null;
  tokens: RateLimiterAbstract | null;
  tokenPoints: number;
  concurrent: RateLimiterAbstract | null;
}

/** A limiter over `table`'s limits whose counters come from `factory`. */
class TableCallLimiter implements CallRateLimiter {
  private readonly byLimit = new Map<string, KeyLimiters>();
  private readonly blocked: RateLimiterAbstract;

  constructor(
    private readonly table: RateLimitTable,
    private readonly factory: LimiterFactory,
    readonly shared: boolean,
    readonly adaptive: AdaptiveGate | null,
    private readonly onClose: () => Promise<void> = async () => undefined,
  ) {
    this.blocked = factory({ keyPrefix: "rl-blocked", points: 1, duration: 1 });
  }

  async acquire(call: { key: string; modelId: string; estimatedTokens: number }, signal?: AbortSignal): Promise<CallPermit> {
    const limit = limitFor(this.table, call.modelId);
    const limiters = limit ? this.limitersFor(limit) : null;
    // 1. a 429's block; 2. the adaptive limit; 3. calls in flight; 4. requests; 5. tokens. Each waits until it allows.
    for (;;) {
      const block = await this.blocked.get(call.key);
      if (!block || block.consumedPoints <= 1) break;
      await sleep(block.msBeforeNext + jitter(), signal);
    }
    const ceilings = { ratePerS: limit?.requestsPerMinute ? limit.requestsPerMinute / 60 : null, concurrency: limit?.concurrent ?? null };
    const startedAt = this.adaptive ? await this.adaptive.acquire(call.key, call.modelId, ceilings, signal) : 0;
    let reported = false;
    const report = (outcome: CallOutcome | undefined) => {
      if (reported || !this.adaptive) return;
      reported = true;
      this.adaptive.finish(call.key, outcome ?? { kind: "error" }, startedAt);
    };
    if (!limiters) return { release: async (_tokens, outcome) => report(outcome) };
    let slot: Taken | null = null;
    try {
      slot = limiters.concurrent ? await take(limiters.concurrent, call.key, 1, signal, true) : null;
    } catch (error) {
      report(undefined);
      throw error;
    }
    try {
      if (limiters.requests) await take(limiters.requests, call.key, 1, signal);
      const tokens = Math.min(Math.max(1, Math.round(call.estimatedTokens)), limiters.tokenPoints);
      const tokenWindow = limiters.tokens ? await take(limiters.tokens, call.key, tokens, signal) : null;
      let released = false;
      return {
        release: async (actualTokens, outcome) => {
          if (released) return;
          released = true;
          report(outcome);
          await Promise.all([
            slot ? giveBack(slot, call.key, 1) : undefined,
            tokenWindow && actualTokens !== null && actualTokens !== tokens ? correct(tokenWindow, call.key, actualTokens - tokens) : undefined,
          ]);
        },
      };
    } catch (error) {
      report(undefined);
      if (slot) await giveBack(slot, call.key, 1);
      throw error;
    }
  }

  async block(key: string, ms: number): Promise<void> {
    // Millisecond precision (rate-limiter-flexible takes fractional seconds; 0 would mean forever).
    const seconds = Math.max(50, Math.ceil(ms)) / 1000;
    // Keep the longer of an existing block and this one.
    const current = await this.blocked.get(key);
    if (current && current.consumedPoints > 1 && current.msBeforeNext >= seconds * 1000) return;
    await this.blocked.block(key, seconds);
  }

  async close(): Promise<void> {
    await this.onClose();
  }

  private limitersFor(limit: RateLimit): KeyLimiters {
    const id = JSON.stringify(limit);
    const known = this.byLimit.get(id);
    if (known) return known;
    const window = limit.windowSeconds;
    const perWindow = (perMinute: number) => Math.max(1, Math.floor((perMinute * window) / 60));
    // The key prefix names the limit, so two settings never share a counter row.
    const prefix = (kind: string, points: number, duration: number) => `rl-${kind}-${points}-${duration}`;
    const requests = limit.requestsPerMinute ? perWindow(limit.requestsPerMinute) : 0;
    const tokenPoints = limit.tokensPerMinute ? perWindow(limit.tokensPerMinute) : 0;
    const made: KeyLimiters = {
      requests: requests ? this.factory({ keyPrefix: prefix("req", requests, window), points: requests, duration: window }) : null,
      tokens: tokenPoints ? this.factory({ keyPrefix: prefix("tok", tokenPoints, window), points: tokenPoints, duration: window }) : null,
      tokenPoints: tokenPoints || Number.MAX_SAFE_INTEGER,
      concurrent: limit.concurrent ? this.factory({ keyPrefix: prefix("par", limit.concurrent, CONCURRENCY_WINDOW_S), points: limit.concurrent, duration: CONCURRENCY_WINDOW_S }) : null,
    };
    this.byLimit.set(id, made);
    return made;
  }
}

/** A consumed window: which limiter, and when that window ends (epoch ms) — a give-back after it would count in the next one. */
interface Taken {
  limiter: RateLimiterAbstract;
  windowEndsAt: number;
}

/** How often a call waiting for a slot in flight looks again, in ms (a slot frees when another call ends, not at a window's end). */
const SLOT_POLL_MS = 100;

/**
 * Consumes `points` for `key`, waiting while the limit is used up (a rejected consume sends no
 * request). Rate windows are waited out whole. For the in-flight counter (`slot`) a rejected
 * consume is given back at once — it would otherwise count as a call in flight — and tried again
 * every {@link SLOT_POLL_MS}.
 */
async function take(limiter: RateLimiterAbstract, key: string, points: number, signal: AbortSignal | undefined, slot = false): Promise<Taken> {
  for (;;) {
    signal?.throwIfAborted();
    try {
      const res = await limiter.consume(key, points);
      return { limiter, windowEndsAt: Date.now() + res.msBeforeNext };
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      if (slot) await limiter.reward(key, points).catch(() => undefined);
      await sleep(slot ? Math.min(error.msBeforeNext, SLOT_POLL_MS) + jitter() : error.msBeforeNext + jitter(), signal);
    }
  }
}

async function giveBack(taken: Taken, key: string, points: number): Promise<void> {
  if (Date.now() < taken.windowEndsAt) await taken.limiter.reward(key, points).catch(() => undefined);
}

async function correct(taken: Taken, key: string, delta: number): Promise<void> {
  if (Date.now() >= taken.windowEndsAt) return;
  await (delta > 0 ? taken.limiter.penalty(key, delta) : taken.limiter.reward(key, -delta)).catch(() => undefined);
}

/** Up to 50 ms, so waiting workers do not all retry at the same instant. */
function jitter(): number {
  return Math.floor(Math.random() * 50);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
    const timer = setTimeout(done, Math.max(1, ms));
    function done() {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(timer);
      reject(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
    }
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The embedded default: counters in this process's memory; with `adaptive`, each call also waits for its key's adaptive limit. */
export function createMemoryCallLimiter(table: RateLimitTable, options: { adaptive?: AdaptiveGate | null } = {}): CallRateLimiter {
  return new TableCallLimiter(table, (limiterOptions) => new RateLimiterMemory(limiterOptions), false, options.adaptive ?? null);
}

/**
 * Shared mode: counters in PostgreSQL (`pool` reaches the same database as every worker). Creates
 * {@link RATE_LIMIT_TABLE} once (the limiters are then told it exists, so concurrent workers do
 * not race on `CREATE TABLE`). With `adaptive`, also the reports' table, and this process reports
 * its adaptive limits there until closed (adaptive-publish.ts).
 */
export async function createPostgresCallLimiter(table: RateLimitTable, pool: Pool, options: { ownsPool?: boolean; adaptive?: AdaptiveGate | null } = {}): Promise<CallRateLimiter> {
  // One connection for lock, create and unlock (an advisory lock belongs to its session).
  const client = await pool.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(hashtext('${RATE_LIMIT_TABLE}'))`);
    await client.query(`CREATE TABLE IF NOT EXISTS "${RATE_LIMIT_TABLE}" (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`);
    if (options.adaptive) await createAdaptiveTable((sql) => client.query(sql));
    await client.query(`SELECT pg_advisory_unlock(hashtext('${RATE_LIMIT_TABLE}'))`);
  } finally {
    client.release();
  }
  const stopReporting = options.adaptive ? publishAdaptiveLimits(options.adaptive, pool) : () => undefined;
  return new TableCallLimiter(
    table,
    (limiterOptions) => new RateLimiterPostgres({ ...limiterOptions, storeClient: pool, storeType: "pool", tableName: RATE_LIMIT_TABLE, tableCreated: true }),
    true,
    options.adaptive ?? null,
    async () => {
      stopReporting();
      if (options.ownsPool) await pool.end();
    },
  );
}
