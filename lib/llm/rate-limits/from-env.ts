import { setTimeout as wait } from "node:timers/promises";
import { Pool } from "pg";
import { isPostgresUrl } from "@/lib/db/pg/database-url";
import { isDatabaseUnreachable } from "@/lib/db/pg/describe-pg-error";
import { guardPool } from "@/lib/db/pg/pool-error-listener";
import { createMemoryCallLimiter, createPostgresCallLimiter, type CallPermit, type CallRateLimiter } from "./call-limiter";
import { processAdaptiveGate, type AdaptiveGate } from "./adaptive-gate";
import { parseRateLimits } from "./config";

/**
 * The call-site limiter this process uses:
 * - shared mode (`REFLEXION_DATABASE_URL=postgres://…`): counters in that database, so the limits
 *   of `REFLEXION_RATE_LIMITS` and every 429's `Retry-After` hold across all workers — even with
 *   no limits configured, a 429 blocks its key for everyone;
 * - embedded, with `REFLEXION_RATE_LIMITS` set: counters in this process's memory;
 * - embedded, with adaptive limits on (`REFLEXION_ADAPTIVE_LIMITS`, default on): a limiter in
 *   memory with no configured limits, so every key's rate and calls in flight adapt to the provider;
 * - otherwise none (null): calls go out as before.
 * Adaptive limits (adaptive-controller.ts) use this process's {@link processAdaptiveGate}.
 * @throws Error naming `REFLEXION_RATE_LIMITS` or `REFLEXION_ADAPTIVE_LIMITS` when malformed.
 */
export function callLimiterFromEnv(env: Record<string, string | undefined>): CallRateLimiter | null {
  const table = parseRateLimits(env.REFLEXION_RATE_LIMITS);
  const adaptive = adaptiveLimitsOn(env) ? processAdaptiveGate : null;
  const url = env.REFLEXION_DATABASE_URL;
  if (isPostgresUrl(url)) {
    return lazyLimiter(
      () => createPostgresCallLimiter(table, guardPool(new Pool({ connectionString: url, max: 4, application_name: "reflexion-rate-limits", allowExitOnIdle: true }), "rate-limit counters"), { ownsPool: true, adaptive }),
      adaptive,
    );
  }
  return Object.keys(table).length > 0 || adaptive ? createMemoryCallLimiter(table, { adaptive }) : null;
}

/**
 * Whether the adaptive limits are on: `REFLEXION_ADAPTIVE_LIMITS` unset, `on`, `1` or `true` (the
 * default), `off`, `0` or `false` turns them off (calls then follow the configured limits only).
 * @throws Error naming the variable and its values when it is anything else.
 */
export function adaptiveLimitsOn(env: Record<string, string | undefined>): boolean {
  const value = env.REFLEXION_ADAPTIVE_LIMITS?.trim().toLowerCase();
  if (value === undefined || value === "" || value === "on" || value === "1" || value === "true") return true;
  if (value === "off" || value === "0" || value === "false") return false;
  throw new Error(`REFLEXION_ADAPTIVE_LIMITS is "${env.REFLEXION_ADAPTIVE_LIMITS}": set it to on (the default) or off.`);
}

/**
 * Longest a call waits for the limiter's database to come back, in ms (a PostgreSQL restart takes
 * seconds). Until then an unreachable database is not the model's failure: the call is held, as by
 * a block, instead of failing — which would record a model-call-error and pause the run.
 */
export const UNREACHABLE_WAIT_MS = 30_000;

/** `attempt()`, tried again (250 ms doubling to 5 s) while its error says the database is unreachable, for at most {@link UNREACHABLE_WAIT_MS}. */
async function untilReachable<T>(attempt: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const deadline = Date.now() + UNREACHABLE_WAIT_MS;
  for (let delay = 250; ; delay = Math.min(delay * 2, 5_000)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isDatabaseUnreachable(error) || Date.now() + delay > deadline) throw error;
      await wait(delay, undefined, { signal });
    }
  }
}

/** A limiter created on first use (the shared one needs its table before the first call). */
function lazyLimiter(create: () => Promise<CallRateLimiter>, adaptive: AdaptiveGate | null): CallRateLimiter {
  let made: Promise<CallRateLimiter> | null = null;
  const get = () => {
    made ??= create().catch((error: unknown) => {
      made = null; // the database may be back next time
      throw error;
    });
    return made;
  };
  return {
    shared: true,
    adaptive,
    acquire: async (call, signal): Promise<CallPermit> => untilReachable(async () => (await get()).acquire(call, signal), signal),
    block: async (key, ms) => untilReachable(async () => (await get()).block(key, ms)),
    close: async () => {
      if (made) await (await made.catch(() => null))?.close();
    },
  };
}
