import { randomUUID } from "node:crypto";
import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import { AppError } from "@/lib/domain/errors";
import { experimentRecordFromStored, type StoredExperimentRecord } from "../stored-experiment";
import { creatingOwnerUserId } from "../creating-owner";
import type { ExperimentDefinition, ExperimentRecord } from "@/lib/domain/experiment";
import { asBranchId } from "@/lib/domain/ids";
import type { Provenance } from "@/lib/domain/provenance";
import type { ExperimentCellKey, ExperimentCellRow, ExperimentCellsFingerprint, ExperimentRunLink, ExperimentStore, MaintainedSummaryRow, RunTrialStatsRow, StoredTrialStats } from "../experiment-store";
import { pgErrorCode, UNIQUE_VIOLATION, type PgDb, type PgExecutor } from "./database";
import { leaseFromRow, summaryFromJson } from "./pg-rows";
import * as schema from "./schema";

const linkColumns = {
  experimentId: schema.experimentRuns.experimentId,
  taskId: schema.experimentRuns.taskId,
  arm: schema.experimentRuns.arm,
  runId: schema.experimentRuns.runId,
};

/** The PostgreSQL {@link ExperimentStore}, on the database of a `PgRunStore` (same contract as SQLite's). */
export class PgExperimentStore implements ExperimentStore {
  constructor(
    private readonly db: PgDb,
    private readonly ready: () => Promise<void>,
  ) {}

  async createExperiment(input: { definition: ExperimentDefinition; taskSetName: string; provenance?: Provenance | null }): Promise<ExperimentRecord> {
    await this.ready();
    return this.insertExperiment(this.db, input);
  }

  /** Inserts an experiment row with `tx` (inside a caller's transaction, e.g. an import). */
  async insertExperiment(tx: PgExecutor, input: { definition: ExperimentDefinition; taskSetName: string; provenance?: Provenance | null }): Promise<StoredExperimentRecord> {
    const record: StoredExperimentRecord = {
      id: randomUUID(),
      createdAt: new Date().toISOString(),
      definition: input.definition,
      taskSetName: input.taskSetName,
      provenance: input.provenance ?? null,
      ownerUserId: creatingOwnerUserId(),
    };
    // As in SQLite: the provenance rides in the definition's JSON under its own key.
    const stored = record.provenance ? { ...record.definition, provenance: record.provenance } : record.definition;
    await tx.insert(schema.experiments).values({ id: record.id, createdAt: record.createdAt, name: record.definition.name, definition: stored, taskSetName: record.taskSetName, ownerUserId: record.ownerUserId });
    return record;
  }

  async getExperiment(id: string): Promise<StoredExperimentRecord | null> {
    await this.ready();
    const [row] = await this.db.select().from(schema.experiments).where(eq(schema.experiments.id, id));
    return row ? toRecord(row) : null;
  }

  async listExperiments(limit: number, options: { withDerived?: boolean } = {}): Promise<StoredExperimentRecord[]> {
    await this.ready();
    const own = sql`(jsonb_typeof(${schema.experiments.definition}) <> 'object' OR ${schema.experiments.definition} -> 'origin' IS NULL)`;
    const rows = await this.db
      .select()
      .from(schema.experiments)
      .where(options.withDerived === false ? own : undefined)
      .orderBy(desc(schema.experiments.createdAt), desc(schema.experiments.ord))
      .limit(limit);
    return rows.map(toRecord);
  }

  async listExperimentRuns(experimentId: string): Promise<ExperimentRunLink[]> {
    await this.ready();
    return this.db.select(linkColumns).from(schema.experimentRuns).where(eq(schema.experimentRuns.experimentId, experimentId)).orderBy(asc(schema.experimentRuns.position));
  }

  async listExperimentCells(experimentId: string): Promise<ExperimentCellRow[]> {
    await this.ready();
    const rows = await this.db
      .select({ link: schema.experimentRuns, rootBranchId: schema.runs.rootBranchId, summary: schema.branchSummaries.summary, lease: schema.branchLeases })
      .from(schema.experimentRuns)
      .innerJoin(schema.runs, eq(schema.runs.id, schema.experimentRuns.runId))
      .innerJoin(schema.branchSummaries, eq(schema.branchSummaries.branchId, schema.runs.rootBranchId))
      .leftJoin(schema.branchLeases, eq(schema.branchLeases.branchId, schema.runs.rootBranchId))
      .where(eq(schema.experimentRuns.experimentId, experimentId))
      .orderBy(asc(schema.experimentRuns.position));
    return rows.map((row) => ({
      experimentId: row.link.experimentId,
      taskId: row.link.taskId,
      arm: row.link.arm,
      runId: row.link.runId,
      rootBranchId: asBranchId(row.rootBranchId),
      summary: summaryFromJson(row.summary, row.rootBranchId),
      lease: row.lease ? leaseFromRow(row.lease) : null,
    }));
  }

  async cellsFingerprint(experimentId: string): Promise<ExperimentCellsFingerprint> {
    await this.ready();
    const [row] = await this.db
      .select({
        cells: sql<string>`count(*)`,
        ended: sql<string>`coalesce(sum(CASE WHEN ${schema.branchSummaries.status} = 'ended' THEN 1 ELSE 0 END), 0)`,
        lastSeqSum: sql<string>`coalesce(sum((${schema.branchSummaries.summary} ->> 'lastSeq')::bigint), 0)`,
      })
      .from(schema.experimentRuns)
      .innerJoin(schema.runs, eq(schema.runs.id, schema.experimentRuns.runId))
      .innerJoin(schema.branchSummaries, eq(schema.branchSummaries.branchId, schema.runs.rootBranchId))
      .where(eq(schema.experimentRuns.experimentId, experimentId));
    // count and sum come back as strings (bigint / numeric).
    return { cells: Number(row?.cells ?? 0), ended: Number(row?.ended ?? 0), lastSeqSum: Number(row?.lastSeqSum ?? 0) };
  }

  async getMaintainedSummary(experimentId: string): Promise<MaintainedSummaryRow | null> {
    await this.ready();
    const [row] = await this.db
      .select({ fingerprint: schema.experimentSummaries.fingerprint, summary: schema.experimentSummaries.summary })
      .from(schema.experimentSummaries)
      .where(eq(schema.experimentSummaries.experimentId, experimentId));
    return row ? { fingerprint: row.fingerprint, summary: row.summary } : null;
  }

  async saveMaintainedSummary(experimentId: string, fingerprint: string, summary: unknown): Promise<void> {
    await this.ready();
    const computedAt = new Date().toISOString();
    await this.db
      .insert(schema.experimentSummaries)
      .values({ experimentId, fingerprint, summary, computedAt })
      .onConflictDoUpdate({ target: schema.experimentSummaries.experimentId, set: { fingerprint, summary, computedAt } });
  }

  async trialStatsOfRuns(runIds: readonly string[]): Promise<RunTrialStatsRow[]> {
    if (runIds.length === 0) return [];
    await this.ready();
    const rows = await this.db
      .select({
        runId: schema.runs.id,
        rootBranchId: schema.runs.rootBranchId,
        status: schema.branchSummaries.status,
        lastSeq: sql<string>`(${schema.branchSummaries.summary} ->> 'lastSeq')`,
        stored: schema.runTrialStats,
      })
      .from(schema.runs)
      .innerJoin(schema.branchSummaries, eq(schema.branchSummaries.branchId, schema.runs.rootBranchId))
      .leftJoin(schema.runTrialStats, eq(schema.runTrialStats.runId, schema.runs.id))
      .where(inArray(schema.runs.id, [...runIds]));
    return rows.map((row) => ({ runId: row.runId, rootBranchId: asBranchId(row.rootBranchId), status: row.status, lastSeq: Number(row.lastSeq), stored: row.stored }));
  }

  async saveTrialStats(entries: readonly StoredTrialStats[]): Promise<void> {
    if (entries.length === 0) return;
    await this.ready();
    await this.db
      .insert(schema.runTrialStats)
      .values(entries.map((entry) => ({ runId: entry.runId, branchId: entry.branchId, lastSeq: entry.lastSeq, version: entry.version, stats: entry.stats })))
      .onConflictDoUpdate({
        target: schema.runTrialStats.runId,
        set: { branchId: sql`excluded.branch_id`, lastSeq: sql`excluded.last_seq`, version: sql`excluded.version`, stats: sql`excluded.stats` },
      });
  }

  async experimentOfRun(runId: string): Promise<ExperimentRunLink | null> {
    await this.ready();
    const [row] = await this.db.select(linkColumns).from(schema.experimentRuns).where(eq(schema.experimentRuns.runId, runId));
    return row ?? null;
  }

  /**
   * Links a run to its cell with `tx`, inside the transaction that creates the run. Two processes
   * racing for one cell: the unique `(experiment, task, arm)` index lets one win.
   * @throws AppError("conflict") when the cell has a run already; AppError("not-found") for no experiment.
   */
  async linkInTransaction(tx: PgExecutor, cell: ExperimentCellKey, runId: string): Promise<void> {
    const [experiment] = await tx.select({ id: schema.experiments.id }).from(schema.experiments).where(eq(schema.experiments.id, cell.experimentId));
    if (!experiment) throw new AppError("not-found", `No experiment ${cell.experimentId}.`);
    const cellWhere = and(eq(schema.experimentRuns.experimentId, cell.experimentId), eq(schema.experimentRuns.taskId, cell.taskId), eq(schema.experimentRuns.arm, cell.arm));
    const [taken] = await tx.select({ runId: schema.experimentRuns.runId }).from(schema.experimentRuns).where(cellWhere);
    const refuse = (other: string) => new AppError("conflict", `Experiment ${cell.experimentId} already has run ${other} for task ${cell.taskId}, arm ${cell.arm}.`);
    if (taken) throw refuse(taken.runId);
    const [position] = await tx.select({ n: count() }).from(schema.experimentRuns).where(eq(schema.experimentRuns.experimentId, cell.experimentId));
    try {
      await tx.insert(schema.experimentRuns).values({ ...cell, runId, position: position?.n ?? 0 });
    } catch (error) {
      if (pgErrorCode(error) === UNIQUE_VIOLATION) throw refuse("(created by another process just now)");
      throw error;
    }
  }
}

/** A row as a record; a damaged definition is marked, never thrown (lib/db/stored-experiment.ts). */
function toRecord(row: typeof schema.experiments.$inferSelect): StoredExperimentRecord {
  return experimentRecordFromStored({ id: row.id, createdAt: row.createdAt, name: row.name, taskSetName: row.taskSetName, ownerUserId: row.ownerUserId }, row.definition);
}
