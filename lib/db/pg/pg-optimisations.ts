import { eq } from "drizzle-orm";
import { AppError } from "@/lib/domain/errors";
import { optimisationRecordSchema, type OptimisationRecord } from "@/lib/domain/optimiser/types";
import { compareOptimisations, type OptimisationStore } from "../optimisation-store";
import type { PgDb } from "./database";
import * as schema from "./schema";

/** The PostgreSQL {@link OptimisationStore}: the SQLite adapter's rules on the `optimisations` table (`record` as jsonb). */
export class PgOptimisationStore implements OptimisationStore {
  constructor(
    private readonly db: PgDb,
    private readonly ready: () => Promise<void> = async () => undefined,
  ) {}

  async createOptimisation(record: OptimisationRecord): Promise<void> {
    await this.ready();
    const valid = optimisationRecordSchema.parse(record);
    const inserted = await this.db.insert(schema.optimisations).values(toRow(valid)).onConflictDoNothing().returning({ id: schema.optimisations.id });
    if (inserted.length === 0) throw new AppError("conflict", `An optimisation with id ${record.id} exists already.`);
  }

  async saveOptimisation(record: OptimisationRecord): Promise<void> {
    await this.ready();
    const valid = optimisationRecordSchema.parse(record);
    const { id, ...rest } = toRow(valid);
    const updated = await this.db.update(schema.optimisations).set(rest).where(eq(schema.optimisations.id, id)).returning({ id: schema.optimisations.id });
    if (updated.length === 0) throw new AppError("not-found", `No optimisation ${record.id}.`);
  }

  async getOptimisation(id: string): Promise<OptimisationRecord | null> {
    await this.ready();
    const [row] = await this.db.select().from(schema.optimisations).where(eq(schema.optimisations.id, id));
    return row ? optimisationRecordSchema.parse(row.record) : null;
  }

  async listOptimisations(filter: { targetTemplateId?: string } = {}): Promise<OptimisationRecord[]> {
    await this.ready();
    const table = schema.optimisations;
    const rows = await this.db.select().from(table).where(filter.targetTemplateId === undefined ? undefined : eq(table.targetTemplateId, filter.targetTemplateId));
    return rows.map((row) => optimisationRecordSchema.parse(row.record)).sort(compareOptimisations);
  }
}

function toRow(record: OptimisationRecord): typeof schema.optimisations.$inferInsert {
  return { id: record.id, createdAt: record.createdAt, updatedAt: record.updatedAt, status: record.status, targetTemplateId: record.request.targetTemplateId, record };
}
