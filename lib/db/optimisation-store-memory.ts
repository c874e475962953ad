import { AppError } from "@/lib/domain/errors";
import { optimisationRecordSchema, type OptimisationRecord } from "@/lib/domain/optimiser/types";
import { compareOptimisations, type OptimisationStore } from "./optimisation-store";

/** The in-memory {@link OptimisationStore} (tests, and contexts built on a `MemoryRunStore`). Keeps and returns copies. */
export class MemoryOptimisationStore implements OptimisationStore {
  private readonly records = new Map<string, OptimisationRecord>();

  async createOptimisation(record: OptimisationRecord): Promise<void> {
    if (this.records.has(record.id)) throw new AppError("conflict", `An optimisation with id ${record.id} exists already.`);
    this.records.set(record.id, optimisationRecordSchema.parse(structuredClone(record)));
  }

  async saveOptimisation(record: OptimisationRecord): Promise<void> {
    if (!this.records.has(record.id)) throw new AppError("not-found", `No optimisation ${record.id}.`);
    this.records.set(record.id, optimisationRecordSchema.parse(structuredClone(record)));
  }

  async getOptimisation(id: string): Promise<OptimisationRecord | null> {
    const record = this.records.get(id);
    return record ? structuredClone(record) : null;
  }

  async listOptimisations(filter: { targetTemplateId?: string } = {}): Promise<OptimisationRecord[]> {
    return [...this.records.values()]
      .filter((record) => filter.targetTemplateId === undefined || record.request.targetTemplateId === filter.targetTemplateId)
      .sort(compareOptimisations)
      .map((record) => structuredClone(record));
  }
}
