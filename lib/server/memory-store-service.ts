import { randomUUID } from "node:crypto";
import type { MemoryStoreRepository } from "@/lib/db/memory-store-entries";
import { AppError } from "@/lib/domain/errors";
import { entryKind, memoryExportFilterSchema, type MemoryExport, type MemoryExportFilter } from "@/lib/domain/memory-export";
import { availableEnvironments } from "@/lib/environments/registry";
import { INSIGHTS_TASK_ID } from "@/lib/domain/insights";
import { DEFAULT_RETENTION_DAYS, distinctByText, type CorrectionProvenance, expiryOf, normaliseMemoryText, memoryStoreNameSchema, retentionDaysSchema, type InsightProvenance, type MemoryEntry, type MemorySource, type MemoryStoreInfo } from "@/lib/domain/memory-store";
import type { TraceReflectionProvenance } from "@/lib/domain/trace-reflection";
import type { MemoryPort } from "@/lib/engine/warm-start";

/** At most this many of a task's entries are read to deduplicate (a task's store rarely holds more). */
const SCAN_LIMIT = 1000;

/** Retention of a store created by an insight extraction: insights are meant to outlast the runs they came from. */
export const INSIGHTS_RETENTION_DAYS = 365;

/** Retention of a store created for reviewers' corrections: curated data, kept for the longest retention allowed. */
export const CORRECTIONS_RETENTION_DAYS = 3650;

/** How often expired entries are deleted while the process runs (ms). */
export const RETENTION_SWEEP_MS = 10 * 60_000;

/**
 * Named memory stores (lib/domain/memory-store.ts): the
 * settings list, the engine's {@link MemoryPort} (warm starts read, `writeMemory`
 * writes) and retention — expired entries are deleted when the service opens
 * and then every {@link RETENTION_SWEEP_MS} (and never returned in between:
 * reads filter by expiry). The clock is injected for tests.
 */
export class MemoryStoreService {
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly repository: MemoryStoreRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Deletes expired entries now; returns how many. */
  async sweep(): Promise<number> {
    return this.repository.deleteExpired(this.now().toISOString());
  }

  /** Sweeps once and then on a timer that does not keep the process alive. */
  start(): void {
    void this.sweep().catch(() => undefined);
    if (this.timer) return;
    this.timer = setInterval(() => void this.sweep().catch(() => undefined), RETENTION_SWEEP_MS);
    this.timer.unref?.();
  }

  /** Stops the timer. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Every store with its unexpired entry and task counts. */
  async list(): Promise<MemoryStoreInfo[]> {
    return this.repository.listStores(this.now().toISOString());
  }

  /**
   * Creates a store or changes its retention (days; entries already written keep their expiry).
   * @throws ZodError naming the field for a bad name or retention.
   */
  async put(input: { name: string; retentionDays: number }): Promise<MemoryStoreInfo[]> {
    const name = memoryStoreNameSchema.parse(input.name);
    const retentionDays = retentionDaysSchema.parse(input.retentionDays);
    await this.repository.putStore({ name, retentionDays, createdAt: this.now().toISOString() });
    return this.list();
  }

  /** The task's unexpired entries, newest first, one per normalised text (the newest; older copies written before deduplication are skipped). */
  async entries(store: string, environment: string, taskId: string, limit = 50): Promise<MemoryEntry[]> {
    const all = await this.repository.entriesFor({ store, environment, taskId, now: this.now().toISOString(), limit: SCAN_LIMIT });
    return distinctByText(all).slice(0, limit);
  }

  /**
   * The family's ExpeL insights in `store` (lib/domain/insights.ts), oldest extraction first and
   * each extraction in its list's order, at most `limit` (the newest kept).
   */
  async insights(store: string, environment: string, limit = 50): Promise<MemoryEntry[]> {
    const newestFirst = distinctByText(await this.repository.entriesFor({ store, environment, taskId: INSIGHTS_TASK_ID, now: this.now().toISOString(), limit: SCAN_LIMIT }));
    return newestFirst.slice(0, limit).reverse();
  }

  /**
   * Stores one extraction's insights for `environment` in `store` (created with
   * {@link INSIGHTS_RETENTION_DAYS} when missing), each with `provenance`; an insight whose
   * normalised text the family's insights hold already replaces the older copy. Returns the entries
   * written, in list order.
   * @throws ZodError for a bad store name.
   */
  async addInsights(input: { store: string; environment: string; insights: readonly string[]; provenance: InsightProvenance }): Promise<MemoryEntry[]> {
    const store = memoryStoreNameSchema.parse(input.store);
    let retention = await this.repository.retentionOf(store);
    if (retention === null) {
      retention = INSIGHTS_RETENTION_DAYS;
      await this.repository.putStore({ name: store, retentionDays: retention, createdAt: this.now().toISOString() });
    }
    const createdAt = this.now().toISOString();
    const batch = randomUUID().slice(0, 8);
    // Ids sort by list position, so a read (newest first, then id descending) reversed gives the list's order.
    const entries: MemoryEntry[] = input.insights.map((text, index) => {
      const id = `in-${batch}-${String(index).padStart(2, "0")}`;
      return {
        id,
        store,
        environment: input.environment,
        taskId: INSIGHTS_TASK_ID,
        text,
        // The source names the first run the insight was drawn from; the provenance lists them all.
        source: { runId: input.provenance.runIds[0] ?? input.provenance.experimentId ?? "none", branchId: "insights", trial: 1, eventId: id },
        createdAt,
        expiresAt: expiryOf(createdAt, retention),
        provenance: input.provenance,
      };
    });
    const fresh = new Set(entries.map((entry) => normaliseMemoryText(entry.text)));
    const older = (await this.repository.entriesFor({ store, environment: input.environment, taskId: INSIGHTS_TASK_ID, now: createdAt, limit: SCAN_LIMIT }))
      .filter((existing) => fresh.has(normaliseMemoryText(existing.text)))
      .map((existing) => existing.id);
    await this.repository.deleteEntries(older);
    await this.repository.addEntries(entries);
    return entries;
  }

  /**
   * The entry of `store` written for the source event `eventId` of a task, or null. A reflection on
   * an imported trace is keyed by its source event, so asking again finds it instead of paying for
   * another model call.
   */
  async entryForSource(store: string, environment: string, taskId: string, eventId: string): Promise<MemoryEntry | null> {
    const all = await this.repository.entriesFor({ store, environment, taskId, now: this.now().toISOString(), limit: SCAN_LIMIT });
    return all.find((entry) => entry.source.eventId === eventId) ?? null;
  }

  /**
   * Stores a reflection written on an imported trace's failure (lib/domain/trace-reflection.ts) with
   * its provenance; the store is created with {@link INSIGHTS_RETENTION_DAYS} when missing (lessons
   * handed back to an outside agent are meant to outlast the import). An entry with the same source
   * event exists already → nothing is written and that entry is returned with `added: false`.
   * @throws ZodError for a bad store name.
   */
  async addTraceReflection(input: { store: string; environment: string; taskId: string; text: string; source: MemorySource; reflectedOn: TraceReflectionProvenance }): Promise<{ entry: MemoryEntry; added: boolean }> {
    const store = memoryStoreNameSchema.parse(input.store);
    const existing = await this.entryForSource(store, input.environment, input.taskId, input.source.eventId);
    if (existing) return { entry: existing, added: false };
    let retention = await this.repository.retentionOf(store);
    if (retention === null) {
      retention = INSIGHTS_RETENTION_DAYS;
      await this.repository.putStore({ name: store, retentionDays: retention, createdAt: this.now().toISOString() });
    }
    const createdAt = this.now().toISOString();
    const entry: MemoryEntry = { id: `tr-${randomUUID()}`, store, environment: input.environment, taskId: input.taskId, text: input.text, source: input.source, createdAt, expiresAt: expiryOf(createdAt, retention), reflectedOn: input.reflectedOn };
    const added = await this.repository.addEntries([entry]);
    return { entry, added: added > 0 };
  }

  /**
   * Stores a reviewer's corrected reflection (lib/domain/review-queue.ts) in `store` — created with
   * {@link CORRECTIONS_RETENTION_DAYS} when missing — as entry `id` with its provenance, replacing an
   * earlier entry with that id (the same reviewer correcting the same item again). The source is the
   * corrected reflection's run, branch and trial; its `eventId` is the entry id, so a reflection
   * corrected by two reviewers keeps both corrections.
   * @throws ZodError for a bad store name.
   */
  async putCorrection(input: { id: string; store: string; environment: string; taskId: string; text: string; source: Omit<MemorySource, "eventId">; correctedFrom: CorrectionProvenance }): Promise<MemoryEntry> {
    const store = memoryStoreNameSchema.parse(input.store);
    let retention = await this.repository.retentionOf(store);
    if (retention === null) {
      retention = CORRECTIONS_RETENTION_DAYS;
      await this.repository.putStore({ name: store, retentionDays: retention, createdAt: this.now().toISOString() });
    }
    const createdAt = this.now().toISOString();
    const entry: MemoryEntry = { id: input.id, store, environment: input.environment, taskId: input.taskId, text: input.text, source: { ...input.source, eventId: input.id }, createdAt, expiresAt: expiryOf(createdAt, retention), correctedFrom: input.correctedFrom };
    await this.repository.deleteEntries([input.id]);
    await this.repository.addEntries([entry]);
    return entry;
  }

  /** Deletes the entries with these ids (a correction withdrawn); returns how many were deleted. */
  async deleteEntries(ids: readonly string[]): Promise<number> {
    return this.repository.deleteEntries(ids);
  }

  /**
   * The memory export (lib/domain/memory-export.ts): the store's unexpired entries, newest first,
   * one per task and normalised text, at most `filter.limit` (default 50). With `task`, the task's
   * reflections plus the ExpeL insights of its family (`family`, else every family the task has
   * reflections in); without, every entry of the family (or of the store), insights included.
   * @throws AppError("not-found") for a store that does not exist (the message lists the stores);
   *   AppError("invalid-input") for a family that is not one of the app's; ZodError for a bad name or filter.
   */
  async exportEntries(name: string, filter: Partial<MemoryExportFilter> = {}): Promise<MemoryExport> {
    const store = memoryStoreNameSchema.parse(name);
    const { task, family, limit } = memoryExportFilterSchema.parse(filter);
    if ((await this.repository.retentionOf(store)) === null) {
      const names = (await this.list()).map((info) => info.name);
      throw new AppError(
        "not-found",
        `No memory store ${store}. ${names.length > 0 ? `The stores are: ${names.join(", ")}.` : "There are no memory stores yet: a run with writeMemory (cli run --write-memory <store>) or an insight extraction creates one."}`,
      );
    }
    if (family !== undefined && !availableEnvironments().includes(family)) {
      throw new AppError("invalid-input", `No task family ${family}; the families are ${availableEnvironments().join(", ")}.`);
    }
    const now = this.now().toISOString();
    let found = await this.repository.entriesFor({ store, environment: family, taskId: task, now, limit: SCAN_LIMIT });
    if (task !== undefined && task !== INSIGHTS_TASK_ID) {
      const families = family !== undefined ? [family] : [...new Set(found.map((entry) => entry.environment))];
      for (const environment of families) found.push(...(await this.repository.entriesFor({ store, environment, taskId: INSIGHTS_TASK_ID, now, limit: SCAN_LIMIT })));
      found = found.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
    }
    // One entry per task and text, as warm starts read them (entries written before deduplication may repeat).
    const seen = new Set<string>();
    const entries = found.filter((entry) => {
      const key = `${entry.environment}\0${entry.taskId}\0${normaliseMemoryText(entry.text)}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    return { store, entries: entries.slice(0, limit).map((entry) => ({ ...entry, kind: entryKind(entry) })) };
  }

  /**
   * Every store's unexpired entries written from run `runId` (its task's entries whose source is the
   * run), newest first: a run's reflections kept in a store, and the lessons `reflect-traces` wrote
   * on an imported trace (they live in stores, not in the run's log).
   */
  async entriesFromRun(runId: string, environment: string, taskId: string): Promise<MemoryEntry[]> {
    const out: MemoryEntry[] = [];
    for (const info of await this.list()) {
      for (const entry of await this.entries(info.name, environment, taskId, SCAN_LIMIT)) if (entry.source.runId === runId) out.push(entry);
    }
    return out.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
  }

  /** The engine's port over the stores. */
  port(): MemoryPort {
    return {
      carryIn: async (query) =>
        (await this.entries(query.store, query.environment, query.taskId, query.limit)).map((entry) => ({
          entryId: entry.id,
          text: entry.text,
          source: entry.source,
          createdAt: entry.createdAt,
        })),
      insights: async (query) =>
        (await this.insights(query.store, query.environment, query.limit)).map((entry) => ({
          entryId: entry.id,
          text: entry.text,
          provenance: entry.provenance ?? null,
          createdAt: entry.createdAt,
        })),
      storeNames: async () => (await this.list()).map((store) => store.name),
      remember: async (entry) => {
        let retention = await this.repository.retentionOf(entry.store);
        if (retention === null) {
          retention = DEFAULT_RETENTION_DAYS;
          await this.repository.putStore({ name: entry.store, retentionDays: retention, createdAt: this.now().toISOString() });
        }
        const createdAt = this.now().toISOString();
        const id = `me-${randomUUID()}`;
        const added = await this.repository.addEntries([{ id, ...entry, createdAt, expiresAt: expiryOf(createdAt, retention) }]);
        if (added === 0) return;
        // One entry per task and normalised text: the new one replaces older copies (e.g. from forks).
        const key = normaliseMemoryText(entry.text);
        const older = (await this.repository.entriesFor({ store: entry.store, environment: entry.environment, taskId: entry.taskId, now: createdAt, limit: SCAN_LIMIT }))
          .filter((existing) => existing.id !== id && normaliseMemoryText(existing.text) === key)
          .map((existing) => existing.id);
        await this.repository.deleteEntries(older);
      },
    };
  }
}
