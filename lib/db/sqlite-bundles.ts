import { desc, eq, inArray, sql } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { z } from "zod";
import { summarizeBranch } from "@/lib/domain/branch-summary";
import type { RunEvent } from "@/lib/domain/events";
import type { CachedResponse } from "@/lib/engine/ports";
import type { BundleImportInput, BundleImportPart, BundleImportResult, BundlePartWritten, BundleRecord, BundleRowInput, BundleStore } from "./bundle-store";
import * as schema from "./schema";
import { type SqliteConnection } from "./sqlite-connection";

type Db = BetterSQLite3Database<typeof schema>;

const idListSchema = z.array(z.string());
const cachedSchema = z.object({
  text: z.string(),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number(), cachedInputTokens: z.number().optional(), cacheWriteInputTokens: z.number().optional() }),
  finishReason: z.string(),
});

function toRecord(row: typeof schema.bundles.$inferSelect): BundleRecord {
  return {
    contentHash: row.contentHash,
    importedAt: row.importedAt,
    fileName: row.fileName,
    manifestJson: row.manifest,
    runIds: idListSchema.parse(JSON.parse(row.runIds)),
    experimentIds: idListSchema.parse(JSON.parse(row.experimentIds)),
  };
}

/** Event (or cache) rows per INSERT statement (about 10 columns each, far below SQLite's 32,766 parameters). */
const EVENTS_PER_INSERT = 200;

/** The events a branch sees: its parent's path up to `forkSeq`, then its own (DESIGN.md §1). */
function pathOf(run: BundleImportPart["runs"][number], branchId: string): RunEvent[] {
  const branch = run.branches.find((candidate) => candidate.id === branchId);
  if (!branch) return [];
  const own = run.events.filter((event) => event.branchId === branchId);
  if (branch.parentBranchId === null || branch.forkSeq === null) return own;
  const forkSeq = branch.forkSeq;
  return [...pathOf(run, branch.parentBranchId).filter((event) => event.seq <= forkSeq), ...own];
}

/**
 * The SQLite {@link BundleStore}: one IMMEDIATE transaction per import, rows written
 * with the ids they had where they were recorded (event ids are referenced by memory items and
 * digests, so they are never renamed).
 */
export class SqliteBundleStore implements BundleStore {
  constructor(
    private readonly db: Db,
    private readonly client: SqliteConnection,
  ) {}

  async importBundle(input: BundleImportInput): Promise<BundleImportResult> {
    const importedAt = new Date().toISOString();
    return this.client
      .transaction((): BundleImportResult => {
        const existing = this.db.select().from(schema.bundles).where(eq(schema.bundles.contentHash, input.contentHash)).get();
        if (existing) return { bundle: toRecord(existing), created: false, alreadyHere: false, skippedRunIds: [] };
        const runIds = input.runs.map((run) => run.record.id);
        const experimentIds = input.experiments.map((experiment) => experiment.record.id);
        const written = this.writePart(input, importedAt);
        const alreadyHere = written.presentRunIds.length === runIds.length && written.presentExperimentIds.length === experimentIds.length;
        const row = {
          contentHash: input.contentHash,
          importedAt,
          fileName: input.fileName,
          manifest: input.manifestJson,
          runIds: JSON.stringify(runIds),
          experimentIds: JSON.stringify(experimentIds),
        };
        this.db.insert(schema.bundles).values(row).run();
        return { bundle: toRecord(row), created: !alreadyHere, alreadyHere, skippedRunIds: written.presentRunIds };
      })
      .immediate();
  }

  async importBundlePart(part: BundleImportPart): Promise<BundlePartWritten> {
    const importedAt = new Date().toISOString();
    return this.client.transaction((): BundlePartWritten => this.writePart(part, importedAt)).immediate();
  }

  async recordBundle(input: BundleRowInput): Promise<{ bundle: BundleRecord; created: boolean }> {
    return this.client
      .transaction(() => {
        const existing = this.db.select().from(schema.bundles).where(eq(schema.bundles.contentHash, input.contentHash)).get();
        if (existing) return { bundle: toRecord(existing), created: false };
        const row = {
          contentHash: input.contentHash,
          importedAt: new Date().toISOString(),
          fileName: input.fileName,
          manifest: input.manifestJson,
          runIds: JSON.stringify(input.runIds),
          experimentIds: JSON.stringify(input.experimentIds),
        };
        this.db.insert(schema.bundles).values(row).run();
        return { bundle: toRecord(row), created: true };
      })
      .immediate();
  }

  async removeBundleParts(written: BundlePartWritten): Promise<void> {
    this.client
      .transaction(() => {
        for (let start = 0; start < written.experimentIds.length; start += 500) {
          const ids = written.experimentIds.slice(start, start + 500);
          this.db.delete(schema.experimentRuns).where(inArray(schema.experimentRuns.experimentId, ids)).run();
          this.db.delete(schema.experiments).where(inArray(schema.experiments.id, ids)).run();
        }
        for (let start = 0; start < written.runIds.length; start += 500) {
          const ids = written.runIds.slice(start, start + 500);
          this.db.delete(schema.events).where(inArray(schema.events.runId, ids)).run();
          this.db.delete(schema.branchSummaries).where(inArray(schema.branchSummaries.runId, ids)).run();
          this.db.delete(schema.branches).where(inArray(schema.branches.runId, ids)).run();
          this.db.delete(schema.runs).where(inArray(schema.runs.id, ids)).run();
        }
        for (let start = 0; start < written.taskSetIds.length; start += 500) {
          this.db.delete(schema.taskSets).where(inArray(schema.taskSets.id, written.taskSetIds.slice(start, start + 500))).run();
        }
        for (let start = 0; start < written.cacheKeys.length; start += 500) {
          this.db.delete(schema.responseCache).where(inArray(schema.responseCache.requestHash, written.cacheKeys.slice(start, start + 500))).run();
        }
      })
      .immediate();
  }

  /** The rows of `part` (inside the caller's transaction). */
  private writePart(part: BundleImportPart, importedAt: string): BundlePartWritten {
    const runIds = part.runs.map((run) => run.record.id);
    const experimentIds = part.experiments.map((experiment) => experiment.record.id);
    const presentRuns = new Set(runIds.length ? this.db.select({ id: schema.runs.id }).from(schema.runs).where(inArray(schema.runs.id, runIds)).all().map((row) => row.id) : []);
    const presentExperiments = new Set(
      experimentIds.length ? this.db.select({ id: schema.experiments.id }).from(schema.experiments).where(inArray(schema.experiments.id, experimentIds)).all().map((row) => row.id) : [],
    );
    const written: BundlePartWritten = { runIds: [], experimentIds: [], taskSetIds: [], cacheKeys: [], presentRunIds: runIds.filter((id) => presentRuns.has(id)), presentExperimentIds: experimentIds.filter((id) => presentExperiments.has(id)) };
    for (const set of part.taskSets) {
      const added = this.db
        .insert(schema.taskSets)
        .values({ ...set, tasks: JSON.stringify(set.tasks), problems: JSON.stringify(set.problems) })
        .onConflictDoNothing()
        .returning({ id: schema.taskSets.id })
        .all();
      for (const row of added) written.taskSetIds.push(row.id);
    }
    for (const run of part.runs) {
      const { record } = run;
      if (presentRuns.has(record.id)) continue;
      this.db.insert(schema.runs).values({ id: record.id, createdAt: record.createdAt, rootBranchId: record.rootBranchId, title: record.title, config: JSON.stringify(record.config) }).run();
      written.runIds.push(record.id);
      for (const branch of run.branches) this.db.insert(schema.branches).values(branch).run();
      // Many rows per statement: a 1,000-run bundle has tens of thousands of events.
      for (let start = 0; start < run.events.length; start += EVENTS_PER_INSERT) {
        const rows = run.events.slice(start, start + EVENTS_PER_INSERT).map((event) => ({ ...event, data: JSON.stringify(event.data), actor: event.actor ? JSON.stringify(event.actor) : null }));
        this.db.insert(schema.events).values(rows).run();
      }
      for (const branch of run.branches) {
        const summary = summarizeBranch(branch.id, pathOf(run, branch.id));
        this.db.insert(schema.branchSummaries).values({ branchId: branch.id, runId: record.id, status: summary.status, queuedAt: branch.createdAt, summary: JSON.stringify(summary) }).run();
      }
    }
    for (const { record, cells } of part.experiments) {
      if (presentExperiments.has(record.id)) continue;
      const stored = record.provenance ? { ...record.definition, provenance: record.provenance } : record.definition;
      this.db.insert(schema.experiments).values({ id: record.id, createdAt: record.createdAt, name: record.definition.name, definition: JSON.stringify(stored), taskSetName: record.taskSetName }).run();
      written.experimentIds.push(record.id);
      cells.forEach((cell, position) => this.db.insert(schema.experimentRuns).values({ experimentId: record.id, ...cell, position }).run());
    }
    for (let start = 0; start < part.cache.length; start += EVENTS_PER_INSERT) {
      const rows = part.cache.slice(start, start + EVENTS_PER_INSERT).map((entry) => ({ requestHash: entry.key, response: JSON.stringify(entry.response), createdAt: importedAt }));
      const added = this.db.insert(schema.responseCache).values(rows).onConflictDoNothing().returning({ key: schema.responseCache.requestHash }).all();
      for (const row of added) written.cacheKeys.push(row.key);
    }
    return written;
  }

  async getBundle(contentHash: string): Promise<BundleRecord | null> {
    const row = this.db.select().from(schema.bundles).where(eq(schema.bundles.contentHash, contentHash)).get();
    return row ? toRecord(row) : null;
  }

  async listBundles(limit: number): Promise<BundleRecord[]> {
    return this.db.select().from(schema.bundles).orderBy(desc(schema.bundles.importedAt)).limit(limit).all().map(toRecord);
  }

  /** Response-cache entries whose key holds one of `requestHashes` (`[scope:]hash[#n][~k]`), 500 hashes per query. */
  async listCacheEntries(requestHashes: string[]): Promise<Array<{ key: string; response: CachedResponse }>> {
    const found = new Map<string, CachedResponse>();
    const unique = [...new Set(requestHashes)];
    for (let start = 0; start < unique.length; start += 500) {
      const chunk = unique.slice(start, start + 500);
      const likes = sql.join(
        chunk.map((hash) => sql`${schema.responseCache.requestHash} LIKE ${`%${hash}%`}`),
        sql` OR `,
      );
      for (const row of this.db.select().from(schema.responseCache).where(likes).all()) {
        found.set(row.requestHash, cachedSchema.parse(JSON.parse(row.response)));
      }
    }
    return [...found.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, response]) => ({ key, response }));
  }
}
