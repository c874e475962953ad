// Over 400 lines on purpose: like lib/db/sqlite-store.ts, the PostgreSQL RunStore is one transaction boundary (append + branch summary + notification + import of a whole log), kept in one file so every write path shares the same statements and checks.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { and, asc, count, desc, eq, gt, lte, or, sql, type SQL } from "drizzle-orm";
import { pgSchema, serial, text } from "drizzle-orm/pg-core";
import { environmentIdSchema } from "@/lib/domain/config";
import { AppError } from "@/lib/domain/errors";
import { draft, type EventDraft, type RunEvent } from "@/lib/domain/events";
import { applyToBranchSummary, summarizeBranch, type BranchSummaryState } from "@/lib/domain/branch-summary";
import { asBranchId, asRunId, type BranchId, type RunId } from "@/lib/domain/ids";
import type { ExperimentRecord } from "@/lib/domain/experiment";
import type { CallActivity } from "@/lib/domain/status";
import type { CachedResponse } from "@/lib/engine/ports";
import { branchPath, type PathSegment } from "../branch-path";
import type { ExperimentCellKey } from "../experiment-store";
import type { BranchRecord, ImportExperimentInput, LeaseRecord, RunRecord, RunnableBranch, RunStore, TaskSetListing, TaskSetRecord } from "../store";
import { materializeEvent } from "../validate-event";
import { creatingOwnerUserId } from "../creating-owner";
import { EVENTS_CHANNEL, PG_MIGRATIONS_FOLDER, pgErrorCode, UNIQUE_VIOLATION, type PgConnection, type PgExecutor } from "./database";
import { PgBundleStore } from "./pg-bundles";
import { PgExperimentStore } from "./pg-experiments";
import { branchFromRow, cachedResponseSchema, eventFromRow, eventToRow, leaseFromRow, runFromRow, summaryFromJson } from "./pg-rows";
import * as schema from "./schema";

/** What every append notifies on {@link EVENTS_CHANNEL}, in its transaction: the branch and its new last seq. */
export interface EventNotice {
  runId: string;
  branchId: string;
  /** The first and last seq of the appended batch. */
  firstSeq: number;
  seq: number;
  /** The appending store's {@link PgRunStore.origin}, so a process can skip its own appends (it published them itself). */
  origin: string;
}

/** How the store makes sure the schema is there: apply the migrations (tests, `cli db migrate`) or only check (app servers, workers). */
export type MigrateMode = "apply" | "check";

/**
 * The PostgreSQL adapter (docs/decisions/0027): one implementation over a drizzle pg
 * database, on `node-postgres` (a server shared by app servers and workers on several machines)
 * or PGlite (in-process). Appends lock the branch row (`FOR NO KEY UPDATE`), so writers on any
 * machine queue up and never hand out one `seq` twice, and the unique `(branch_id, seq)` index
 * backs that up; {@link appendAfter} is the fenced variant (conflict unless the log ends where the
 * writer last saw it). Every append notifies `reflexion_events` in its own transaction.
 */
export class PgRunStore implements RunStore {
  readonly experiments: PgExperimentStore;
  /** Imported run bundles, in the same database. */
  readonly bundles: PgBundleStore;
  /** Identifies this store's appends in their notifications ({@link EventNotice.origin}). */
  readonly origin: string = randomUUID();
  private readyPromise: Promise<void> | null = null;
  /** Branch paths read by {@link list}: a branch's ancestry is fixed when it is created (nothing updates or deletes `branches`), so reads after the first are one query. */
  private readonly paths = new BranchPathCache();

  constructor(
    private readonly connection: PgConnection,
    private readonly options: { migrate?: MigrateMode; migrationsFolder?: string } = {},
  ) {
    this.experiments = new PgExperimentStore(connection.db, () => this.ready());
    this.bundles = new PgBundleStore(connection.db, () => this.ready());
  }

  private get db() {
    return this.connection.db;
  }

  /** The connection underneath (the fan-out listens and notifies on it: lib/server/pg-notify-bus.ts). */
  get pg(): PgConnection {
    return this.connection;
  }

  /** Resolves once the schema is there (applied or checked, once per store). */
  ready(): Promise<void> {
    // A failed check is not kept: after `cli db migrate` the next call succeeds without a restart.
    this.readyPromise ??= this.prepare().catch((error: unknown) => {
      this.readyPromise = null;
      throw error;
    });
    return this.readyPromise;
  }

  /** Migrations applied to the database and committed in the repository (`cli db status`). */
  async migrationStatus(): Promise<{ applied: number; expected: number }> {
    return { applied: await appliedMigrations(this.connection), expected: migrationCount(this.options.migrationsFolder ?? PG_MIGRATIONS_FOLDER) };
  }

  private async prepare(): Promise<void> {
    const folder = this.options.migrationsFolder ?? PG_MIGRATIONS_FOLDER;
    if ((this.options.migrate ?? "check") === "apply") {
      await this.connection.migrate(folder);
      return;
    }
    const expected = migrationCount(folder);
    const applied = await appliedMigrations(this.connection);
    if (applied < expected) {
      throw new AppError(
        "internal",
        `The PostgreSQL database has ${applied} of ${expected} migrations applied. Run \`npm run cli -- db migrate\` with the same REFLEXION_DATABASE_URL first (docs/shared-mode.md).`,
      );
    }
  }

  async createRun(input: { config: RunRecord["config"]; title: string; cell?: ExperimentCellKey }): Promise<RunRecord> {
    await this.ready();
    const runId = asRunId(randomUUID());
    const rootBranchId = asBranchId(randomUUID());
    const createdAt = new Date().toISOString();
    const start = materializeEvent(draft("run-start", { config: input.config }), { id: randomUUID(), runId, branchId: rootBranchId, seq: 1, occurredAt: createdAt });
    const ownerUserId = creatingOwnerUserId();
    await this.db.transaction(async (tx) => {
      await tx.insert(schema.runs).values({ id: runId, createdAt, rootBranchId, title: input.title, config: input.config, ownerUserId });
      await tx.insert(schema.branches).values({ id: rootBranchId, runId, parentBranchId: null, forkSeq: null, createdAt });
      await tx.insert(schema.events).values(eventToRow(start));
      await writeSummary(tx, runId, rootBranchId, summarizeBranch(rootBranchId, [start]), createdAt, true);
      if (input.cell) await this.experiments.linkInTransaction(tx, input.cell, runId);
      await notify(tx, { runId, branchId: rootBranchId, firstSeq: 1, seq: 1, origin: this.origin });
    });
    return { id: runId, createdAt, rootBranchId, title: input.title, config: input.config, ownerUserId };
  }

  async getRun(runId: RunId): Promise<RunRecord | null> {
    await this.ready();
    const [row] = await this.db.select().from(schema.runs).where(eq(schema.runs.id, runId));
    return row ? runFromRow(row) : null;
  }

  async listRuns(limit: number): Promise<RunRecord[]> {
    await this.ready();
    const rows = await this.db.select().from(schema.runs).orderBy(desc(schema.runs.createdAt), desc(schema.runs.ord)).limit(limit);
    return rows.map(runFromRow);
  }

  async getBranch(branchId: BranchId): Promise<BranchRecord | null> {
    await this.ready();
    return getBranch(this.db, branchId);
  }

  async createBranch(input: { runId: RunId; parentBranchId: BranchId; forkSeq: number }): Promise<BranchRecord> {
    await this.ready();
    const parent = await getBranch(this.db, input.parentBranchId);
    if (!parent || parent.runId !== input.runId) throw new AppError("not-found", `Run ${input.runId} has no branch ${input.parentBranchId}`);
    const record: BranchRecord = { id: asBranchId(randomUUID()), runId: input.runId, parentBranchId: input.parentBranchId, forkSeq: input.forkSeq, createdAt: new Date().toISOString() };
    await this.db.insert(schema.branches).values(record);
    return record;
  }

  async listBranches(runId: RunId): Promise<BranchRecord[]> {
    await this.ready();
    const rows = await this.db.select().from(schema.branches).where(eq(schema.branches.runId, runId)).orderBy(asc(schema.branches.createdAt), asc(schema.branches.ord));
    return rows.map(branchFromRow);
  }

  async getCachedResponse(requestHash: string): Promise<CachedResponse | null> {
    await this.ready();
    const [row] = await this.db.select().from(schema.responseCache).where(eq(schema.responseCache.requestHash, requestHash));
    return row ? cachedResponseSchema.parse(row.response) : null;
  }

  async rejectedParameters(modelId: string): Promise<readonly string[]> {
    await this.ready();
    const rows = await this.db.select().from(schema.rejectedParameters).where(eq(schema.rejectedParameters.modelId, modelId));
    return rows.map((row) => row.parameter);
  }

  async rememberRejectedParameter(modelId: string, parameter: string): Promise<void> {
    await this.ready();
    await this.db.insert(schema.rejectedParameters).values({ modelId, parameter, rejectedAt: new Date().toISOString() }).onConflictDoNothing();
  }

  /** First writer wins (`ON CONFLICT DO NOTHING`): two workers caching one request keep the first response. */
  async putCachedResponse(requestHash: string, response: CachedResponse): Promise<void> {
    await this.ready();
    await this.db.insert(schema.responseCache).values({ requestHash, response, createdAt: new Date().toISOString() }).onConflictDoNothing();
  }

  /** See {@link RunStore.listCacheEntries}: entries whose key holds one of these request hashes, by key. */
  async listCacheEntries(requestHashes: string[]): Promise<Array<{ key: string; response: CachedResponse }>> {
    await this.ready();
    const found = new Map<string, CachedResponse>();
    const unique = [...new Set(requestHashes)];
    for (let start = 0; start < unique.length; start += 500) {
      const likes = unique.slice(start, start + 500).map((hash) => sql`${schema.responseCache.requestHash} LIKE ${`%${hash.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
      for (const row of await this.db.select().from(schema.responseCache).where(or(...likes))) found.set(row.requestHash, cachedResponseSchema.parse(row.response));
    }
    return [...found.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, response]) => ({ key, response }));
  }

  async list(runId: RunId, branchId: BranchId, after = 0, limit?: number): Promise<RunEvent[]> {
    await this.ready();
    return listEvents(this.db, runId, branchId, after, this.paths, limit);
  }

  async append(runId: RunId, branchId: BranchId, drafts: readonly EventDraft[]): Promise<RunEvent[]> {
    await this.ready();
    if (drafts.length === 0) return [];
    return this.db.transaction(async (tx) => {
      // Writers of one branch queue up here (any process, any machine).
      const [locked] = await tx.select({ id: schema.branches.id }).from(schema.branches).where(eq(schema.branches.id, branchId)).for("no key update");
      if (!locked) throw new AppError("not-found", `Run ${runId} has no branch ${branchId}`);
      // Read after the lock, in a statement of its own (READ COMMITTED: a fresh snapshot sees the previous holder's commit), in one round trip: the branch, its last own seq and its summary.
      const [row] = await tx
        .select({
          branch: schema.branches,
          last: sql<number | null>`(SELECT max(${schema.events.seq}) FROM ${schema.events} WHERE ${schema.events.branchId} = ${schema.branches.id})`.mapWith(Number),
          summary: schema.branchSummaries.summary,
          queuedAt: schema.branchSummaries.queuedAt,
        })
        .from(schema.branches)
        .leftJoin(schema.branchSummaries, eq(schema.branchSummaries.branchId, schema.branches.id))
        .where(eq(schema.branches.id, branchId));
      if (!row || row.branch.runId !== runId) throw new AppError("not-found", `Run ${runId} has no branch ${branchId}`);
      const branch = branchFromRow(row.branch);
      const existing = row.summary === null || row.queuedAt === null ? null : { summary: summaryFromJson(row.summary, branchId), queuedAt: row.queuedAt };
      return insertBatch(tx, branch, drafts, row.last ?? branch.forkSeq ?? 0, this.origin, existing);
    });
  }

  /**
   * The fenced append: stores `drafts` only when the branch's last seq is `afterSeq` (what the
   * writer last saw), else AppError("conflict"). It takes no lock: two writers continuing from the
   * same seq race on the unique `(branch_id, seq)` index and exactly one wins — how a zombie
   * attempt that lost its lease is kept from appending after the new holder.
   * @throws AppError("conflict") when another writer appended first; AppError("not-found") for a wrong branch.
   */
  async appendAfter(runId: RunId, branchId: BranchId, afterSeq: number, drafts: readonly EventDraft[]): Promise<RunEvent[]> {
    await this.ready();
    if (drafts.length === 0) return [];
    try {
      return await this.db.transaction(async (tx) => {
        const branch = await getBranch(tx, branchId);
        if (!branch || branch.runId !== runId) throw new AppError("not-found", `Run ${runId} has no branch ${branchId}`);
        const last = await lastSeq(tx, branch);
        if (last !== afterSeq) throw staleWriter(branchId, afterSeq, last);
        return insertBatch(tx, branch, drafts, last, this.origin);
      });
    } catch (error) {
      if (pgErrorCode(error) === UNIQUE_VIOLATION) throw staleWriter(branchId, afterSeq, null);
      throw error;
    }
  }

  /** One atomic statement: insert, or take over an expired lease / renew one's own; true when `owner` holds it after. */
  async claimLease(branchId: BranchId, owner: string, ttlMs: number, now = Date.now()): Promise<boolean> {
    await this.ready();
    const leases = schema.branchLeases;
    const expiresAt = now + ttlMs;
    const rows = await this.db
      .insert(leases)
      .values({ branchId, owner, expiresAt, activity: null })
      .onConflictDoUpdate({
        target: leases.branchId,
        // Renewing keeps the holder's activity; a new holder starts with none.
        set: { owner, expiresAt, activity: sql`CASE WHEN ${leases.owner} = ${owner} THEN ${leases.activity} ELSE NULL END` },
        setWhere: sql`${leases.owner} = ${owner} OR ${leases.expiresAt} <= ${now}`,
      })
      .returning({ owner: leases.owner });
    return rows.length === 1;
  }

  async releaseLease(branchId: BranchId, owner: string): Promise<void> {
    await this.ready();
    await this.db.delete(schema.branchLeases).where(and(eq(schema.branchLeases.branchId, branchId), eq(schema.branchLeases.owner, owner)));
  }

  async leaseHolder(branchId: BranchId, now = Date.now()): Promise<string | null> {
    const lease = await this.getLease(branchId);
    return lease && lease.expiresAt > now ? lease.owner : null;
  }

  async getLease(branchId: BranchId): Promise<LeaseRecord | null> {
    await this.ready();
    const [row] = await this.db.select().from(schema.branchLeases).where(eq(schema.branchLeases.branchId, branchId));
    return row ? leaseFromRow(row) : null;
  }

  async setLeaseActivity(branchId: BranchId, owner: string, activity: CallActivity | null): Promise<void> {
    await this.ready();
    const leases = schema.branchLeases;
    await this.db
      .update(leases)
      .set({ activity: activity === null ? sql`NULL` : activity })
      .where(and(eq(leases.branchId, branchId), eq(leases.owner, owner)));
  }

  async getBranchSummary(branchId: BranchId): Promise<BranchSummaryState | null> {
    await this.ready();
    const found = await readSummaryRow(this.db, branchId);
    if (found) return found.summary;
    const branch = await getBranch(this.db, branchId);
    return branch ? summarizeBranch(branchId, await listEvents(this.db, branch.runId, branchId, 0)) : null;
  }

  async listBranchSeqs(): Promise<Array<{ runId: RunId; branchId: BranchId; lastSeq: number }>> {
    await this.ready();
    const summaries = schema.branchSummaries;
    const rows = await this.db.select({ runId: summaries.runId, branchId: summaries.branchId, lastSeq: sql<string>`${summaries.summary}->>'lastSeq'` }).from(summaries);
    return rows.map((row) => ({ runId: asRunId(row.runId), branchId: asBranchId(row.branchId), lastSeq: Number(row.lastSeq) }));
  }

  async listRunnableBranches(limit: number): Promise<RunnableBranch[]> {
    await this.ready();
    const summaries = schema.branchSummaries;
    const rows = await this.db
      .select({ summary: summaries, lease: schema.branchLeases })
      .from(summaries)
      .leftJoin(schema.branchLeases, eq(schema.branchLeases.branchId, summaries.branchId))
      .where(eq(summaries.status, "running"))
      .orderBy(asc(summaries.queuedAt))
      .limit(limit);
    return rows.map(({ summary, lease }) => ({
      runId: asRunId(summary.runId),
      branchId: asBranchId(summary.branchId),
      queuedAt: summary.queuedAt,
      summary: summaryFromJson(summary.summary, summary.branchId),
      lease: lease ? leaseFromRow(lease) : null,
    }));
  }

  async importExperiment(input: ImportExperimentInput): Promise<{ experiment: ExperimentRecord; runs: RunRecord[] }> {
    await this.ready();
    const createdAt = new Date().toISOString();
    // Validate every event before writing anything.
    const prepared = input.runs.map((run) => {
      const runId = asRunId(randomUUID());
      const rootBranchId = asBranchId(randomUUID());
      let seq = 0;
      // An imported trace keeps the times it recorded (`occurredAt` on its drafts); other imports are stamped now.
      const envelope = (at?: string) => ({ runId, branchId: rootBranchId, seq: ++seq, occurredAt: at ?? createdAt });
      const start = materializeEvent(draft("run-start", { config: run.config }), { id: randomUUID(), ...envelope(run.startedAt) });
      const events = [start, ...run.drafts.map((d) => materializeEvent(d, { id: d.id ?? randomUUID(), ...envelope(d.occurredAt) }))];
      const record: RunRecord = { id: runId, createdAt, rootBranchId, title: run.title, config: run.config, ownerUserId: null };
      return { record, events, cell: run.cell };
    });
    const experiment = await this.db.transaction(async (tx) => {
      const stored = await this.experiments.insertExperiment(tx, input);
      for (const { record, events, cell } of prepared) {
        await tx.insert(schema.runs).values({ id: record.id, createdAt, rootBranchId: record.rootBranchId, title: record.title, config: record.config });
        await tx.insert(schema.branches).values({ id: record.rootBranchId, runId: record.id, parentBranchId: null, forkSeq: null, createdAt });
        for (let i = 0; i < events.length; i += 500) await tx.insert(schema.events).values(events.slice(i, i + 500).map(eventToRow));
        await writeSummary(tx, record.id, record.rootBranchId, summarizeBranch(record.rootBranchId, events), createdAt, true);
        await this.experiments.linkInTransaction(tx, { experimentId: stored.id, ...cell }, record.id);
      }
      return stored;
    });
    return { experiment, runs: prepared.map((run) => run.record) };
  }

  async saveTaskSet(input: Omit<TaskSetRecord, "id" | "createdAt">): Promise<TaskSetRecord> {
    await this.ready();
    if (input.contentHash !== null) {
      const [existing] = await this.db
        .select({ id: schema.taskSets.id })
        .from(schema.taskSets)
        .where(and(eq(schema.taskSets.environment, input.environment), eq(schema.taskSets.contentHash, input.contentHash)))
        .limit(1);
      const found = existing ? await this.getTaskSet(existing.id) : null;
      if (found) return found;
    }
    const record: TaskSetRecord = { ...input, id: randomUUID(), createdAt: new Date().toISOString() };
    await this.db.insert(schema.taskSets).values({
      id: record.id,
      name: record.name,
      environment: record.environment,
      createdAt: record.createdAt,
      tasks: record.tasks,
      problems: record.problems,
      contentHash: record.contentHash,
      taskCount: record.tasks.length,
    });
    return record;
  }

  async deleteTaskSet(id: string): Promise<boolean> {
    await this.ready();
    const deleted = await this.db.delete(schema.taskSets).where(eq(schema.taskSets.id, id)).returning({ id: schema.taskSets.id });
    return deleted.length > 0;
  }

  async getTaskSet(id: string): Promise<TaskSetRecord | null> {
    await this.ready();
    const [row] = await this.db.select().from(schema.taskSets).where(eq(schema.taskSets.id, id));
    if (!row) return null;
    return {
      id: row.id,
      name: row.name,
      environment: environmentIdSchema.parse(row.environment),
      createdAt: row.createdAt,
      tasks: jsonArray(row.tasks).filter(isRecord),
      problems: jsonArray(row.problems).filter((p): p is string => typeof p === "string"),
      contentHash: row.contentHash,
    };
  }

  async listTaskSets(): Promise<TaskSetListing[]> {
    await this.ready();
    const t = schema.taskSets;
    const rows = await this.db.select({ id: t.id, name: t.name, environment: t.environment, createdAt: t.createdAt, taskCount: t.taskCount }).from(t).orderBy(desc(t.createdAt));
    return rows.map((row) => ({ ...row, environment: environmentIdSchema.parse(row.environment) }));
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}

async function getBranch(tx: PgExecutor, branchId: string): Promise<BranchRecord | null> {
  const [row] = await tx.select().from(schema.branches).where(eq(schema.branches.id, branchId));
  return row ? branchFromRow(row) : null;
}

/** The branch's last own seq, or its fork point (its first own event numbers from `forkSeq + 1`). */
async function lastSeq(tx: PgExecutor, branch: BranchRecord): Promise<number> {
  const [last] = await tx.select({ seq: schema.events.seq }).from(schema.events).where(eq(schema.events.branchId, branch.id)).orderBy(desc(schema.events.seq)).limit(1);
  return last?.seq ?? branch.forkSeq ?? 0;
}

/** A branch's summary row as stored: its state and when it last became runnable. */
type SummaryRow = { summary: BranchSummaryState; queuedAt: string };

/** Inserts a batch after `after`, updates the summary and notifies, in `tx`. `known` is the summary row when the caller read it already (undefined: read it here). */
async function insertBatch(tx: PgExecutor, branch: BranchRecord, drafts: readonly EventDraft[], after: number, origin: string, known?: SummaryRow | null): Promise<RunEvent[]> {
  let seq = after;
  const occurredAt = new Date().toISOString();
  const stored = drafts.map((d) => materializeEvent(d, { id: d.id ?? randomUUID(), runId: branch.runId, branchId: branch.id, seq: ++seq, occurredAt }));
  const existing = known === undefined ? await readSummaryRow(tx, branch.id) : known;
  // A fork's first own events: its summary starts from the parent path it sees.
  const summary = existing?.summary ?? summarizeBranch(branch.id, await listEvents(tx, branch.runId, branch.id, 0));
  let queuedAt = existing?.queuedAt ?? occurredAt;
  for (const event of stored) {
    const wasRunning = summary.status === "running";
    applyToBranchSummary(summary, event);
    if (!wasRunning && summary.status === "running") queuedAt = occurredAt;
  }
  const notice: EventNotice = { runId: branch.runId, branchId: branch.id, firstSeq: after + 1, seq, origin };
  if (existing === null) {
    await tx.insert(schema.events).values(stored.map(eventToRow));
    await writeSummary(tx, branch.runId, branch.id, summary, queuedAt, true);
    await notify(tx, notice);
    return stored;
  }
  // The usual case, in one round trip: the events inserted and the summary updated as data-modifying
  // CTEs (each runs exactly once, whether or not the outer query reads it), the notification sent
  // once (one summary row). The unique (branch_id, seq) index still rejects a second writer's seq.
  const inserted = tx.$with("inserted").as(tx.insert(schema.events).values(stored.map(eventToRow)).returning({ seq: schema.events.seq }));
  const updated = tx
    .$with("updated")
    .as(
      tx
        .update(schema.branchSummaries)
        .set({ branchId: branch.id, runId: branch.runId, status: summary.status, queuedAt, summary })
        .where(eq(schema.branchSummaries.branchId, branch.id))
        .returning({ branchId: schema.branchSummaries.branchId }),
    );
  await tx
    .with(inserted, updated)
    .select({ notified: sql`pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(notice)})` })
    .from(updated);
  return stored;
}

/**
 * Branch id → the path segments it sees ({@link branchPath}), for one store: only committed
 * branches are put here (reads outside a transaction), and a branch's ancestry never changes.
 * Holds at most {@link BranchPathCache.LIMIT} branches, then starts over (a long-lived app server).
 */
class BranchPathCache {
  static readonly LIMIT = 10_000;
  private readonly map = new Map<string, PathSegment[]>();
  get(branchId: string): PathSegment[] | undefined {
    return this.map.get(branchId);
  }
  set(branchId: string, segments: PathSegment[]): void {
    if (this.map.size >= BranchPathCache.LIMIT) this.map.clear();
    this.map.set(branchId, segments);
  }
}

/** The segments `branchId` sees, from `paths` when it holds them, else read (two queries) and kept there. */
async function pathOf(tx: PgExecutor, branchId: BranchId, paths?: BranchPathCache): Promise<PathSegment[]> {
  const known = paths?.get(branchId);
  if (known) return known;
  const leaf = await getBranch(tx, branchId);
  if (!leaf) throw new AppError("not-found", `No branch ${branchId}`);
  const family = new Map<string, BranchRecord>();
  for (const row of await tx.select().from(schema.branches).where(eq(schema.branches.runId, leaf.runId))) family.set(row.id, branchFromRow(row));
  const segments = branchPath(branchId, (id) => family.get(id) ?? null);
  paths?.set(branchId, segments);
  return segments;
}

/** Events visible on a branch after `after` (its path: DESIGN.md §1), in one indexed query (plus the path's, unless `paths` holds it). */
async function listEvents(tx: PgExecutor, runId: RunId, branchId: BranchId, after: number, paths?: BranchPathCache, limit?: number): Promise<RunEvent[]> {
  const segments = await pathOf(tx, branchId, paths);
  const conditions: SQL[] = [];
  for (const segment of segments) {
    const parts = [eq(schema.events.branchId, segment.branchId), gt(schema.events.seq, after)];
    if (segment.maxSeq !== null) parts.push(lte(schema.events.seq, segment.maxSeq));
    const condition = and(...parts);
    if (condition) conditions.push(condition);
  }
  const query = tx
    .select()
    .from(schema.events)
    .where(and(eq(schema.events.runId, runId), or(...conditions)))
    .orderBy(asc(schema.events.seq));
  const rows = limit !== undefined && Number.isFinite(limit) ? await query.limit(limit) : await query;
  return rows.map(eventFromRow);
}

async function readSummaryRow(tx: PgExecutor, branchId: string): Promise<{ summary: BranchSummaryState; queuedAt: string } | null> {
  const [row] = await tx.select().from(schema.branchSummaries).where(eq(schema.branchSummaries.branchId, branchId));
  return row ? { summary: summaryFromJson(row.summary, branchId), queuedAt: row.queuedAt } : null;
}

async function writeSummary(tx: PgExecutor, runId: string, branchId: string, summary: BranchSummaryState, queuedAt: string, insert: boolean): Promise<void> {
  const values = { branchId, runId, status: summary.status, queuedAt, summary };
  if (insert) await tx.insert(schema.branchSummaries).values(values);
  else await tx.update(schema.branchSummaries).set(values).where(eq(schema.branchSummaries.branchId, branchId));
}

/** `pg_notify` in the caller's transaction: delivered to listeners when (and only if) it commits. */
async function notify(tx: PgExecutor, notice: EventNotice): Promise<void> {
  await tx.execute(sql`SELECT pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(notice)})`);
}

function staleWriter(branchId: string, afterSeq: number, last: number | null): AppError {
  const now = last === null ? "another writer stored that seq first" : `the log ends at seq ${last}`;
  return new AppError("conflict", `Branch ${branchId} moved on: this writer continued from seq ${afterSeq}, but ${now}. Re-read the log (its lease may have passed to another worker).`);
}

/** Number of migrations in the committed journal of `folder`. */
function migrationCount(folder: string): number {
  const journal: unknown = JSON.parse(fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8"));
  return journal && typeof journal === "object" && "entries" in journal && Array.isArray(journal.entries) ? journal.entries.length : 0;
}

/** Migrations drizzle's migrator has recorded (`drizzle.__drizzle_migrations`); 0 when none ran. */
async function appliedMigrations(connection: PgConnection): Promise<number> {
  try {
    const [row] = await connection.db.select({ n: count() }).from(drizzleMigrations);
    return row?.n ?? 0;
  } catch (error) {
    const code = pgErrorCode(error);
    if (code === "42P01" || code === "3F000") return 0;
    throw error;
  }
}

/** drizzle's own bookkeeping table (written by its migrator). */
const drizzleMigrations = pgSchema("drizzle").table("__drizzle_migrations", { id: serial("id").primaryKey(), hash: text("hash").notNull() });

function jsonArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
