import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/domain/errors";
import type { ExperimentDefinition, ExperimentRecord } from "@/lib/domain/experiment";
import type { Provenance } from "@/lib/domain/provenance";
import type { ExperimentCellKey, ExperimentCellRow, ExperimentCellsFingerprint, ExperimentRunLink, ExperimentStore, MaintainedSummaryRow, RunTrialStatsRow, StoredTrialStats } from "./experiment-store";
import type { StoredExperimentRecord } from "./stored-experiment";
import { creatingOwnerUserId } from "./creating-owner";

/** The in-memory {@link ExperimentStore} of a `MemoryRunStore`; `lookup` reads a run's root branch summary and lease from it. */
export class MemoryExperimentStore implements ExperimentStore {
  private readonly experiments = new Map<string, StoredExperimentRecord>();
  private readonly links: ExperimentRunLink[] = [];
  private readonly maintained = new Map<string, MaintainedSummaryRow>();
  private readonly trialStats = new Map<string, StoredTrialStats>();

  constructor(private readonly lookup: (runId: string) => Promise<Omit<ExperimentCellRow, keyof ExperimentRunLink> | null>) {}

  async listExperimentCells(experimentId: string): Promise<ExperimentCellRow[]> {
    const rows: ExperimentCellRow[] = [];
    for (const link of await this.listExperimentRuns(experimentId)) {
      const found = await this.lookup(link.runId);
      if (found) rows.push({ ...link, ...found });
    }
    return rows;
  }

  async cellsFingerprint(experimentId: string): Promise<ExperimentCellsFingerprint> {
    const cells = await this.listExperimentCells(experimentId);
    return { cells: cells.length, ended: cells.filter((cell) => cell.summary.status === "ended").length, lastSeqSum: cells.reduce((n, cell) => n + cell.summary.lastSeq, 0) };
  }

  async getMaintainedSummary(experimentId: string): Promise<MaintainedSummaryRow | null> {
    const row = this.maintained.get(experimentId);
    // A copy, as a database would hand back.
    return row ? { fingerprint: row.fingerprint, summary: structuredClone(row.summary) } : null;
  }

  async saveMaintainedSummary(experimentId: string, fingerprint: string, summary: unknown): Promise<void> {
    this.maintained.set(experimentId, { fingerprint, summary: structuredClone(summary) });
  }

  async trialStatsOfRuns(runIds: readonly string[]): Promise<RunTrialStatsRow[]> {
    const rows: RunTrialStatsRow[] = [];
    for (const runId of runIds) {
      const found = await this.lookup(runId);
      if (!found) continue;
      const stored = this.trialStats.get(runId);
      rows.push({ runId, rootBranchId: found.rootBranchId, status: found.summary.status, lastSeq: found.summary.lastSeq, stored: stored ? structuredClone(stored) : null });
    }
    return rows;
  }

  async saveTrialStats(entries: readonly StoredTrialStats[]): Promise<void> {
    for (const entry of entries) this.trialStats.set(entry.runId, structuredClone(entry));
  }

  async createExperiment(input: { definition: ExperimentDefinition; taskSetName: string; provenance?: Provenance | null }): Promise<ExperimentRecord> {
    const provenance = input.provenance ?? null;
    const record: StoredExperimentRecord = { id: randomUUID(), createdAt: new Date().toISOString(), definition: input.definition, taskSetName: input.taskSetName, provenance, ownerUserId: creatingOwnerUserId() };
    this.experiments.set(record.id, record);
    return record;
  }

  async getExperiment(id: string): Promise<StoredExperimentRecord | null> {
    return this.experiments.get(id) ?? null;
  }

  async listExperiments(limit: number, options: { withDerived?: boolean } = {}): Promise<StoredExperimentRecord[]> {
    const listed = [...this.experiments.values()].filter((record) => options.withDerived !== false || record.definition.origin === undefined);
    return listed.reverse().sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, limit);
  }

  async listExperimentRuns(experimentId: string): Promise<ExperimentRunLink[]> {
    return this.links.filter((link) => link.experimentId === experimentId).map((link) => ({ ...link }));
  }

  async experimentOfRun(runId: string): Promise<ExperimentRunLink | null> {
    const link = this.links.find((candidate) => candidate.runId === runId);
    return link ? { ...link } : null;
  }

  /** Checks that the cell can take a run (call before creating it). @throws AppError like the SQLite adapter. */
  assertFree(cell: ExperimentCellKey): void {
    if (!this.experiments.has(cell.experimentId)) throw new AppError("not-found", `No experiment ${cell.experimentId}.`);
    const taken = this.links.find((link) => link.experimentId === cell.experimentId && link.taskId === cell.taskId && link.arm === cell.arm);
    if (taken) throw new AppError("conflict", `Experiment ${cell.experimentId} already has run ${taken.runId} for task ${cell.taskId}, arm ${cell.arm}.`);
  }

  link(cell: ExperimentCellKey, runId: string): void {
    this.links.push({ ...cell, runId });
  }
}
