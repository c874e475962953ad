import { AppError } from "@/lib/domain/errors";
import { optimisationRecordSchema, type OptimisationLease, type OptimisationRecord } from "@/lib/domain/optimiser/types";
import { compareOptimisations, type OptimisationLeaseClaim, type OptimisationStore } from "./optimisation-store";

/** The in-memory {@link OptimisationStore} (tests, and contexts built on a `MemoryRunStore`). Keeps and returns copies. */
export class MemoryOptimisationStore implements OptimisationStore {
  private readonly records = new Map<string, OptimisationRecord>();
  private readonly leases = new Map<string, OptimisationLease>();

  async createOptimisation(record: OptimisationRecord): Promise<void> {
    if (this.records.has(record.id)) throw new AppError("conflict", `An optimisation with id ${record.id} exists already.`);
    this.records.set(record.id, withoutLease(record));
  }

  async claimOptimisationLease(id: string, owner: string, ttlMs: number, now = Date.now()): Promise<OptimisationLeaseClaim> {
    if (!this.records.has(id)) throw new AppError("not-found", `No optimisation ${id}.`);
    const held = this.leases.get(id);
    if (held && held.owner !== owner && held.expiresAt > now) return { claimed: false, holder: { ...held } };
    const lease = { owner, expiresAt: now + ttlMs };
    this.leases.set(id, lease);
    return { claimed: true, lease: { ...lease } };
  }

  async releaseOptimisationLease(id: string, owner: string): Promise<void> {
    if (this.leases.get(id)?.owner === owner) this.leases.delete(id);
  }

  async saveOptimisation(record: OptimisationRecord): Promise<void> {
    if (!this.records.has(record.id)) throw new AppError("not-found", `No optimisation ${record.id}.`);
    this.records.set(record.id, withoutLease(record));
  }

  async getOptimisation(id: string): Promise<OptimisationRecord | null> {
    const record = this.records.get(id);
    return record ? this.withLease(record) : null;
  }

  async listOptimisations(filter: { targetTemplateId?: string } = {}): Promise<OptimisationRecord[]> {
    return [...this.records.values()]
      .filter((record) => filter.targetTemplateId === undefined || record.request.targetTemplateId === filter.targetTemplateId)
      .sort(compareOptimisations)
      .map((record) => this.withLease(record));
  }

  private withLease(record: OptimisationRecord): OptimisationRecord {
    const lease = this.leases.get(record.id);
    return { ...structuredClone(record), ...(lease ? { lease: { ...lease } } : {}) };
  }
}

/** A validated copy without the lease (the lease lives apart, so a save never moves it). */
function withoutLease(record: OptimisationRecord): OptimisationRecord {
  const { lease: _lease, ...rest } = optimisationRecordSchema.parse(structuredClone(record));
  return rest;
}
