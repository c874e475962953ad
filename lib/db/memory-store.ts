import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/domain/errors";
import { draft, type EventDraft, type RunEvent } from "@/lib/domain/events";
import { applyToBranchSummary, summarizeBranch, type BranchSummaryState } from "@/lib/domain/branch-summary";
import { asBranchId, asRunId, type BranchId, type RunId } from "@/lib/domain/ids";
import type { CallActivity } from "@/lib/domain/status";
import type { CachedResponse } from "@/lib/engine/ports";
import { branchPath } from "./branch-path";
import type { ExperimentCellKey } from "./experiment-store";
import { MemoryExperimentStore } from "./memory-experiments";
import type { BranchRecord, ImportExperimentInput, LeaseRecord, RunRecord, RunnableBranch, RunStore, TaskSetListing, TaskSetRecord } from "./store";
import type { ExperimentRecord } from "@/lib/domain/experiment";
import { materializeEvent } from "./validate-event";
import { creatingOwnerUserId } from "./creating-owner";

/**
 * An in-memory {@link RunStore} for tests, the bench and throw-away CLI runs.
 * Same contract as the SQLite adapter (tests/db/store-contract.ts), nothing persisted.
 */
export class MemoryRunStore implements RunStore {
  private readonly runs = new Map<string, RunRecord>();
  private readonly branches = new Map<string, BranchRecord>();
  private readonly events = new Map<string, RunEvent[]>();
  private readonly leases = new Map<string, { owner: string; expiresAt: number; activity: CallActivity | null }>();
  /** Branch summary read model, created at a branch's first own event and updated on every append. */
  private readonly summaries = new Map<string, { runId: RunId; queuedAt: string; summary: BranchSummaryState }>();
  private readonly taskSets = new Map<string, TaskSetRecord>();
  private readonly cache = new Map<string, CachedResponse>();
  private readonly rejected = new Map<string, Set<string>>();

  readonly experiments = new MemoryExperimentStore(async (runId) => {
    const run = this.runs.get(runId);
    if (!run) return null;
    const summary = await this.getBranchSummary(run.rootBranchId);
    return summary ? { rootBranchId: run.rootBranchId, summary, lease: await this.getLease(run.rootBranchId) } : null;
  });

  async createRun(input: { config: RunRecord["config"]; title: string; cell?: ExperimentCellKey }): Promise<RunRecord> {
    if (input.cell) this.experiments.assertFree(input.cell);
    const id = asRunId(randomUUID());
    const rootBranchId = asBranchId(randomUUID());
    const createdAt = new Date().toISOString();
    const start = materializeEvent(draft("run-start", { config: input.config }), {
      id: randomUUID(),
      runId: id,
      branchId: rootBranchId,
      seq: 1,
      occurredAt: createdAt,
    });
    const record: RunRecord = { id, createdAt, rootBranchId, title: input.title, config: input.config, ownerUserId: creatingOwnerUserId() };
    this.runs.set(id, record);
    this.branches.set(rootBranchId, { id: rootBranchId, runId: id, parentBranchId: null, forkSeq: null, createdAt });
    this.events.set(rootBranchId, [start]);
    this.summaries.set(rootBranchId, { runId: id, queuedAt: createdAt, summary: summarizeBranch(rootBranchId, [start]) });
    if (input.cell) this.experiments.link(input.cell, id);
    return record;
  }

  async getRun(runId: RunId): Promise<RunRecord | null> {
    return this.runs.get(runId) ?? null;
  }

  async listRuns(limit: number): Promise<RunRecord[]> {
    return [...this.runs.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, limit);
  }

  async getBranch(branchId: BranchId): Promise<BranchRecord | null> {
    return this.branches.get(branchId) ?? null;
  }

  async createBranch(input: { runId: RunId; parentBranchId: BranchId; forkSeq: number }): Promise<BranchRecord> {
    const parent = this.branches.get(input.parentBranchId);
    if (!parent || parent.runId !== input.runId) throw new AppError("not-found", `Run ${input.runId} has no branch ${input.parentBranchId}`);
    const record: BranchRecord = { id: asBranchId(randomUUID()), ...input, createdAt: new Date().toISOString() };
    this.branches.set(record.id, record);
    return record;
  }

  async listBranches(runId: RunId): Promise<BranchRecord[]> {
    return [...this.branches.values()].filter((branch) => branch.runId === runId);
  }

  async getCachedResponse(requestHash: string): Promise<CachedResponse | null> {
    return this.cache.get(requestHash) ?? null;
  }

  async rejectedParameters(modelId: string): Promise<readonly string[]> {
    return [...(this.rejected.get(modelId) ?? [])];
  }

  async rememberRejectedParameter(modelId: string, parameter: string): Promise<void> {
    this.rejected.set(modelId, new Set([...(this.rejected.get(modelId) ?? []), parameter]));
  }

  async putCachedResponse(requestHash: string, response: CachedResponse): Promise<void> {
    if (!this.cache.has(requestHash)) this.cache.set(requestHash, response);
  }

  async list(runId: RunId, branchId: BranchId, after = 0, limit = Number.POSITIVE_INFINITY): Promise<RunEvent[]> {
    return this.listSync(runId, branchId, after, limit);
  }

  private listSync(runId: RunId, branchId: BranchId, after: number, limit = Number.POSITIVE_INFINITY): RunEvent[] {
    const segments = branchPath(branchId, (id) => this.branches.get(id) ?? null);
    const out: RunEvent[] = [];
    for (const segment of segments) {
      const own = this.events.get(segment.branchId) ?? [];
      // A branch's own seqs are contiguous, so the first one after `after` is found by offset (O(new events)).
      const first = own[0]?.seq ?? 1;
      for (let index = Math.max(0, after + 1 - first); index < own.length && out.length < limit; index += 1) {
        const event = own[index];
        if (!event || event.runId !== runId) continue;
        if (segment.maxSeq !== null && event.seq > segment.maxSeq) break;
        out.push(event);
      }
    }
    return out;
  }

  async append(runId: RunId, branchId: BranchId, drafts: readonly EventDraft[]): Promise<RunEvent[]> {
    const branch = this.branches.get(branchId);
    if (!branch || branch.runId !== runId) throw new AppError("not-found", `Run ${runId} has no branch ${branchId}`);
    const own = this.events.get(branchId) ?? [];
    let seq = own.at(-1)?.seq ?? branch.forkSeq ?? 0;
    const occurredAt = new Date().toISOString();
    // Materialize everything first: a bad draft stores nothing (atomic batch).
    const stored = drafts.map((d) => materializeEvent(d, { id: d.id ?? randomUUID(), runId, branchId, seq: ++seq, occurredAt }));
    let entry = this.summaries.get(branchId);
    if (!entry) {
      // A fork's first own events: its summary starts from the parent path it sees.
      entry = { runId, queuedAt: occurredAt, summary: summarizeBranch(branchId, this.listSync(runId, branchId, 0)) };
      this.summaries.set(branchId, entry);
    }
    for (const event of stored) {
      const wasRunning = entry.summary.status === "running";
      applyToBranchSummary(entry.summary, event);
      if (!wasRunning && entry.summary.status === "running") entry.queuedAt = occurredAt;
    }
    own.push(...stored);
    this.events.set(branchId, own);
    return stored;
  }

  async claimLease(branchId: BranchId, owner: string, ttlMs: number, now = Date.now()): Promise<boolean> {
    const lease = this.leases.get(branchId);
    if (lease && lease.owner !== owner && lease.expiresAt > now) return false;
    this.leases.set(branchId, { owner, expiresAt: now + ttlMs, activity: lease?.owner === owner ? lease.activity : null });
    return true;
  }

  async getLease(branchId: BranchId): Promise<LeaseRecord | null> {
    const lease = this.leases.get(branchId);
    return lease ? { branchId, ...lease } : null;
  }

  async setLeaseActivity(branchId: BranchId, owner: string, activity: CallActivity | null): Promise<void> {
    const lease = this.leases.get(branchId);
    if (lease?.owner === owner) lease.activity = activity;
  }

  async getBranchSummary(branchId: BranchId): Promise<BranchSummaryState | null> {
    const entry = this.summaries.get(branchId);
    if (entry) return structuredClone(entry.summary);
    const branch = this.branches.get(branchId);
    return branch ? summarizeBranch(branchId, this.listSync(branch.runId, branchId, 0)) : null;
  }

  async listBranchSeqs(): Promise<Array<{ runId: RunId; branchId: BranchId; lastSeq: number }>> {
    return [...this.summaries.entries()].map(([branchId, entry]) => ({ runId: entry.runId, branchId: asBranchId(branchId), lastSeq: entry.summary.lastSeq }));
  }

  async listRunnableBranches(limit: number): Promise<RunnableBranch[]> {
    return [...this.summaries.entries()]
      .filter(([, entry]) => entry.summary.status === "running")
      .sort(([, a], [, b]) => a.queuedAt.localeCompare(b.queuedAt))
      .slice(0, limit)
      .map(([branchId, entry]) => {
        const lease = this.leases.get(branchId);
        return {
          runId: entry.runId,
          branchId: asBranchId(branchId),
          queuedAt: entry.queuedAt,
          summary: structuredClone(entry.summary),
          lease: lease ? { branchId: asBranchId(branchId), ...lease } : null,
        };
      });
  }

  async releaseLease(branchId: BranchId, owner: string): Promise<void> {
    if (this.leases.get(branchId)?.owner === owner) this.leases.delete(branchId);
  }

  async leaseHolder(branchId: BranchId, now = Date.now()): Promise<string | null> {
    const lease = this.leases.get(branchId);
    return lease && lease.expiresAt > now ? lease.owner : null;
  }

  async importExperiment(input: ImportExperimentInput): Promise<{ experiment: ExperimentRecord; runs: RunRecord[] }> {
    const createdAt = new Date().toISOString();
    // Validate every event before storing anything.
    const prepared = input.runs.map((run) => {
      const id = asRunId(randomUUID());
      const rootBranchId = asBranchId(randomUUID());
      let seq = 0;
      // An imported trace keeps the times it recorded (`occurredAt` on its drafts); other imports are stamped now.
      const envelope = (at?: string) => ({ runId: id, branchId: rootBranchId, seq: ++seq, occurredAt: at ?? createdAt });
      const start = materializeEvent(draft("run-start", { config: run.config }), { id: randomUUID(), ...envelope(run.startedAt) });
      const events = [start, ...run.drafts.map((d) => materializeEvent(d, { id: d.id ?? randomUUID(), ...envelope(d.occurredAt) }))];
      const record: RunRecord = { id, createdAt, rootBranchId, title: run.title, config: run.config, ownerUserId: null };
      return { record, events, cell: run.cell };
    });
    const experiment = await this.experiments.createExperiment(input);
    for (const { record, events, cell } of prepared) {
      this.runs.set(record.id, record);
      this.branches.set(record.rootBranchId, { id: record.rootBranchId, runId: record.id, parentBranchId: null, forkSeq: null, createdAt });
      this.events.set(record.rootBranchId, events);
      this.summaries.set(record.rootBranchId, { runId: record.id, queuedAt: createdAt, summary: summarizeBranch(record.rootBranchId, events) });
      this.experiments.link({ experimentId: experiment.id, ...cell }, record.id);
    }
    return { experiment, runs: prepared.map((run) => run.record) };
  }

  async saveTaskSet(input: Omit<TaskSetRecord, "id" | "createdAt">): Promise<TaskSetRecord> {
    const existing = [...this.taskSets.values()].find(
      (set) => input.contentHash !== null && set.environment === input.environment && set.contentHash === input.contentHash,
    );
    if (existing) return existing;
    const record: TaskSetRecord = { ...input, id: randomUUID(), createdAt: new Date().toISOString() };
    this.taskSets.set(record.id, record);
    return record;
  }

  async getTaskSet(id: string): Promise<TaskSetRecord | null> {
    return this.taskSets.get(id) ?? null;
  }

  async deleteTaskSet(id: string): Promise<boolean> {
    return this.taskSets.delete(id);
  }

  async listTaskSets(): Promise<TaskSetListing[]> {
    return [...this.taskSets.values()]
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      .map(({ tasks, problems: _problems, contentHash: _hash, ...rest }) => ({ ...rest, taskCount: tasks.length }));
  }

  async close(): Promise<void> {}
}
