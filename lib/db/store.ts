import type { RunConfig } from "@/lib/domain/config";
import type { BranchSummaryState } from "@/lib/domain/branch-summary";
import type { BranchId, RunId } from "@/lib/domain/ids";
import type { CallActivity } from "@/lib/domain/status";
import type { EventDraft, RunEvent } from "@/lib/domain/events";
import type { ExperimentRecord } from "@/lib/domain/experiment";
import type { CachedResponse, EventLog, ResponseCache } from "@/lib/engine/ports";
import type { BranchRecord, ImportExperimentInput, LeaseRecord, RunnableBranch, RunRecord, TaskSetListing, TaskSetRecord } from "./records";
import type { BundleStore } from "./bundle-store";
import type { ExperimentCellKey, ExperimentStore } from "./experiment-store";

export type { BranchRecord, ImportedRunInput, ImportExperimentInput, LeaseRecord, RunnableBranch, RunRecord, TaskSetListing, TaskSetRecord } from "./records";

/**
 * Storage of runs and their events. Every adapter passes the contract suite in
 * tests/db/store-contract.ts. Methods are async so an async database fits too.
 */
export interface RunStore extends EventLog, ResponseCache {
  /**
   * Creates the run, its root branch and its `run-start` event, atomically —
   * with `cell`, also its link to an experiment's (task, arm) cell.
   * @throws AppError("conflict") when that cell has a run already.
   */
  createRun(input: { config: RunConfig; title: string; cell?: ExperimentCellKey }): Promise<RunRecord>;
  /** Experiments, on the same database. */
  readonly experiments: ExperimentStore;
  getRun(runId: RunId): Promise<RunRecord | null>;
  /** Newest first. */
  listRuns(limit: number): Promise<RunRecord[]>;
  getBranch(branchId: BranchId): Promise<BranchRecord | null>;
  /**
   * Creates a branch of `runId` that sees `parentBranchId`'s events up to
   * `forkSeq` (DESIGN.md §1). Nothing is copied.
   * @throws AppError("not-found") when the parent is not a branch of the run.
   */
  createBranch(input: { runId: RunId; parentBranchId: BranchId; forkSeq: number }): Promise<BranchRecord>;
  /** A run's branches, oldest first (the root first). */
  listBranches(runId: RunId): Promise<BranchRecord[]>;
  /**
   * Takes or renews the execution lease of a branch for `owner` until `now + ttlMs`
   * (ms). Returns false when another owner holds an unexpired lease.
   */
  claimLease(branchId: BranchId, owner: string, ttlMs: number, now?: number): Promise<boolean>;
  releaseLease(branchId: BranchId, owner: string): Promise<void>;
  /** The owner of an unexpired lease on a branch, or null. */
  leaseHolder(branchId: BranchId, now?: number): Promise<string | null>;
  /** The branch's lease row, expired or not; null when none is left. */
  getLease(branchId: BranchId): Promise<LeaseRecord | null>;
  /** Records the model call `owner` waits on for the branch (null: none); ignored when `owner` does not hold the lease. */
  setLeaseActivity(branchId: BranchId, owner: string, activity: CallActivity | null): Promise<void>;
  /**
   * The branch's summary read model, kept up to date by every append in the
   * same transaction (lib/domain/branch-summary.ts); null for an unknown branch.
   */
  getBranchSummary(branchId: BranchId): Promise<BranchSummaryState | null>;
  /**
   * Branches whose log says running, oldest `queuedAt` first, with their lease
   * rows (a worker pool filters out the ones a live worker holds).
   */
  listRunnableBranches(limit: number): Promise<RunnableBranch[]>;
  /**
   * Every branch with events of its own (a branch summary row), with its run and the newest seq on
   * its path (the summary's `lastSeq`), any order, in one read: the search index compares it with
   * the seq it indexed to re-read only the logs that grew (lib/server/search-service.ts). Optional:
   * without it the service walks listRuns → listBranches → getBranchSummary.
   */
  listBranchSeqs?(): Promise<Array<{ runId: RunId; branchId: BranchId; lastSeq: number }>>;
  /**
   * Stores an imported task set. When a set of the same family with the same
   * `contentHash` exists, returns that one instead (importing a file twice does
   * not pile up copies).
   */
  saveTaskSet(input: Omit<TaskSetRecord, "id" | "createdAt">): Promise<TaskSetRecord>;
  /**
   * Stores an imported log (docs/decisions/0015): the experiment, each
   * run with its root branch, its `run-start` and all its events, the run
   * summaries and the cell links, in one transaction. Every event is validated
   * first: on any error nothing is stored.
   */
  importExperiment(input: ImportExperimentInput): Promise<{ experiment: ExperimentRecord; runs: RunRecord[] }>;
  getTaskSet(id: string): Promise<TaskSetRecord | null>;
  /**
   * Deletes an uploaded task set (its tasks and problems). Runs keep the task they copied into their
   * config, so nothing recorded is lost; experiments on the set can no longer be resumed from it.
   * @returns false when there was no such set.
   */
  deleteTaskSet(id: string): Promise<boolean>;
  /**
   * Imported run bundles (lib/db/bundle-store.ts). Only the SQLite adapter has them
   * (bundles move runs between databases on disk); absent on the in-memory store.
   */
  readonly bundles?: BundleStore;
  /** Response-cache entries whose key holds one of these request hashes (any scope, occurrence or attempt: `cacheKeyOf`). */
  listCacheEntries?(requestHashes: string[]): Promise<Array<{ key: string; response: CachedResponse }>>;
  /**
   * The fenced append (PostgreSQL adapter): stores `drafts` only when the branch's last
   * seq is `afterSeq` — what the writer last saw — else throws AppError("conflict"). Two writers
   * continuing from the same seq: exactly one wins (the unique `(branch_id, seq)` key), so a zombie
   * attempt that lost its lease cannot append after the new holder.
   */
  appendAfter?(runId: RunId, branchId: BranchId, afterSeq: number, drafts: readonly EventDraft[]): Promise<RunEvent[]>;
  /** Every task set, newest first, with its stored task count: never reads the tasks themselves. */
  listTaskSets(): Promise<TaskSetListing[]>;
  /** Parameters `modelId`'s provider rejected (the `rejected_parameters` table; lib/llm/rejected-parameters.ts), any order. */
  rejectedParameters?(modelId: string): Promise<readonly string[]>;
  /** Remembers a rejected parameter of `modelId` (idempotent): every process's model port leaves it out from then on. */
  rememberRejectedParameter?(modelId: string, parameter: string): Promise<void>;
  close(): Promise<void>;
}
