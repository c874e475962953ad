// Over 400 lines on purpose: the SQLite RunStore is one transaction boundary (append + branch summary + import of a whole log), kept in one file so every write path shares the same statements and checks.
import { randomUUID } from "node:crypto";
import path from "node:path";
import { and, asc, desc, eq, gt, lte, sql } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { z } from "zod";
import { runConfigSchema, environmentIdSchema } from "@/lib/domain/config";
import { AppError } from "@/lib/domain/errors";
import { draft, runEventSchema, type EventDraft, type RunEvent } from "@/lib/domain/events";
import { applyToBranchSummary, BRANCH_SUMMARY_VERSION, summarizeBranch, type BranchSummaryState } from "@/lib/domain/branch-summary";
import { asBranchId, asRunId, type BranchId, type RunId } from "@/lib/domain/ids";
import type { CallActivity } from "@/lib/domain/status";
import type { CachedResponse } from "@/lib/engine/ports";
import { branchPath } from "./branch-path";
import * as schema from "./schema";
import type { ExperimentCellKey } from "./experiment-store";
import { SqliteExperimentStore } from "./sqlite-experiments";
import { SqliteBundleStore } from "./sqlite-bundles";
import type { BranchRecord, ImportExperimentInput, LeaseRecord, RunRecord, RunnableBranch, RunStore, TaskSetListing, TaskSetRecord } from "./store";
import type { ExperimentRecord } from "@/lib/domain/experiment";
import { parseSummary, toLeaseRecord } from "./sqlite-rows";
import { actorField, materializeEvent } from "./validate-event";
import { creatingOwnerUserId } from "./creating-owner";
import { actorSchema } from "@/lib/domain/actor";
import { drizzleOver, migrateWithRetry, openSqliteConnection, type SqliteConnection } from "./sqlite-connection";

/** Folder of the drizzle-kit migrations (committed; `npm run db:generate` writes them). */
export const MIGRATIONS_FOLDER = path.join(/* turbopackIgnore: true */ process.cwd(), "lib/db/migrations");

type Db = BetterSQLite3Database<typeof schema>;

/**
 * The SQLite adapter (better-sqlite3 + drizzle). One file on disk, WAL mode, so
 * the web server and the CLI can share it; appends run in an IMMEDIATE
 * transaction, so two processes never hand out the same `seq`.
 * See docs/decisions/0002-embedded-database.md.
 */
export class SqliteRunStore implements RunStore {
  private readonly client: SqliteConnection;
  private readonly db: Db;
  readonly experiments: SqliteExperimentStore;
  /** Imported run bundles. */
  readonly bundles: SqliteBundleStore;

  /**
   * Opens (creating if needed) the database at `file` and applies migrations.
   * `:memory:` gives a private in-memory database (tests).
   */
  constructor(file: string, options: { migrationsFolder?: string } = {}) {
    this.client = openSqliteConnection(file, { foreignKeys: true });
    this.db = drizzleOver(this.client, schema);
    this.experiments = new SqliteExperimentStore(this.db);
    this.bundles = new SqliteBundleStore(this.db, this.client);
    migrateWithRetry(() => migrate(this.db, { migrationsFolder: options.migrationsFolder ?? MIGRATIONS_FOLDER }));
    this.backfillSummaries();
  }

  /**
   * Databases from before the summary read model, or with summaries of an older
   * {@link BRANCH_SUMMARY_VERSION}: summarize every branch that has events but no
   * current summary row, from its log (once, when the database is opened).
   */
  private backfillSummaries(): void {
    this.client.prepare("DELETE FROM branch_summaries WHERE json_extract(summary, '$.version') IS NOT ?").run(BRANCH_SUMMARY_VERSION);
    const missing = this.client
      .prepare(
        "SELECT b.id AS id, b.run_id AS runId, b.created_at AS createdAt FROM branches b WHERE NOT EXISTS (SELECT 1 FROM branch_summaries s WHERE s.branch_id = b.id) AND EXISTS (SELECT 1 FROM events e WHERE e.branch_id = b.id)",
      )
      .all() as Array<{ id: string; runId: string; createdAt: string }>;
    if (missing.length === 0) return;
    this.client.transaction(() => {
      for (const row of missing) {
        const summary = summarizeBranch(row.id, this.listSync(asRunId(row.runId), asBranchId(row.id), 0));
        this.writeSummary(asRunId(row.runId), asBranchId(row.id), summary, row.createdAt, true);
      }
    })();
  }

  private readSummaryRow(branchId: BranchId): { summary: BranchSummaryState; queuedAt: string } | null {
    const row = this.db.select().from(schema.branchSummaries).where(eq(schema.branchSummaries.branchId, branchId)).get();
    return row ? { summary: parseSummary(row.summary, branchId), queuedAt: row.queuedAt } : null;
  }

  private writeSummary(runId: RunId, branchId: BranchId, summary: BranchSummaryState, queuedAt: string, insert: boolean): void {
    const values = { branchId, runId, status: summary.status, queuedAt, summary: JSON.stringify(summary) };
    if (insert) this.db.insert(schema.branchSummaries).values(values).run();
    else this.db.update(schema.branchSummaries).set(values).where(eq(schema.branchSummaries.branchId, branchId)).run();
  }

  async createRun(input: { config: RunRecord["config"]; title: string; cell?: ExperimentCellKey }): Promise<RunRecord> {
    const runId = asRunId(randomUUID());
    const rootBranchId = asBranchId(randomUUID());
    const createdAt = new Date().toISOString();
    const start = materializeEvent(draft("run-start", { config: input.config }), {
      id: randomUUID(),
      runId,
      branchId: rootBranchId,
      seq: 1,
      occurredAt: createdAt,
    });
    const ownerUserId = creatingOwnerUserId();
    this.client.transaction(() => {
      this.db.insert(schema.runs).values({ id: runId, createdAt, rootBranchId, title: input.title, config: JSON.stringify(input.config), ownerUserId }).run();
      this.db.insert(schema.branches).values({ id: rootBranchId, runId, parentBranchId: null, forkSeq: null, createdAt }).run();
      this.db.insert(schema.events).values(toRow(start)).run();
      this.writeSummary(runId, rootBranchId, summarizeBranch(rootBranchId, [start]), createdAt, true);
      if (input.cell) this.experiments.linkInTransaction(input.cell, runId);
    })();
    return { id: runId, createdAt, rootBranchId, title: input.title, config: input.config, ownerUserId };
  }

  async getRun(runId: RunId): Promise<RunRecord | null> {
    const row = this.db.select().from(schema.runs).where(eq(schema.runs.id, runId)).get();
    return row ? toRunRecord(row) : null;
  }

  async listRuns(limit: number): Promise<RunRecord[]> {
    return this.db.select().from(schema.runs).orderBy(desc(schema.runs.createdAt)).limit(limit).all().map(toRunRecord);
  }

  async getBranch(branchId: BranchId): Promise<BranchRecord | null> {
    return this.getBranchSync(branchId);
  }

  private getBranchSync(branchId: BranchId): BranchRecord | null {
    const row = this.db.select().from(schema.branches).where(eq(schema.branches.id, branchId)).get();
    if (!row) return null;
    return toBranchRecord(row);
  }

  async createBranch(input: { runId: RunId; parentBranchId: BranchId; forkSeq: number }): Promise<BranchRecord> {
    const parent = this.getBranchSync(input.parentBranchId);
    if (!parent || parent.runId !== input.runId) {
      throw new AppError("not-found", `Run ${input.runId} has no branch ${input.parentBranchId}`);
    }
    const record: BranchRecord = {
      id: asBranchId(randomUUID()),
      runId: input.runId,
      parentBranchId: input.parentBranchId,
      forkSeq: input.forkSeq,
      createdAt: new Date().toISOString(),
    };
    this.db.insert(schema.branches).values(record).run();
    return record;
  }

  async listBranches(runId: RunId): Promise<BranchRecord[]> {
    return this.db
      .select()
      .from(schema.branches)
      .where(eq(schema.branches.runId, runId))
      .orderBy(asc(schema.branches.createdAt), sql`rowid`)
      .all()
      .map(toBranchRecord);
  }

  /** See {@link RunStore.listCacheEntries} (lib/db/sqlite-bundles.ts). */
  listCacheEntries(requestHashes: string[]): Promise<Array<{ key: string; response: CachedResponse }>> {
    return this.bundles.listCacheEntries(requestHashes);
  }

  async getCachedResponse(requestHash: string): Promise<CachedResponse | null> {
    const row = this.db.select().from(schema.responseCache).where(eq(schema.responseCache.requestHash, requestHash)).get();
    return row ? cachedResponseSchema.parse(JSON.parse(row.response)) : null;
  }

  async rejectedParameters(modelId: string): Promise<readonly string[]> {
    return this.db.select().from(schema.rejectedParameters).where(eq(schema.rejectedParameters.modelId, modelId)).all().map((row) => row.parameter);
  }

  async rememberRejectedParameter(modelId: string, parameter: string): Promise<void> {
    this.db.insert(schema.rejectedParameters).values({ modelId, parameter, rejectedAt: new Date().toISOString() }).onConflictDoNothing().run();
  }

  async putCachedResponse(requestHash: string, response: CachedResponse): Promise<void> {
    this.db
      .insert(schema.responseCache)
      .values({ requestHash, response: JSON.stringify(response), createdAt: new Date().toISOString() })
      .onConflictDoNothing()
      .run();
  }

  async list(runId: RunId, branchId: BranchId, after = 0, limit = Number.POSITIVE_INFINITY): Promise<RunEvent[]> {
    return this.listSync(runId, branchId, after, limit);
  }

  private listSync(runId: RunId, branchId: BranchId, after: number, limit = Number.POSITIVE_INFINITY): RunEvent[] {
    const segments = branchPath(branchId, (id) => this.getBranchSync(id));
    const out: RunEvent[] = [];
    for (const segment of segments) {
      const remaining = limit - out.length;
      if (remaining <= 0) break;
      const conditions = [eq(schema.events.runId, runId), eq(schema.events.branchId, segment.branchId), gt(schema.events.seq, after)];
      if (segment.maxSeq !== null) conditions.push(lte(schema.events.seq, segment.maxSeq));
      const query = this.db.select().from(schema.events).where(and(...conditions)).orderBy(asc(schema.events.seq));
      const rows = Number.isFinite(remaining) ? query.limit(remaining).all() : query.all();
      for (const row of rows) out.push(fromRow(row));
    }
    return out;
  }

  async append(runId: RunId, branchId: BranchId, drafts: readonly EventDraft[]): Promise<RunEvent[]> {
    if (drafts.length === 0) return [];
    const insert = this.client.transaction((): RunEvent[] => {
      const branch = this.getBranchSync(branchId);
      if (!branch || branch.runId !== runId) throw new AppError("not-found", `Run ${runId} has no branch ${branchId}`);
      const last = this.db
        .select({ seq: schema.events.seq })
        .from(schema.events)
        .where(eq(schema.events.branchId, branchId))
        .orderBy(desc(schema.events.seq))
        .limit(1)
        .get();
      let seq = last?.seq ?? branch.forkSeq ?? 0;
      const occurredAt = new Date().toISOString();
      const stored = drafts.map((d) => materializeEvent(d, { id: d.id ?? randomUUID(), runId, branchId, seq: ++seq, occurredAt }));
      const existing = this.readSummaryRow(branchId);
      // A fork's first own events: its summary starts from the parent path it sees.
      const summary = existing?.summary ?? summarizeBranch(branchId, this.listSync(runId, branchId, 0));
      let queuedAt = existing?.queuedAt ?? occurredAt;
      for (const event of stored) {
        this.db.insert(schema.events).values(toRow(event)).run();
        const wasRunning = summary.status === "running";
        applyToBranchSummary(summary, event);
        if (!wasRunning && summary.status === "running") queuedAt = occurredAt;
      }
      this.writeSummary(runId, branchId, summary, queuedAt, existing === null);
      return stored;
    });
    return insert.immediate();
  }

  async claimLease(branchId: BranchId, owner: string, ttlMs: number, now = Date.now()): Promise<boolean> {
    const leases = schema.branchLeases;
    return this.client
      .transaction(() => {
        const row = this.db.select().from(leases).where(eq(leases.branchId, branchId)).get();
        if (row && row.owner !== owner && row.expiresAt > now) return false;
        this.db
          .insert(leases)
          .values({ branchId, owner, expiresAt: now + ttlMs, activity: null })
          .onConflictDoUpdate({
            target: leases.branchId,
            // Renewing keeps the holder's activity; a new holder starts with none.
            set: { owner, expiresAt: now + ttlMs, activity: row?.owner === owner ? row.activity : null },
          })
          .run();
        return true;
      })
      .immediate();
  }

  async releaseLease(branchId: BranchId, owner: string): Promise<void> {
    const leases = schema.branchLeases;
    this.db.delete(leases).where(and(eq(leases.branchId, branchId), eq(leases.owner, owner))).run();
  }

  async leaseHolder(branchId: BranchId, now = Date.now()): Promise<string | null> {
    const row = this.db.select().from(schema.branchLeases).where(eq(schema.branchLeases.branchId, branchId)).get();
    return row && row.expiresAt > now ? row.owner : null;
  }

  async getLease(branchId: BranchId): Promise<LeaseRecord | null> {
    const row = this.db.select().from(schema.branchLeases).where(eq(schema.branchLeases.branchId, branchId)).get();
    return row ? toLeaseRecord(row) : null;
  }

  async setLeaseActivity(branchId: BranchId, owner: string, activity: CallActivity | null): Promise<void> {
    const leases = schema.branchLeases;
    this.db
      .update(leases)
      .set({ activity: activity === null ? null : JSON.stringify(activity) })
      .where(and(eq(leases.branchId, branchId), eq(leases.owner, owner)))
      .run();
  }

  async getBranchSummary(branchId: BranchId): Promise<BranchSummaryState | null> {
    const found = this.readSummaryRow(branchId);
    if (found) return found.summary;
    const branch = this.getBranchSync(branchId);
    return branch ? summarizeBranch(branchId, this.listSync(branch.runId, branchId, 0)) : null;
  }

  async listBranchSeqs(): Promise<Array<{ runId: RunId; branchId: BranchId; lastSeq: number }>> {
    const rows = this.client.prepare("SELECT run_id AS runId, branch_id AS branchId, json_extract(summary, '$.lastSeq') AS lastSeq FROM branch_summaries").all() as Array<{ runId: string; branchId: string; lastSeq: number }>;
    return rows.map((row) => ({ runId: asRunId(row.runId), branchId: asBranchId(row.branchId), lastSeq: Number(row.lastSeq) }));
  }

  async listRunnableBranches(limit: number): Promise<RunnableBranch[]> {
    const summaries = schema.branchSummaries;
    const rows = this.db
      .select({ summary: summaries, lease: schema.branchLeases })
      .from(summaries)
      .leftJoin(schema.branchLeases, eq(schema.branchLeases.branchId, summaries.branchId))
      .where(eq(summaries.status, "running"))
      .orderBy(asc(summaries.queuedAt))
      .limit(limit)
      .all();
    return rows.map(({ summary, lease }) => ({
      runId: asRunId(summary.runId),
      branchId: asBranchId(summary.branchId),
      queuedAt: summary.queuedAt,
      summary: parseSummary(summary.summary, summary.branchId),
      lease: lease ? toLeaseRecord(lease) : null,
    }));
  }

  async importExperiment(input: ImportExperimentInput): Promise<{ experiment: ExperimentRecord; runs: RunRecord[] }> {
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
    const experiment = this.client
      .transaction(() => {
        const stored = this.experiments.insertExperiment(input);
        for (const { record, events, cell } of prepared) {
          this.db.insert(schema.runs).values({ id: record.id, createdAt, rootBranchId: record.rootBranchId, title: record.title, config: JSON.stringify(record.config) }).run();
          this.db.insert(schema.branches).values({ id: record.rootBranchId, runId: record.id, parentBranchId: null, forkSeq: null, createdAt }).run();
          for (const event of events) this.db.insert(schema.events).values(toRow(event)).run();
          this.writeSummary(record.id, record.rootBranchId, summarizeBranch(record.rootBranchId, events), createdAt, true);
          this.experiments.linkInTransaction({ experimentId: stored.id, ...cell }, record.id);
        }
        return stored;
      })
      .immediate();
    return { experiment, runs: prepared.map((run) => run.record) };
  }

  async saveTaskSet(input: Omit<TaskSetRecord, "id" | "createdAt">): Promise<TaskSetRecord> {
    if (input.contentHash !== null) {
      const existing = this.db
        .select({ id: schema.taskSets.id })
        .from(schema.taskSets)
        .where(and(eq(schema.taskSets.environment, input.environment), eq(schema.taskSets.contentHash, input.contentHash)))
        .get();
      const found = existing ? await this.getTaskSet(existing.id) : null;
      if (found) return found;
    }
    const record: TaskSetRecord = { ...input, id: randomUUID(), createdAt: new Date().toISOString() };
    this.db
      .insert(schema.taskSets)
      .values({
        id: record.id,
        name: record.name,
        environment: record.environment,
        createdAt: record.createdAt,
        tasks: JSON.stringify(record.tasks),
        problems: JSON.stringify(record.problems),
        contentHash: record.contentHash,
        taskCount: record.tasks.length,
      })
      .run();
    return record;
  }

  async deleteTaskSet(id: string): Promise<boolean> {
    return this.db.delete(schema.taskSets).where(eq(schema.taskSets.id, id)).run().changes > 0;
  }

  async getTaskSet(id: string): Promise<TaskSetRecord | null> {
    const row = this.db.select().from(schema.taskSets).where(eq(schema.taskSets.id, id)).get();
    if (!row) return null;
    return {
      id: row.id,
      name: row.name,
      environment: environmentIdSchema.parse(row.environment),
      createdAt: row.createdAt,
      tasks: JSON.parse(row.tasks) as TaskSetRecord["tasks"],
      problems: JSON.parse(row.problems) as string[],
      contentHash: row.contentHash,
    };
  }

  async listTaskSets(): Promise<TaskSetListing[]> {
    const t = schema.taskSets;
    const rows = this.db.select({ id: t.id, name: t.name, environment: t.environment, createdAt: t.createdAt, taskCount: t.taskCount }).from(t).orderBy(desc(t.createdAt)).all();
    return rows.map((row) => ({ ...row, environment: environmentIdSchema.parse(row.environment) }));
  }

  async close(): Promise<void> {
    this.client.close();
  }
}

function toRow(event: RunEvent): typeof schema.events.$inferInsert {
  return {
    id: event.id,
    runId: event.runId,
    branchId: event.branchId,
    seq: event.seq,
    type: event.type,
    schemaVersion: event.schemaVersion,
    occurredAt: event.occurredAt,
    causedBy: event.causedBy,
    data: JSON.stringify(event.data),
    actor: event.actor ? JSON.stringify(event.actor) : null,
  };
}

function fromRow(row: typeof schema.events.$inferSelect): RunEvent {
  const { actor, ...rest } = row;
  const parsed = runEventSchema.safeParse({ ...rest, data: JSON.parse(row.data) as unknown, ...actorField(parseActor(actor)) });
  if (!parsed.success) {
    throw new AppError("internal", `Stored event ${row.id} (seq ${row.seq}) does not match the event catalogue: ${parsed.error.issues[0]?.message ?? ""}`);
  }
  return parsed.data;
}

/** A stored actor; a damaged one reads as unknown (null) rather than making the whole log unreadable. */
function parseActor(json: string | null): unknown {
  if (json === null) return null;
  try {
    const parsed = actorSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function toBranchRecord(row: typeof schema.branches.$inferSelect): BranchRecord {
  return {
    id: asBranchId(row.id),
    runId: asRunId(row.runId),
    parentBranchId: row.parentBranchId === null ? null : asBranchId(row.parentBranchId),
    forkSeq: row.forkSeq,
    createdAt: row.createdAt,
  };
}

const cachedResponseSchema = z.object({
  text: z.string(),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }),
  finishReason: z.string(),
});

function toRunRecord(row: typeof schema.runs.$inferSelect): RunRecord {
  return {
    id: asRunId(row.id),
    createdAt: row.createdAt,
    rootBranchId: asBranchId(row.rootBranchId),
    title: row.title,
    config: runConfigSchema.parse(JSON.parse(row.config)),
    ownerUserId: row.ownerUserId,
  };
}
