import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openNodePostgres } from "@/lib/db/pg/database";
import { PgRunStore } from "@/lib/db/pg/pg-store";
import { rateLimitViewSchema } from "@/lib/domain/rate-limit-view";
import { AdaptiveGate } from "@/lib/llm/rate-limits/adaptive-gate";
import { reportAdaptiveLimits } from "@/lib/llm/rate-limits/adaptive-publish";
import { createPostgresCallLimiter } from "@/lib/llm/rate-limits/call-limiter";
import { parseRateLimits } from "@/lib/llm/rate-limits/config";
import { keyIdOf, limiterKeyOf } from "@/lib/llm/rate-limits/middleware";
import { startPostgresServer, type PostgresServer } from "../helpers/postgres-server";

/**
 * `GET /api/jobs/rate-limits` in shared mode, on a real PostgreSQL: the limits
 * of REFLEXION_RATE_LIMITS, most specific first with their per-window figures; counters shared;
 * no block before any call made the limiter's table; then the 429 blocks that the shared limiter
 * wrote (two keys of one model, one of another) by provider + model with their end — and no API
 * key, key id or key hash anywhere in the response.
 */

const COMPATIBLE_KEY = "sk-compatible-SECRET-1234567890";
const OPENAI_KEY = "sk-openai-SECRET-abcdefghij";
const OTHER_KEY = "sk-other-member-SECRET-zzz";
const ADAPTIVE_KEY = "sk-openai-adaptive-SECRET-0987654321";
const LIMITS = { "*": { concurrent: 16 }, openai: { tokensPerMinute: 200000 }, "compatible:fake-model": { requestsPerMinute: 300, concurrent: 4, windowSeconds: 10 } };

let pg: PostgresServer;
let url: string;
let route: typeof import("@/app/api/jobs/rate-limits/route");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-rl-view-"));

beforeAll(async () => {
  pg = await startPostgresServer();
  url = await pg.createDatabase("rlview");
  const migrator = new PgRunStore(openNodePostgres(url, { max: 2 }), { migrate: "apply" });
  await migrator.ready();
  await migrator.close();
  // The route's process-wide context reads these.
  Object.assign(process.env, {
    REFLEXION_DATABASE_URL: url,
    // Sign-in is not under test here (tests/auth covers it).
    REFLEXION_SIGN_IN: "off",
    REFLEXION_DB_PATH: path.join(dir, "unused.sqlite"),
    REFLEXION_RATE_LIMITS: JSON.stringify(LIMITS),
    OPENAI_COMPATIBLE_API_KEY: COMPATIBLE_KEY,
    OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:9/v1",
    OPENAI_API_KEY: OPENAI_KEY,
  });
  route = await import("@/app/api/jobs/rate-limits/route");
}, 120_000);

afterAll(async () => {
  await pg?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

async function get(): Promise<{ text: string; view: ReturnType<typeof rateLimitViewSchema.parse> }> {
  const response = await route.GET();
  expect(response.status).toBe(200);
  const text = await response.text();
  return { text, view: rateLimitViewSchema.parse(JSON.parse(text)) };
}

describe("GET /api/jobs/rate-limits, shared mode", () => {
  it("lists the configured limits as shared; no block before the limiter's table exists", async () => {
    const { view } = await get();
    expect(view.counters).toBe("shared");
    expect(view.problem).toBeNull();
    expect(view.blocked).toEqual([]);
    expect(view.limits.map((limit) => [limit.pattern, limit.scope])).toEqual([
      ["compatible:fake-model", "model"],
      ["openai", "provider"],
      ["*", "all"],
    ]);
    expect(view.limits[0]).toMatchObject({ requestsPerMinute: 300, requestsPerWindow: 50, tokensPerMinute: null, concurrent: 4, windowSeconds: 10 });
    expect(view.limits[1]).toMatchObject({ tokensPerMinute: 200000, tokensPerWindow: 200000, requestsPerMinute: null, windowSeconds: 60 });
  });

  it("shows the 429 blocks every worker sees, by provider + model only — never a key, key id or hash", async () => {
    const limiter = await createPostgresCallLimiter(parseRateLimits(JSON.stringify(LIMITS)), new Pool({ connectionString: url, max: 2 }), { ownsPool: true });
    const before = Date.now();
    await limiter.block(limiterKeyOf("compatible:fake-model", COMPATIBLE_KEY), 30_000);
    await limiter.block(limiterKeyOf("compatible:fake-model", OTHER_KEY), 5_000);
    await limiter.block(limiterKeyOf("openai:gpt-4o-mini", OPENAI_KEY), 20_000);
    await limiter.close();

    const { text, view } = await get();
    expect(view.blocked?.map((block) => [block.modelId, block.keys])).toEqual([
      ["openai:gpt-4o-mini", 1],
      ["compatible:fake-model", 2],
    ]);
    const until = Date.parse(view.blocked?.[1]?.until ?? "");
    expect(until).toBeGreaterThanOrEqual(before + 29_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 31_000);
    for (const key of [COMPATIBLE_KEY, OPENAI_KEY, OTHER_KEY]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(keyIdOf(key));
      expect(text).not.toContain(createHash("sha256").update(key).digest("hex"));
    }
    expect(text).not.toContain("SECRET");
    expect(text).not.toContain("|");
    expect(text).not.toContain("rl-blocked");
  });

  it("shows what every worker's adaptive limit learnt, reported through the database, by provider + model only", async () => {
    const gate = new AdaptiveGate();
    const pool = new Pool({ connectionString: url, max: 2 });
    const limiter = await createPostgresCallLimiter(parseRateLimits(JSON.stringify(LIMITS)), pool, { adaptive: gate });
    // A key the test above did not block: its 20 s block would hold the first call long enough for
    // the limiter's own 5-second report (of one call in flight) to race the report below.
    const call = { key: limiterKeyOf("openai:gpt-4o-mini", ADAPTIVE_KEY), modelId: "openai:gpt-4o-mini", estimatedTokens: 10 };
    for (let i = 0; i < 3; i += 1) await (await limiter.acquire(call)).release(10, { kind: "ok", latencyMs: 200 });
    await (await limiter.acquire(call)).release(null, { kind: "rate-limited", retryAfterMs: 0 });
    // Closing first stops the limiter's periodic report, so the one below is the last word.
    await limiter.close();
    await reportAdaptiveLimits(gate, pool, Date.now());
    await pool.end();

    const { text, view } = await get();
    expect(view.adaptive.mode).toBe("on");
    const model = view.adaptive.models.find((entry) => entry.modelId === "openai:gpt-4o-mini");
    expect(model).toMatchObject({ keys: 1, processes: 1, rateLimited: 1, started: 4, concurrency: null });
    expect(model?.ratePerS).toBeGreaterThan(0);
    expect(text).not.toContain(keyIdOf(ADAPTIVE_KEY));
    expect(text).not.toContain("SECRET");
  });
});
