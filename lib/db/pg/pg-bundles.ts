import { desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { summarizeBranch } from "@/lib/domain/branch-summary";
import type { RunEvent } from "@/lib/domain/events";
import type { BundleImportInput, BundleImportPart, BundleImportResult, BundlePartWritten, BundleRecord, BundleRowInput, BundleStore } from "../bundle-store";
import type { PgDb } from "./database";
import { eventToRow } from "./pg-rows";
import * as schema from "./schema";

const idListSchema = z.array(z.string());

function toRecord(row: typeof schema.bundles.$inferSelect): BundleRecord {
  return { contentHash: row.contentHash, importedAt: row.importedAt, fileName: row.fileName, manifestJson: row.manifest, runIds: idListSchema.parse(row.runIds), experimentIds: idListSchema.parse(row.experimentIds) };
}

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
 * The PostgreSQL {@link BundleStore} (run bundles on the shared store): the same rules as
 * SQLite's — one transaction per import, rows keep the ids they were recorded with, importing the
 * same hash twice returns the stored row. Two app servers importing one bundle at once: the
 * bundle's primary key lets one commit; the other gets a conflict and can retry (then finds it).
 */
export class PgBundleStore implements BundleStore {
  constructor(
    private readonly db: PgDb,
    private readonly ready: () => Promise<void>,
  ) {}

  async importBundle(input: BundleImportInput): Promise<BundleImportResult> {
    await this.ready();
    const importedAt = new Date().toISOString();
    return this.db.transaction(async (tx): Promise<BundleImportResult> => {
      const [existing] = await tx.select().from(schema.bundles).where(eq(schema.bundles.contentHash, input.contentHash));
      if (existing) return { bundle: toRecord(existing), created: false, alreadyHere: false, skippedRunIds: [] };
      const runIds = input.runs.map((run) => run.record.id);
      const experimentIds = input.experiments.map((experiment) => experiment.record.id);
      const written = await writePart(tx, input, importedAt);
      const alreadyHere = written.presentRunIds.length === runIds.length && written.presentExperimentIds.length === experimentIds.length;
      const row = { contentHash: input.contentHash, importedAt, fileName: input.fileName, manifest: input.manifestJson, runIds, experimentIds };
      await tx.insert(schema.bundles).values(row);
      return { bundle: toRecord(row), created: !alreadyHere, alreadyHere, skippedRunIds: written.presentRunIds };
    });
  }

  async importBundlePart(part: BundleImportPart): Promise<BundlePartWritten> {
    await this.ready();
    const importedAt = new Date().toISOString();
    return this.db.transaction(async (tx) => writePart(tx, part, importedAt));
  }

  async recordBundle(input: BundleRowInput): Promise<{ bundle: BundleRecord; created: boolean }> {
    await this.ready();
    return this.db.transaction(async (tx) => {
      const [existing] = await tx.select().from(schema.bundles).where(eq(schema.bundles.contentHash, input.contentHash));
      if (existing) return { bundle: toRecord(existing), created: false };
      const row = { contentHash: input.contentHash, importedAt: new Date().toISOString(), fileName: input.fileName, manifest: input.manifestJson, runIds: input.runIds, experimentIds: input.experimentIds };
      await tx.insert(schema.bundles).values(row);
      return { bundle: toRecord(row), created: true };
    });
  }

  async removeBundleParts(written: BundlePartWritten): Promise<void> {
    await this.ready();
    await this.db.transaction(async (tx) => {
      for (let start = 0; start < written.experimentIds.length; start += 500) {
        const ids = written.experimentIds.slice(start, start + 500);
        await tx.delete(schema.experimentRuns).where(inArray(schema.experimentRuns.experimentId, ids));
        await tx.delete(schema.experiments).where(inArray(schema.experiments.id, ids));
      }
      for (let start = 0; start < written.runIds.length; start += 500) {
        const ids = written.runIds.slice(start, start + 500);
        await tx.delete(schema.events).where(inArray(schema.events.runId, ids));
        await tx.delete(schema.branchSummaries).where(inArray(schema.branchSummaries.runId, ids));
        await tx.delete(schema.branches).where(inArray(schema.branches.runId, ids));
        await tx.delete(schema.runs).where(inArray(schema.runs.id, ids));
      }
      for (let start = 0; start < written.taskSetIds.length; start += 500) await tx.delete(schema.taskSets).where(inArray(schema.taskSets.id, written.taskSetIds.slice(start, start + 500)));
      for (let start = 0; start < written.cacheKeys.length; start += 500) await tx.delete(schema.responseCache).where(inArray(schema.responseCache.requestHash, written.cacheKeys.slice(start, start + 500)));
    });
  }

  async getBundle(contentHash: string): Promise<BundleRecord | null> {
    await this.ready();
    const [row] = await this.db.select().from(schema.bundles).where(eq(schema.bundles.contentHash, contentHash));
    return row ? toRecord(row) : null;
  }

  async listBundles(limit: number): Promise<BundleRecord[]> {
    await this.ready();
    return (await this.db.select().from(schema.bundles).orderBy(desc(schema.bundles.importedAt)).limit(limit)).map(toRecord);
  }
}

/** The rows of `part`, inside the caller's transaction (what {@link PgBundleStore.importBundlePart} writes). */
async function writePart(tx: Parameters<Parameters<PgDb["transaction"]>[0]>[0], part: BundleImportPart, importedAt: string): Promise<BundlePartWritten> {
  const runIds = part.runs.map((run) => run.record.id);
  const experimentIds = part.experiments.map((experiment) => experiment.record.id);
  const presentRuns = new Set(runIds.length ? (await tx.select({ id: schema.runs.id }).from(schema.runs).where(inArray(schema.runs.id, runIds))).map((row) => row.id) : []);
  const presentExperiments = new Set(
    experimentIds.length ? (await tx.select({ id: schema.experiments.id }).from(schema.experiments).where(inArray(schema.experiments.id, experimentIds))).map((row) => row.id) : [],
  );
  const written: BundlePartWritten = { runIds: [], experimentIds: [], taskSetIds: [], cacheKeys: [], presentRunIds: runIds.filter((id) => presentRuns.has(id)), presentExperimentIds: experimentIds.filter((id) => presentExperiments.has(id)) };
  for (const set of part.taskSets) {
    for (const row of await tx.insert(schema.taskSets).values(set).onConflictDoNothing().returning({ id: schema.taskSets.id })) written.taskSetIds.push(row.id);
  }
  for (const run of part.runs) {
    const { record } = run;
    if (presentRuns.has(record.id)) continue;
    await tx.insert(schema.runs).values({ id: record.id, createdAt: record.createdAt, rootBranchId: record.rootBranchId, title: record.title, config: record.config });
    written.runIds.push(record.id);
    for (const branch of run.branches) await tx.insert(schema.branches).values(branch);
    for (let i = 0; i < run.events.length; i += 500) await tx.insert(schema.events).values(run.events.slice(i, i + 500).map(eventToRow));
    for (const branch of run.branches) {
      const summary = summarizeBranch(branch.id, pathOf(run, branch.id));
      await tx.insert(schema.branchSummaries).values({ branchId: branch.id, runId: record.id, status: summary.status, queuedAt: branch.createdAt, summary });
    }
  }
  for (const { record, cells } of part.experiments) {
    if (presentExperiments.has(record.id)) continue;
    const stored = record.provenance ? { ...record.definition, provenance: record.provenance } : record.definition;
    await tx.insert(schema.experiments).values({ id: record.id, createdAt: record.createdAt, name: record.definition.name, definition: stored, taskSetName: record.taskSetName });
    written.experimentIds.push(record.id);
    for (const [position, cell] of cells.entries()) await tx.insert(schema.experimentRuns).values({ experimentId: record.id, ...cell, position });
  }
  for (let i = 0; i < part.cache.length; i += 500) {
    const rows = part.cache.slice(i, i + 500).map((entry) => ({ requestHash: entry.key, response: entry.response, createdAt: importedAt }));
    for (const row of await tx.insert(schema.responseCache).values(rows).onConflictDoNothing().returning({ key: schema.responseCache.requestHash })) written.cacheKeys.push(row.key);
  }
  return written;
}
