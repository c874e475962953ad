import { desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { summarizeBranch } from "@/lib/domain/branch-summary";
import type { RunEvent } from "@/lib/domain/events";
import type { BundleImportInput, BundleImportResult, BundleRecord, BundleStore } from "../bundle-store";
import type { PgDb } from "./database";
import { eventToRow } from "./pg-rows";
import * as schema from "./schema";

const idListSchema = z.array(z.string());

function toRecord(row: typeof schema.bundles.$inferSelect): BundleRecord {
  return { contentHash: row.contentHash, importedAt: row.importedAt, fileName: row.fileName, manifestJson: row.manifest, runIds: idListSchema.parse(row.runIds), experimentIds: idListSchema.parse(row.experimentIds) };
}

/** The events a branch sees: its parent's path up to `forkSeq`, then its own (DESIGN.md §1). */
function pathOf(run: BundleImportInput["runs"][number], branchId: string): RunEvent[] {
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
      const presentRuns = new Set(runIds.length ? (await tx.select({ id: schema.runs.id }).from(schema.runs).where(inArray(schema.runs.id, runIds))).map((row) => row.id) : []);
      const presentExperiments = new Set(
        experimentIds.length ? (await tx.select({ id: schema.experiments.id }).from(schema.experiments).where(inArray(schema.experiments.id, experimentIds))).map((row) => row.id) : [],
      );
      const alreadyHere = presentRuns.size === runIds.length && presentExperiments.size === experimentIds.length;
      for (const set of input.taskSets) await tx.insert(schema.taskSets).values(set).onConflictDoNothing();
      for (const run of input.runs) {
        const { record } = run;
        if (presentRuns.has(record.id)) continue;
        await tx.insert(schema.runs).values({ id: record.id, createdAt: record.createdAt, rootBranchId: record.rootBranchId, title: record.title, config: record.config });
        for (const branch of run.branches) await tx.insert(schema.branches).values(branch);
        for (let i = 0; i < run.events.length; i += 500) await tx.insert(schema.events).values(run.events.slice(i, i + 500).map(eventToRow));
        for (const branch of run.branches) {
          const summary = summarizeBranch(branch.id, pathOf(run, branch.id));
          await tx.insert(schema.branchSummaries).values({ branchId: branch.id, runId: record.id, status: summary.status, queuedAt: branch.createdAt, summary });
        }
      }
      for (const { record, cells } of input.experiments) {
        if (presentExperiments.has(record.id)) continue;
        const stored = record.provenance ? { ...record.definition, provenance: record.provenance } : record.definition;
        await tx.insert(schema.experiments).values({ id: record.id, createdAt: record.createdAt, name: record.definition.name, definition: stored, taskSetName: record.taskSetName });
        for (const [position, cell] of cells.entries()) await tx.insert(schema.experimentRuns).values({ experimentId: record.id, ...cell, position });
      }
      for (const entry of input.cache) await tx.insert(schema.responseCache).values({ requestHash: entry.key, response: entry.response, createdAt: importedAt }).onConflictDoNothing();
      const row = { contentHash: input.contentHash, importedAt, fileName: input.fileName, manifest: input.manifestJson, runIds, experimentIds };
      await tx.insert(schema.bundles).values(row);
      return { bundle: toRecord(row), created: !alreadyHere, alreadyHere, skippedRunIds: runIds.filter((id) => presentRuns.has(id)) };
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
