import os from "node:os";
import type { Pool } from "pg";
import { z } from "zod";
import type { AdaptiveGate } from "./adaptive-gate";
import type { AdaptiveReport } from "./adaptive-report";

/**
 * Shared mode: each process's adaptive limits, reported to the shared database so `/jobs` on any
 * app server shows what every worker learnt. Every {@link PUBLISH_EVERY_MS} a process upserts one
 * row per limiter key into {@link ADAPTIVE_TABLE} (`key` = limiter key + `|` + host:pid, `state` the
 * controller's snapshot as JSON, `expire` epoch ms {@link REPORT_TTL_MS} ahead), so a worker that
 * stopped drops out. Reports only: nothing reads them back to limit calls (each process adapts
 * within its share; decision 0042, adaptive part).
 */
export const ADAPTIVE_TABLE = "reflexion_adaptive_limits";
/** How often a process reports, in ms. */
export const PUBLISH_EVERY_MS = 5_000;
/** How long a report counts, in ms. */
export const REPORT_TTL_MS = 30_000;

/** This process, as reports name it (host:pid). */
export const PROCESS_ID = `${os.hostname()}:${process.pid}`;

/** Creates {@link ADAPTIVE_TABLE} when missing (idempotent; callers hold the rate-limit table's advisory lock). */
export async function createAdaptiveTable(query: (sql: string) => Promise<unknown>): Promise<void> {
  await query(`CREATE TABLE IF NOT EXISTS "${ADAPTIVE_TABLE}" (key varchar(400) PRIMARY KEY, state jsonb NOT NULL, expire bigint NOT NULL)`);
}

/**
 * Starts reporting `gate`'s limits through `pool` every {@link PUBLISH_EVERY_MS} (the timer does not
 * keep the process alive); returns the function that stops it. A failed report is dropped (the next
 * one comes 5 s later): reports never fail a model call.
 */
export function publishAdaptiveLimits(gate: AdaptiveGate, pool: Pool, now: () => number = Date.now): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    reportAdaptiveLimits(gate, pool, now())
      .catch(() => undefined)
      .finally(() => {
        running = false;
      });
  }, PUBLISH_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * One report of `gate`'s limits at `now` (epoch ms): upserts a row per key of this process,
 * fresh for {@link REPORT_TTL_MS}. Nothing when the gate has no key yet.
 * @throws the database's error.
 */
export async function reportAdaptiveLimits(gate: AdaptiveGate, pool: Pool, now: number): Promise<void> {
  const snapshots = gate.snapshots();
  if (snapshots.length === 0) return;
  const expire = now + REPORT_TTL_MS;
  const values: unknown[] = [];
  const rows = snapshots.map((snapshot, index) => {
    values.push(`${snapshot.key}|${PROCESS_ID}`, JSON.stringify({ modelId: snapshot.modelId, key: snapshot.key, process: PROCESS_ID, state: snapshot.state }), expire);
    return `($${index * 3 + 1}, $${index * 3 + 2}::jsonb, $${index * 3 + 3})`;
  });
  await pool.query(`INSERT INTO "${ADAPTIVE_TABLE}" (key, state, expire) VALUES ${rows.join(", ")} ON CONFLICT (key) DO UPDATE SET state = EXCLUDED.state, expire = EXCLUDED.expire`, values);
}

const snapshotSchema = z.object({
  ratePerS: z.number().nullable(),
  concurrency: z.number().nullable(),
  measuredRatePerS: z.number(),
  inFlight: z.number(),
  baselineLatencyMs: z.number().nullable(),
  rateLimited: z.number(),
  started: z.number(),
  decreases: z.number(),
  pausedUntil: z.number().nullable(),
});
const reportRowsSchema = z.object({
  rows: z.array(z.object({ state: z.object({ modelId: z.string(), key: z.string(), process: z.string(), state: snapshotSchema }) })),
});

/**
 * The reports of every process that are still fresh at `now` (epoch ms); none when the table does
 * not exist yet (no process reported).
 * @throws the database's error otherwise.
 */
export async function readAdaptiveReports(pool: Pool, now: number): Promise<AdaptiveReport[]> {
  try {
    const result = await pool.query(`SELECT state FROM "${ADAPTIVE_TABLE}" WHERE expire > $1`, [now]);
    return reportRowsSchema.parse(result).rows.map((row) => row.state);
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "42P01") return [];
    throw error;
  }
}
