import os from "node:os";
import { gt, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { bigint, jsonb, pgTable, varchar } from "drizzle-orm/pg-core";
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
 * within its share; decision 0042 (c)).
 */
export const ADAPTIVE_TABLE = "reflexion_adaptive_limits";
/**
 * The table's shape for drizzle's query builder. It is created on first use beside the limiter's
 * own counters table ({@link createAdaptiveTable}), not by a migration: like that table it holds
 * throw-away state that expires in {@link REPORT_TTL_MS}.
 */
const adaptiveLimits = pgTable(ADAPTIVE_TABLE, {
  key: varchar("key", { length: 400 }).primaryKey(),
  state: jsonb("state").notNull(),
  expire: bigint("expire", { mode: "number" }).notNull(),
});

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
  const rows = snapshots.map((snapshot) => ({
    key: `${snapshot.key}|${PROCESS_ID}`,
    state: { modelId: snapshot.modelId, key: snapshot.key, process: PROCESS_ID, state: snapshot.state },
    expire,
  }));
  await drizzle({ client: pool })
    .insert(adaptiveLimits)
    .values(rows)
    .onConflictDoUpdate({ target: adaptiveLimits.key, set: { state: sql`excluded.state`, expire: sql`excluded.expire` } });
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
const reportSchema = z.object({ modelId: z.string(), key: z.string(), process: z.string(), state: snapshotSchema });

/**
 * The reports of every process that are still fresh at `now` (epoch ms); none when the table does
 * not exist yet (no process reported).
 * @throws the database's error otherwise.
 */
export async function readAdaptiveReports(pool: Pool, now: number): Promise<AdaptiveReport[]> {
  try {
    const rows = await drizzle({ client: pool }).select({ state: adaptiveLimits.state }).from(adaptiveLimits).where(gt(adaptiveLimits.expire, now));
    return rows.map((row) => reportSchema.parse(row.state));
  } catch (error) {
    // drizzle wraps the driver's error (DrizzleQueryError); 42P01 is PostgreSQL's undefined_table.
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    if (cause instanceof Error && "code" in cause && cause.code === "42P01") return [];
    throw error;
  }
}
