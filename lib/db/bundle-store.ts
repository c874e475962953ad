import type { ExperimentRecord } from "@/lib/domain/experiment";
import type { RunEvent } from "@/lib/domain/events";
import type { CachedResponse } from "@/lib/engine/ports";
import type { BranchRecord, RunRecord, TaskSetRecord } from "./records";

/** A bundle imported into this database: keyed by the manifest's content hash. */
export interface BundleRecord {
  /** SHA-256 hex of the bundle's canonical content (its manifest's `contentSha256`). */
  contentHash: string;
  /** ISO-8601. */
  importedAt: string;
  fileName: string;
  /** The manifest as imported (JSON text; lib/bundles/format.ts `bundleManifestSchema`). */
  manifestJson: string;
  runIds: string[];
  experimentIds: string[];
}

/** Everything one bundle writes, already validated and with its provenance set (lib/server/bundle-service.ts). */
export interface BundleImportInput {
  contentHash: string;
  fileName: string;
  manifestJson: string;
  runs: Array<{ record: RunRecord; branches: BranchRecord[]; events: RunEvent[] }>;
  experiments: Array<{ record: ExperimentRecord; cells: Array<{ taskId: string; arm: string; runId: string }> }>;
  taskSets: TaskSetRecord[];
  cache: Array<{ key: string; response: CachedResponse }>;
}

/** What an import did. `created: false`: the bundle (same hash) was here already, or all its runs and experiments were (the machine it was exported from). */
export interface BundleImportResult {
  bundle: BundleRecord;
  created: boolean;
  /** True when every run and experiment existed before (same ids): e.g. this database is where they were recorded; only the bundle row was added. */
  alreadyHere: boolean;
  /** Runs of the bundle that were in this database before (same id), so they were not written again; the rest were imported. */
  skippedRunIds: string[];
}

/** One batch of a streamed import (lib/server/bundle-import.ts): rows to add, validated and with their provenance; no bundle row. */
export type BundleImportPart = Pick<BundleImportInput, "runs" | "experiments" | "taskSets" | "cache">;

/** What import parts wrote — exactly those rows, so a failed import removes them and nothing else — and what they found here already. */
export interface BundlePartWritten {
  runIds: string[];
  experimentIds: string[];
  taskSetIds: string[];
  /** Response-cache keys added (a key that was here already is not listed: it is not removed). */
  cacheKeys: string[];
  /** Runs of the part that were here before (same id), left as they are. */
  presentRunIds: string[];
  /** Experiments of the part that were here before, left as they are. */
  presentExperimentIds: string[];
}

/** The bundle row that ends a streamed import. */
export type BundleRowInput = Pick<BundleRecord, "contentHash" | "fileName" | "manifestJson" | "runIds" | "experimentIds">;

/** Storage of imported bundles (SQLite: lib/db/sqlite-bundles.ts; PostgreSQL: lib/db/pg/pg-bundles.ts). */
export interface BundleStore {
  /**
   * Stores a bundle in one transaction: runs, branches, events, branch summaries, experiments and
   * their cell links, task sets and response-cache entries (`ON CONFLICT DO NOTHING`), and the
   * bundle row. Importing the same hash again returns the stored row (`created: false`). A run or
   * experiment whose id exists already is left as it is here and not written again (listed in
   * `skippedRunIds`; e.g. a run imported before from its own bundle), the others are imported; when
   * every one exists, only the bundle row is added (`alreadyHere`).
   */
  importBundle(input: BundleImportInput): Promise<BundleImportResult>;
  /**
   * A streamed import's batch, in one transaction: the same rows as {@link importBundle} writes
   * (runs with branches, events and branch summaries; experiments and their cells; task sets and
   * cache entries `ON CONFLICT DO NOTHING`) but no bundle row. A run or experiment whose id exists
   * is left as it is. @returns what it wrote, for {@link removeBundleParts}.
   */
  importBundlePart(part: BundleImportPart): Promise<BundlePartWritten>;
  /**
   * Ends a streamed import with its bundle row; when a bundle with this hash exists already (a
   * concurrent import of the same file), returns that one with `created: false`.
   */
  recordBundle(row: BundleRowInput): Promise<{ bundle: BundleRecord; created: boolean }>;
  /** Undoes parts of an import that failed: deletes exactly the rows they wrote (runs with their branches, events and summaries; experiments with their cells; task sets; cache entries), in one transaction. */
  removeBundleParts(written: BundlePartWritten): Promise<void>;
  getBundle(contentHash: string): Promise<BundleRecord | null>;
  /** Newest first. */
  listBundles(limit: number): Promise<BundleRecord[]>;
}
