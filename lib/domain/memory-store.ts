import { z } from "zod";
import { traceReflectionProvenanceSchema } from "./trace-reflection";

/**
 * Memory that outlives a run (the seeds' per-session memory
 * with expiry; docs/decisions/0024-costs-budgets-memory.md). A *memory store*
 * is a named collection of reflections kept per task (family + task id) with a
 * retention period: an entry expires `retentionDays` after it was written and
 * is then deleted (when a store is opened and on a timer).
 *
 * - A run with `writeMemory: { store }` adds each of its reflections (as
 *   written, with its source run / branch / trial) to the store.
 * - A run with `warmStart: { store, maxEntries }` starts with the task's newest
 *   unexpired entries (at most `maxEntries`, newest first) in its episodic
 *   memory: they are read when the run is created and recorded in its log as
 *   `memory-carried-in`, so replays and forks see exactly the same entries
 *   whatever the store holds later. Trial 1's memory window Ω applies to them
 *   as to any reflection.
 */

/** A store's name: letters, digits, `-`, `_`, `.`; 1–64 characters. */
export const memoryStoreNameSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, { message: "a memory store name is 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit" });

/** Retention in days (fractions allowed, e.g. 0.5), 1 minute to 10 years. */
export const retentionDaysSchema = z.number().min(1 / 1440).max(3650);

/** Default retention of a store created implicitly by a run. */
export const DEFAULT_RETENTION_DAYS = 30;

/** Run option: carry the task's reflections from a store into trial 1. */
export const warmStartSchema = z.object({
  store: memoryStoreNameSchema,
  /** At most this many entries, newest first. */
  maxEntries: z.number().int().min(1).max(50).default(3),
});
export type WarmStart = z.infer<typeof warmStartSchema>;

/** Run option: write each reflection of the run into a store (created with the default retention if missing). */
export const writeMemorySchema = z.object({ store: memoryStoreNameSchema });
export type WriteMemory = z.infer<typeof writeMemorySchema>;

/** A memory store as listed (settings section, `GET /api/memory-stores`). */
export const memoryStoreInfoSchema = z.object({
  name: memoryStoreNameSchema,
  retentionDays: retentionDaysSchema,
  /** ISO-8601. */
  createdAt: z.string(),
  /** Unexpired entries now. */
  entryCount: z.number().int().nonnegative(),
  /** Distinct tasks (family + task id) with entries. */
  taskCount: z.number().int().nonnegative(),
});
export type MemoryStoreInfo = z.infer<typeof memoryStoreInfoSchema>;

/** Where an entry came from: the reflection's run, branch, trial and event. */
export const memorySourceSchema = z.object({
  runId: z.string(),
  branchId: z.string(),
  trial: z.number().int().positive(),
  /** The `reflection-end` event id (an entry is written once per reflection). */
  eventId: z.string(),
});
export type MemorySource = z.infer<typeof memorySourceSchema>;

/**
 * Where an ExpeL insight came from (lib/domain/insights.ts): the experiment (null when extracted
 * from a list of runs), every run whose trajectories the extraction prompt showed, the prompt
 * template's id and version, and the Self-Reflection model that wrote it.
 */
export const insightProvenanceSchema = z.object({
  experimentId: z.string().nullable(),
  runIds: z.array(z.string()),
  template: z.object({ id: z.string(), version: z.number().int().positive() }),
  model: z.string(),
});
export type InsightProvenance = z.infer<typeof insightProvenanceSchema>;

/**
 * Where a reviewer's corrected reflection came from (a review queue, docs/review-queues.md): the
 * queue, item and reviewer, and the reflection it corrects — its run, `reflection-end` event and
 * text as the queue showed it. Corrections are data: a warm start or a lesson reads them like any
 * reflection, the optimiser shows them as examples of good reflections.
 */
export const correctionProvenanceSchema = z.object({
  queueId: z.string(),
  itemId: z.string(),
  reviewer: z.string(),
  runId: z.string(),
  eventId: z.string(),
  originalText: z.string(),
});
export type CorrectionProvenance = z.infer<typeof correctionProvenanceSchema>;

/** One stored reflection (or, with `provenance`, one ExpeL insight). */
export const memoryEntrySchema = z.object({
  id: z.string(),
  store: memoryStoreNameSchema,
  environment: z.string(),
  taskId: z.string(),
  text: z.string(),
  source: memorySourceSchema,
  /** ISO-8601. */
  createdAt: z.string(),
  /** ISO-8601: `createdAt` + the store's retention; deleted after. */
  expiresAt: z.string(),
  /** Set on an ExpeL insight: what it was extracted from; absent on a run's reflection. */
  provenance: insightProvenanceSchema.optional(),
  /** Set on a reflection written on an imported trace's failure (lib/domain/trace-reflection.ts): the Evaluator, template and model. */
  reflectedOn: traceReflectionProvenanceSchema.optional(),
  /** Set on a reviewer's corrected reflection: the review and the reflection it corrects. */
  correctedFrom: correctionProvenanceSchema.optional(),
});
export type MemoryEntry = z.infer<typeof memoryEntrySchema>;

/** `createdAt` + `retentionDays`, ISO-8601. */
export function expiryOf(createdAt: string, retentionDays: number): string {
  return new Date(Date.parse(createdAt) + retentionDays * 86_400_000).toISOString();
}

/**
 * The text by which two entries count as the same reflection: case-folded, whitespace collapsed.
 * A store keeps one entry per task and normalised text (the newest), so forks that reproduce a
 * reflection do not fill a warm start's window with copies.
 */
export function normaliseMemoryText(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

/** Entries (newest first) without later copies of an earlier entry's normalised text: the newest of each text is kept. */
export function distinctByText<T extends { text: string }>(entries: readonly T[]): T[] {
  const seen = new Set<string>();
  return entries.filter((entry) => {
    const key = normaliseMemoryText(entry.text);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The memory item id of a carried-in entry (distinct from reflection event ids, stable across replays). */
export function carriedItemId(entryId: string): string {
  return `carried:${entryId}`;
}

/** `GET/PUT /api/memory-stores` answer. */
export const memoryStoresResponseSchema = z.object({ stores: z.array(memoryStoreInfoSchema) });
export type MemoryStoresResponse = z.infer<typeof memoryStoresResponseSchema>;

/** `PUT /api/memory-stores` body: create a store or change its retention. */
export const putMemoryStoreSchema = z.object({ name: memoryStoreNameSchema, retentionDays: retentionDaysSchema }).strict();

/** `GET /api/runs/:runId/lessons`: the memory-store entries written from one run, newest first. */
export const runLessonsResponseSchema = z.object({ entries: z.array(memoryEntrySchema) });
export type RunLessonsResponse = z.infer<typeof runLessonsResponseSchema>;
