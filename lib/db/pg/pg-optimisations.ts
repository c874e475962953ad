import { and, eq, isNull, lte, or } from "drizzle-orm";
import { AppError } from "@/lib/domain/errors";
import { optimisationRecordSchema, type OptimisationRecord } from "@/lib/domain/optimiser/types";
import { compareOptimisations, type OptimisationLeaseClaim, type OptimisationStore } from "../optimisation-store";
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

  async claimOptimisationLease(id: string, owner: string, ttlMs: number, now = Date.now()): Promise<OptimisationLeaseClaim> {
    await this.ready();
    const table = schema.optimisations;
    const expiresAt = now + ttlMs;
    // One conditional UPDATE: two processes claiming at once cannot both succeed.
    const updated = await this.db
      .update(table)
      .set({ leaseOwner: owner, leaseExpiresAt: expiresAt })
      .where(and(eq(table.id, id), or(isNull(table.leaseOwner), eq(table.leaseOwner, owner), lte(table.leaseExpiresAt, now))))
      .returning({ id: table.id });
    if (updated.length > 0) return { claimed: true, lease: { owner, expiresAt } };
    const [row] = await this.db.select({ owner: table.leaseOwner, expiresAt: table.leaseExpiresAt }).from(table).where(eq(table.id, id));
    if (!row) throw new AppError("not-found", `No optimisation ${id}.`);
    return { claimed: false, holder: { owner: row.owner ?? "", expiresAt: row.expiresAt ?? 0 } };
  }

  async releaseOptimisationLease(id: string, owner: string): Promise<void> {
    await this.ready();
    const table = schema.optimisations;
    await this.db.update(table).set({ leaseOwner: null, leaseExpiresAt: null }).where(and(eq(table.id, id), eq(table.leaseOwner, owner)));
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
    return row ? fromRow(row) : null;
  }

  async listOptimisations(filter: { targetTemplateId?: string } = {}): Promise<OptimisationRecord[]> {
    await this.ready();
    const table = schema.optimisations;
    const rows = await this.db.select().from(table).where(filter.targetTemplateId === undefined ? undefined : eq(table.targetTemplateId, filter.targetTemplateId));
    return rows.map(fromRow).sort(compareOptimisations);
  }
}

/** The row's columns apart from the lease (claimed and released on its own, never by a save). */
function toRow(record: OptimisationRecord): typeof schema.optimisations.$inferInsert {
  const { lease: _lease, ...stored } = record;
  return { id: record.id, createdAt: record.createdAt, updatedAt: record.updatedAt, status: record.status, targetTemplateId: record.request.targetTemplateId, record: stored };
}

function fromRow(row: typeof schema.optimisations.$inferSelect): OptimisationRecord {
  const record = optimisationRecordSchema.parse(row.record);
  return row.leaseOwner !== null && row.leaseExpiresAt !== null ? { ...record, lease: { owner: row.leaseOwner, expiresAt: row.leaseExpiresAt } } : record;
}
