import { randomUUID } from "node:crypto";
import { asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { AppError } from "@/lib/domain/errors";
import { experimentRecordFromStored, type StoredExperimentRecord } from "./stored-experiment";
import type { ExperimentDefinition, ExperimentRecord } from "@/lib/domain/experiment";
import { asBranchId } from "@/lib/domain/ids";
import type { Provenance } from "@/lib/domain/provenance";
import type { ExperimentCellKey, ExperimentCellRow, ExperimentCellsFingerprint, ExperimentRunLink, ExperimentStore, MaintainedSummaryRow, RunTrialStatsRow, StoredTrialStats } from "./experiment-store";
import { parseSummary, toLeaseRecord } from "./sqlite-rows";
import * as schema from "./schema";
import { creatingOwnerUserId } from "./creating-owner";

type Db = BetterSQLite3Database<typeof schema>;

/** The SQLite {@link ExperimentStore}, on the connection of a `SqliteRunStore`. */
export class SqliteExperimentStore implements ExperimentStore {
  constructor(private readonly db: Db) {}

  async createExperiment(input: { definition: ExperimentDefinition; taskSetName: string; provenance?: Provenance | null }): Promise<ExperimentRecord> {
    return this.insertExperiment(input);
  }

  /** Inserts an experiment row (synchronously, so it can run inside a caller's transaction). */
  insertExperiment(input: { definition: ExperimentDefinition; taskSetName: string; provenance?: Provenance | null }): StoredExperimentRecord {
    const record: StoredExperimentRecord = {
      id: randomUUID(),
      createdAt: new Date().toISOString(),
      definition: input.definition,
      taskSetName: input.taskSetName,
      provenance: input.provenance ?? null,
      ownerUserId: creatingOwnerUserId(),
    };
    // The provenance rides in the definition's JSON column under its own key, so no migration is needed.
    const stored = record.provenance ? { ...record.definition, provenance: record.provenance } : record.definition;
    this.db
      .insert(schema.experiments)
      .values({ id: record.id, createdAt: record.createdAt, name: record.definition.name, definition: JSON.stringify(stored), taskSetName: record.taskSetName, ownerUserId: record.ownerUserId })
      .run();
    return record;
  }

  async getExperiment(id: string): Promise<StoredExperimentRecord | null> {
    const row = this.db.select().from(schema.experiments).where(eq(schema.experiments.id, id)).get();
    return row ? toRecord(row) : null;
  }

  async listExperiments(limit: number, options: { withDerived?: boolean } = {}): Promise<StoredExperimentRecord[]> {
    // A damaged definition (not JSON) is listed: json_valid guards json_extract, which would throw on it.
    const own = sql`(NOT json_valid(${schema.experiments.definition}) OR json_extract(${schema.experiments.definition}, '$.origin') IS NULL)`;
    return this.db
      .select()
      .from(schema.experiments)
      .where(options.withDerived === false ? own : undefined)
      .orderBy(desc(schema.experiments.createdAt), sql`rowid DESC`)
      .limit(limit)
      .all()
      .map(toRecord);
  }

  async listExperimentRuns(experimentId: string): Promise<ExperimentRunLink[]> {
    return this.db
      .select({ experimentId: schema.experimentRuns.experimentId, taskId: schema.experimentRuns.taskId, arm: schema.experimentRuns.arm, runId: schema.experimentRuns.runId })
      .from(schema.experimentRuns)
      .where(eq(schema.experimentRuns.experimentId, experimentId))
      .orderBy(asc(schema.experimentRuns.position))
      .all();
  }

  async listExperimentCells(experimentId: string): Promise<ExperimentCellRow[]> {
    const rows = this.db
      .select({ link: schema.experimentRuns, rootBranchId: schema.runs.rootBranchId, summary: schema.branchSummaries.summary, lease: schema.branchLeases })
      .from(schema.experimentRuns)
      .innerJoin(schema.runs, eq(schema.runs.id, schema.experimentRuns.runId))
      .innerJoin(schema.branchSummaries, eq(schema.branchSummaries.branchId, schema.runs.rootBranchId))
      .leftJoin(schema.branchLeases, eq(schema.branchLeases.branchId, schema.runs.rootBranchId))
      .where(eq(schema.experimentRuns.experimentId, experimentId))
      .orderBy(asc(schema.experimentRuns.position))
      .all();
    return rows.map((row) => ({
      experimentId: row.link.experimentId,
      taskId: row.link.taskId,
      arm: row.link.arm,
      runId: row.link.runId,
      rootBranchId: asBranchId(row.rootBranchId),
      summary: parseSummary(row.summary, row.rootBranchId),
      lease: row.lease ? toLeaseRecord(row.lease) : null,
    }));
  }

  async cellsFingerprint(experimentId: string): Promise<ExperimentCellsFingerprint> {
    const row = this.db
      .select({
        cells: sql<number>`count(*)`,
        ended: sql<number>`coalesce(sum(CASE WHEN ${schema.branchSummaries.status} = 'ended' THEN 1 ELSE 0 END), 0)`,
        lastSeqSum: sql<number>`coalesce(sum(json_extract(${schema.branchSummaries.summary}, '$.lastSeq')), 0)`,
      })
      .from(schema.experimentRuns)
      .innerJoin(schema.runs, eq(schema.runs.id, schema.experimentRuns.runId))
      .innerJoin(schema.branchSummaries, eq(schema.branchSummaries.branchId, schema.runs.rootBranchId))
      .where(eq(schema.experimentRuns.experimentId, experimentId))
      .get();
    return { cells: Number(row?.cells ?? 0), ended: Number(row?.ended ?? 0), lastSeqSum: Number(row?.lastSeqSum ?? 0) };
  }

  async getMaintainedSummary(experimentId: string): Promise<MaintainedSummaryRow | null> {
    const row = this.db
      .select({ fingerprint: schema.experimentSummaries.fingerprint, summary: schema.experimentSummaries.summary })
      .from(schema.experimentSummaries)
      .where(eq(schema.experimentSummaries.experimentId, experimentId))
      .get();
    if (!row) return null;
    try {
      return { fingerprint: row.fingerprint, summary: JSON.parse(row.summary) as unknown };
    } catch {
      // A damaged row is recomputed and replaced.
      return null;
    }
  }

  async saveMaintainedSummary(experimentId: string, fingerprint: string, summary: unknown): Promise<void> {
    const values = { experimentId, fingerprint, summary: JSON.stringify(summary), computedAt: new Date().toISOString() };
    this.db
      .insert(schema.experimentSummaries)
      .values(values)
      .onConflictDoUpdate({ target: schema.experimentSummaries.experimentId, set: { fingerprint: values.fingerprint, summary: values.summary, computedAt: values.computedAt } })
      .run();
  }

  async trialStatsOfRuns(runIds: readonly string[]): Promise<RunTrialStatsRow[]> {
    if (runIds.length === 0) return [];
    const rows = this.db
      .select({
        runId: schema.runs.id,
        rootBranchId: schema.runs.rootBranchId,
        status: schema.branchSummaries.status,
        lastSeq: sql<number>`json_extract(${schema.branchSummaries.summary}, '$.lastSeq')`,
        stored: schema.runTrialStats,
      })
      .from(schema.runs)
      .innerJoin(schema.branchSummaries, eq(schema.branchSummaries.branchId, schema.runs.rootBranchId))
      .leftJoin(schema.runTrialStats, eq(schema.runTrialStats.runId, schema.runs.id))
      .where(inArray(schema.runs.id, [...runIds]))
      .all();
    return rows.map((row) => ({ runId: row.runId, rootBranchId: asBranchId(row.rootBranchId), status: row.status, lastSeq: Number(row.lastSeq), stored: row.stored ? parseStoredStats(row.stored) : null }));
  }

  async saveTrialStats(entries: readonly StoredTrialStats[]): Promise<void> {
    if (entries.length === 0) return;
    this.db.transaction((tx) => {
      for (const entry of entries) {
        const values = { runId: entry.runId, branchId: entry.branchId, lastSeq: entry.lastSeq, version: entry.version, stats: JSON.stringify(entry.stats) };
        tx.insert(schema.runTrialStats)
          .values(values)
          .onConflictDoUpdate({ target: schema.runTrialStats.runId, set: { branchId: values.branchId, lastSeq: values.lastSeq, version: values.version, stats: values.stats } })
          .run();
      }
    });
  }

  async experimentOfRun(runId: string): Promise<ExperimentRunLink | null> {
    const row = this.db
      .select({ experimentId: schema.experimentRuns.experimentId, taskId: schema.experimentRuns.taskId, arm: schema.experimentRuns.arm, runId: schema.experimentRuns.runId })
      .from(schema.experimentRuns)
      .where(eq(schema.experimentRuns.runId, runId))
      .get();
    return row ?? null;
  }

  /**
   * Links a run to its cell; call inside the transaction that creates the run.
   * @throws AppError("conflict") when the cell has a run already, or the experiment does not exist.
   */
  linkInTransaction(cell: ExperimentCellKey, runId: string): void {
    const experiment = this.db.select({ id: schema.experiments.id }).from(schema.experiments).where(eq(schema.experiments.id, cell.experimentId)).get();
    if (!experiment) throw new AppError("not-found", `No experiment ${cell.experimentId}.`);
    const taken = this.db
      .select({ runId: schema.experimentRuns.runId })
      .from(schema.experimentRuns)
      .where(sql`${schema.experimentRuns.experimentId} = ${cell.experimentId} AND ${schema.experimentRuns.taskId} = ${cell.taskId} AND ${schema.experimentRuns.arm} = ${cell.arm}`)
      .get();
    if (taken) throw new AppError("conflict", `Experiment ${cell.experimentId} already has run ${taken.runId} for task ${cell.taskId}, arm ${cell.arm}.`);
    const position = this.db
      .select({ n: sql<number>`count(*)` })
      .from(schema.experimentRuns)
      .where(eq(schema.experimentRuns.experimentId, cell.experimentId))
      .get();
    this.db.insert(schema.experimentRuns).values({ ...cell, runId, position: position?.n ?? 0 }).run();
  }
}

/** A row as a record; a damaged definition is marked, never thrown (lib/db/stored-experiment.ts). */
function toRecord(row: typeof schema.experiments.$inferSelect): StoredExperimentRecord {
  return experimentRecordFromStored({ id: row.id, createdAt: row.createdAt, name: row.name, taskSetName: row.taskSetName, ownerUserId: row.ownerUserId }, row.definition);
}

/** A stored stats row with its JSON parsed; null when the JSON is damaged (the stats are recomputed from the log). */
function parseStoredStats(row: typeof schema.runTrialStats.$inferSelect): StoredTrialStats | null {
  try {
    return { runId: row.runId, branchId: row.branchId, lastSeq: row.lastSeq, version: row.version, stats: JSON.parse(row.stats) as unknown };
  } catch {
    return null;
  }
}
