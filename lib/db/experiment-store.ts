import type { BranchSummaryState } from "@/lib/domain/branch-summary";
import type { ExperimentDefinition, ExperimentRecord } from "@/lib/domain/experiment";
import type { BranchId } from "@/lib/domain/ids";
import type { Provenance } from "@/lib/domain/provenance";
import type { LeaseRecord } from "./records";
import type { StoredExperimentRecord } from "./stored-experiment";

/** The (experiment, task, arm) a run belongs to; unique: each cell has exactly one run. */
export interface ExperimentCellKey {
  experimentId: string;
  taskId: string;
  arm: string;
}

/** A cell and its run. */
export interface ExperimentRunLink extends ExperimentCellKey {
  runId: string;
}

/** A cell with what its status and results need: its run's root branch summary and lease (one query for all cells). */
export interface ExperimentCellRow extends ExperimentRunLink {
  rootBranchId: BranchId;
  summary: BranchSummaryState;
  lease: LeaseRecord | null;
}

/**
 * What one aggregate query says about an experiment's cells, enough to tell whether a maintained
 * summary is still the summary of these cells: how many cells have a run, how many of those runs'
 * root branches have ended (the log's status), and the sum of their newest seqs (grows with any append).
 */
export interface ExperimentCellsFingerprint {
  cells: number;
  ended: number;
  lastSeqSum: number;
}

/** A maintained summary as stored: the fingerprint it was computed under and the summary's JSON value (parse it). */
export interface MaintainedSummaryRow {
  fingerprint: string;
  summary: unknown;
}

/** A run's stored trial statistics (lib/domain/run-trial-stats.ts) with the key it was computed under; `stats` is JSON (parse it). */
export interface StoredTrialStats {
  runId: string;
  /** The root branch whose log the stats came from. */
  branchId: string;
  /** That branch's newest seq when they were computed. */
  lastSeq: number;
  /** `RUN_TRIAL_STATS_VERSION` when they were computed. */
  version: number;
  stats: unknown;
}

/** A run as the CSV export reads it: its root branch now (log status, newest seq) and its stored trial stats, if any. */
export interface RunTrialStatsRow {
  runId: string;
  rootBranchId: BranchId;
  /** The root branch's log status (`running`, `paused`, `ended`, `error`). */
  status: string;
  lastSeq: number;
  stored: StoredTrialStats | null;
}

/**
 * Storage of experiments (lib/domain/experiment.ts). A cell's run is created
 * together with its link, in one transaction (`RunStore.createRun` with
 * `cell`), so an experiment that is killed and resumed never makes a second run
 * for a (task, arm) pair. Adapters: SQLite and in-memory; contract in
 * tests/db/store-contract.ts.
 */
export interface ExperimentStore {
  /**
   * Stores a new experiment; its definition must already list its task ids.
   * `provenance`: set for experiments imported from the authors' logs; default null.
   */
  createExperiment(input: { definition: ExperimentDefinition; taskSetName: string; provenance?: Provenance | null }): Promise<ExperimentRecord>;
  /** A row that cannot be read whole comes back with `damaged` set (lib/db/stored-experiment.ts), never as an error. */
  getExperiment(id: string): Promise<StoredExperimentRecord | null>;
  /**
   * Newest first; a damaged row is listed with `damaged` set and does not hide the others.
   * `withDerived: false` leaves out experiments whose definition has an `origin` (made by an
   * optimisation or a template check); default true (every experiment).
   */
  listExperiments(limit: number, options?: { withDerived?: boolean }): Promise<StoredExperimentRecord[]>;
  /** The runs of an experiment's cells so far, in creation order. */
  listExperimentRuns(experimentId: string): Promise<ExperimentRunLink[]>;
  /** Every cell with its run's root-branch summary and lease, in creation order: what the results view polls. */
  listExperimentCells(experimentId: string): Promise<ExperimentCellRow[]>;
  /** One aggregate query over the experiment's cells (no summary is parsed); zeros for an experiment with no runs. */
  cellsFingerprint(experimentId: string): Promise<ExperimentCellsFingerprint>;
  /** The maintained summary saved for the experiment (lib/server/experiment-service.ts), or null. */
  getMaintainedSummary(experimentId: string): Promise<MaintainedSummaryRow | null>;
  /** Saves (or replaces) the experiment's maintained summary. `summary` must be JSON-serialisable. */
  saveMaintainedSummary(experimentId: string, fingerprint: string, summary: unknown): Promise<void>;
  /**
   * The runs' root branches and stored trial stats, in one query (runs without a root branch summary
   * are left out; a stored entry whose JSON does not parse comes back as null). Order is not guaranteed.
   */
  trialStatsOfRuns(runIds: readonly string[]): Promise<RunTrialStatsRow[]>;
  /** Saves (or replaces) runs' trial stats, in one transaction. `stats` must be JSON-serialisable. */
  saveTrialStats(entries: readonly StoredTrialStats[]): Promise<void>;
  /** The cell a run belongs to, if any. */
  experimentOfRun(runId: string): Promise<ExperimentRunLink | null>;
}
