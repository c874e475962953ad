import type { EnvironmentId, RunConfig } from "@/lib/domain/config";
import type { BranchSummaryState } from "@/lib/domain/branch-summary";
import type { BranchId, RunId } from "@/lib/domain/ids";
import type { CallActivity } from "@/lib/domain/status";
import type { EventDraft } from "@/lib/domain/events";
import type { ExperimentDefinition } from "@/lib/domain/experiment";
import type { Provenance } from "@/lib/domain/provenance";

// The records a store reads and writes, apart from the store interfaces, so the
// sub-stores (bundles, experiments) can name them without importing the store.

/** A run's identity and metadata; its history is in its events. */
export interface RunRecord {
  id: RunId;
  /** ISO-8601. */
  createdAt: string;
  rootBranchId: BranchId;
  title: string;
  config: RunConfig;
  /**
   * The account that created the run (the creating actor's `userId`, decision 0041); null for runs made
   * before sign-in existed, by `local` in embedded mode, or by an import. Only its owner or an admin may change it.
   */
  ownerUserId?: string | null;
}

/** A branch: sees its parent's events with `seq ≤ forkSeq`, then its own (DESIGN.md §1). */
export interface BranchRecord {
  id: BranchId;
  runId: RunId;
  parentBranchId: BranchId | null;
  forkSeq: number | null;
  /** ISO-8601. */
  createdAt: string;
}

/** A branch's execution lease: who drives it, until when (epoch ms), and the model call it waits on. */
export interface LeaseRecord {
  branchId: BranchId;
  owner: string;
  /** Epoch ms after which the lease is void. */
  expiresAt: number;
  activity: CallActivity | null;
}

/** A branch a worker may take: its log says running (queued, or interrupted when its lease holder died). */
export interface RunnableBranch {
  runId: RunId;
  branchId: BranchId;
  /** ISO-8601 time it became runnable (created, resumed or forked). */
  queuedAt: string;
  summary: BranchSummaryState;
  /** The lease row, if one is left (an unexpired one may belong to a live worker: check liveness). */
  lease: LeaseRecord | null;
}

/**
 * One run of an imported log: its config, title, cell and every event
 * after `run-start`, in order (the log of a run that has ended).
 */
export interface ImportedRunInput {
  config: RunConfig;
  title: string;
  /** The (task, arm) cell of the experiment it belongs to. */
  cell: { taskId: string; arm: string };
  /** Each draft's `occurredAt`, when set, is kept (an imported trace's recorded times); otherwise the import's time. */
  drafts: EventDraft[];
  /** The `run-start` event's time (ISO-8601) when the source records it; absent: the import's time. */
  startedAt?: string;
}

/** A whole imported log: one experiment and its runs, stored together. */
export interface ImportExperimentInput {
  definition: ExperimentDefinition;
  taskSetName: string;
  /** Where the log came from; null for logs written here (e.g. a seeded benchmark experiment). */
  provenance: Provenance | null;
  runs: ImportedRunInput[];
}

/** A task set as listed: its metadata and task count, without its tasks. */
export type TaskSetListing = Omit<TaskSetRecord, "tasks" | "problems" | "contentHash"> & { taskCount: number };

/** A stored, imported task set (e.g. an uploaded HotpotQA file). */
export interface TaskSetRecord {
  id: string;
  name: string;
  environment: EnvironmentId;
  createdAt: string;
  tasks: Array<Record<string, unknown>>;
  problems: string[];
  /** SHA-256 of the imported content; null for sets saved without one. */
  contentHash: string | null;
}
