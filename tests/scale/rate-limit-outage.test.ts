import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callLimiterFromEnv } from "@/lib/llm/rate-limits/from-env";
import { startPostgresServer, type PostgresServer } from "../helpers/postgres-server";
import { sleep } from "./harness";

/**
 * The shared rate-limit counters while PostgreSQL restarts (lib/llm/rate-limits/from-env.ts):
 * a call that checks its key's 429 block during the outage waits for the database (up to 30 s)
 * instead of failing — a failure there would be recorded as the model's error and pause the run.
 */

let server: PostgresServer;

beforeAll(async () => {
  server = await startPostgresServer();
}, 90_000);

afterAll(() => server?.stop(), 30_000);

/** Resolves once nothing accepts connections on the server's port (the restart's stop is done). */
async function untilDown(url: string): Promise<void> {
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 500 });
    client.on("error", () => undefined);
    const up = await client.connect().then(
      () => true,
      () => false,
    );
    await client.end().catch(() => undefined);
    if (!up) return;
    await sleep(25);
  }
}

describe("shared rate-limit counters across a PostgreSQL restart", () => {
  it("a call acquired while the database is down waits for it and then goes out; no unhandled error", async () => {
    const url = await server.createDatabase("rl_outage");
    const limiter = callLimiterFromEnv({ REFLEXION_DATABASE_URL: url, REFLEXION_RATE_LIMITS: JSON.stringify({ openai: { requestsPerMinute: 600, concurrent: 4 } }) });
    if (!limiter) throw new Error("shared mode must give a limiter");
    const call = { key: "openai:gpt-x|k1", modelId: "openai:gpt-x", estimatedTokens: 10 };
    await (await limiter.acquire(call)).release(10);

    const restarting = server.restart(2_000);
    await untilDown(server.url);
    const started = Date.now();
    const permit = await limiter.acquire(call);
    const waitedMs = Date.now() - started;
    await restarting;
    // It waited for the server to come back (down for 2 s), then took its slot.
    expect(waitedMs).toBeGreaterThan(1_000);
    await permit.release(10);
    await (await limiter.acquire(call)).release(10);
    await limiter.close();
  }, 60_000);
});
