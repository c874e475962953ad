import { and, desc, eq, gt, inArray, lte, sql } from "drizzle-orm";
import { z } from "zod";
import { humanGradeSchema, type HumanGrade } from "@/lib/domain/judge-grades";
import { provenanceColumn, provenanceOf } from "@/lib/db/insight-provenance-column";
import type { MemoryEntry, MemoryStoreInfo } from "@/lib/domain/memory-store";
import { priceRowSchema, type PriceRow } from "@/lib/domain/prices";
import { compareGrades, type GradeStore } from "../grade-store";
import type { MemoryEntryQuery, MemoryStoreRepository } from "../memory-store-entries";
import { comparePriceRows, type PriceStore } from "../price-store";
import type { PgDb } from "./database";
import * as schema from "./schema";

/**
 * The PostgreSQL price table, memory stores and human grades: the same tables and
 * rules as their SQLite adapters (price rows only appended — migration 0002's trigger refuses
 * UPDATE and DELETE; one grade per run/branch/trial, replaced on save; memory entries unique per
 * store and source event). Small, so one file.
 */
type Ready = () => Promise<void>;
const noWait: Ready = async () => undefined;

/** The PostgreSQL {@link PriceStore}. */
export class PgPriceStore implements PriceStore {
  constructor(private readonly db: PgDb, private readonly ready: Ready = noWait) {}

  async listPrices(): Promise<PriceRow[]> {
    await this.ready();
    const rows = await this.db.select().from(schema.prices);
    return rows.map((row) => priceRowSchema.parse(row)).sort(comparePriceRows);
  }

  async addPrice(row: PriceRow): Promise<boolean> {
    await this.ready();
    const added = await this.db.insert(schema.prices).values(priceRowSchema.parse(row)).onConflictDoNothing().returning({ id: schema.prices.id });
    return added.length > 0;
  }
}

const criteriaJson = z.record(z.string(), z.enum(["pass", "fail"]));

/** The PostgreSQL {@link GradeStore}: upsert on the unique (run, branch, trial) index. */
export class PgGradeStore implements GradeStore {
  constructor(private readonly db: PgDb, private readonly ready: Ready = noWait) {}

  async saveGrade(grade: HumanGrade): Promise<HumanGrade> {
    await this.ready();
    const row = humanGradeSchema.parse(grade);
    const t = schema.humanGrades;
    const [stored] = await this.db
      .insert(t)
      .values(row)
      .onConflictDoUpdate({
        target: [t.runId, t.branchId, t.trial],
        set: { verdict: row.verdict, criteria: row.criteria, note: row.note, judgeVerdict: row.judgeVerdict, judgeScore: row.judgeScore, gradedAt: row.gradedAt, taskId: row.taskId },
      })
      .returning();
    if (!stored) throw new Error("human_grades: the grade was not stored");
    return gradeFromRow(stored);
  }

  async listGrades(): Promise<HumanGrade[]> {
    await this.ready();
    return (await this.db.select().from(schema.humanGrades)).map(gradeFromRow).sort(compareGrades);
  }
}

function gradeFromRow(row: typeof schema.humanGrades.$inferSelect): HumanGrade {
  return humanGradeSchema.parse({ ...row, criteria: row.criteria === null ? null : criteriaJson.parse(row.criteria) });
}

/** The PostgreSQL {@link MemoryStoreRepository}. */
export class PgMemoryStoreRepository implements MemoryStoreRepository {
  constructor(private readonly db: PgDb, private readonly ready: Ready = noWait) {}

  async listStores(now: string): Promise<MemoryStoreInfo[]> {
    await this.ready();
    const e = schema.memoryEntries;
    const stores = await this.db.select().from(schema.memoryStores).orderBy(schema.memoryStores.name);
    const counts = await this.db
      .select({ store: e.store, entries: sql<number>`count(*)::int`, tasks: sql<number>`count(distinct (${e.environment}, ${e.taskId}))::int` })
      .from(e)
      .where(gt(e.expiresAt, now))
      .groupBy(e.store);
    const byStore = new Map(counts.map((row) => [row.store, row]));
    return stores.map((store) => ({
      name: store.name,
      retentionDays: store.retentionDays,
      createdAt: store.createdAt,
      entryCount: Number(byStore.get(store.name)?.entries ?? 0),
      taskCount: Number(byStore.get(store.name)?.tasks ?? 0),
    }));
  }

  async putStore(input: { name: string; retentionDays: number; createdAt: string }): Promise<void> {
    await this.ready();
    await this.db.insert(schema.memoryStores).values(input).onConflictDoUpdate({ target: schema.memoryStores.name, set: { retentionDays: input.retentionDays } });
  }

  async retentionOf(name: string): Promise<number | null> {
    await this.ready();
    const [row] = await this.db.select().from(schema.memoryStores).where(eq(schema.memoryStores.name, name));
    return row?.retentionDays ?? null;
  }

  async addEntries(entries: readonly MemoryEntry[]): Promise<number> {
    await this.ready();
    if (entries.length === 0) return 0;
    const rows = entries.map((entry) => ({
      id: entry.id,
      store: entry.store,
      environment: entry.environment,
      taskId: entry.taskId,
      text: entry.text,
      sourceRunId: entry.source.runId,
      sourceBranchId: entry.source.branchId,
      sourceTrial: entry.source.trial,
      sourceEventId: entry.source.eventId,
      createdAt: entry.createdAt,
      expiresAt: entry.expiresAt,
      provenance: provenanceColumn(entry),
    }));
    const added = await this.db.insert(schema.memoryEntries).values(rows).onConflictDoNothing().returning({ id: schema.memoryEntries.id });
    return added.length;
  }

  async entriesFor(query: MemoryEntryQuery): Promise<MemoryEntry[]> {
    await this.ready();
    const t = schema.memoryEntries;
    const rows = await this.db
      .select()
      .from(t)
      .where(
        and(
          eq(t.store, query.store),
          query.environment === undefined ? undefined : eq(t.environment, query.environment),
          query.taskId === undefined ? undefined : eq(t.taskId, query.taskId),
          gt(t.expiresAt, query.now),
        ),
      )
      .orderBy(desc(t.createdAt), desc(t.id))
      .limit(query.limit);
    return rows.map((row) => ({
      id: row.id,
      store: row.store,
      environment: row.environment,
      taskId: row.taskId,
      text: row.text,
      source: { runId: row.sourceRunId, branchId: row.sourceBranchId, trial: row.sourceTrial, eventId: row.sourceEventId },
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
      ...provenanceOf(row.provenance),
    }));
  }

  async deleteEntries(ids: readonly string[]): Promise<number> {
    await this.ready();
    if (ids.length === 0) return 0;
    const gone = await this.db.delete(schema.memoryEntries).where(inArray(schema.memoryEntries.id, [...ids])).returning({ id: schema.memoryEntries.id });
    return gone.length;
  }

  async deleteExpired(now: string): Promise<number> {
    await this.ready();
    const deleted = await this.db.delete(schema.memoryEntries).where(lte(schema.memoryEntries.expiresAt, now)).returning({ id: schema.memoryEntries.id });
    return deleted.length;
  }
}
