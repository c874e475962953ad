import { z } from "zod";
import { environmentIdSchema } from "./config";
import { INSIGHT_MEMORY_PREFIX, INSIGHTS_TASK_ID } from "./insights";
import { memoryEntrySchema, memoryStoreNameSchema, type MemoryEntry } from "./memory-store";

/**
 * The memory export: a store's lessons handed back to an agent that runs elsewhere, so it can put
 * them into its next prompt (`GET /api/memory-stores/<name>/reflections`, `cli memory export`).
 *
 * - Entries are the store's unexpired ones, **newest first** (the order a warm start reads them in),
 *   one per task and normalised text.
 * - With `task`, the task's reflections come with the ExpeL insights of the same family (insights hold
 *   across tasks: ExpeL carries them on every task), each marked by `kind`.
 * - `provenance` is passed through as stored (an insight's extraction, an imported trace's origin, …).
 * - The text form is one entry per line with no header: a reflection's line breaks become spaces, and an
 *   insight starts with {@link INSIGHT_MEMORY_PREFIX}, as in a run's episodic memory.
 */

/** Most entries one export returns. */
export const MAX_EXPORT_ENTRIES = 1000;

/** Entries an export returns when no limit is given. */
export const DEFAULT_EXPORT_ENTRIES = 50;

/** The output forms of an export. */
export const MEMORY_EXPORT_FORMATS = ["json", "text"] as const;
export type MemoryExportFormat = (typeof MEMORY_EXPORT_FORMATS)[number];

/** What an export selects: one task (any family unless `family` is set), one family, at most `limit` entries. */
export const memoryExportFilterSchema = z.object({
  /** Only this task's reflections (with its family's insights). */
  task: z.string().trim().min(1, { message: "task must not be empty" }).max(200).optional(),
  /** Only this family's entries. */
  family: environmentIdSchema.optional(),
  limit: z.coerce.number().int().min(1).max(MAX_EXPORT_ENTRIES).default(DEFAULT_EXPORT_ENTRIES),
});
export type MemoryExportFilter = z.infer<typeof memoryExportFilterSchema>;

/** `GET /api/memory-stores/<name>/reflections` query: the filter plus `format` (default json). Unknown parameters are refused. */
export const memoryExportQuerySchema = memoryExportFilterSchema.extend({ format: z.enum(MEMORY_EXPORT_FORMATS).default("json") }).strict();
export type MemoryExportQuery = z.infer<typeof memoryExportQuerySchema>;

/** A reflection on one task, or an ExpeL insight of a family (stored under {@link INSIGHTS_TASK_ID}). */
export const memoryEntryKindSchema = z.enum(["reflection", "insight"]);
export type MemoryEntryKind = z.infer<typeof memoryEntryKindSchema>;

/** One exported entry: the stored entry (source, provenance and expiry included) and its kind. */
export const memoryExportEntrySchema = memoryEntrySchema.extend({ kind: memoryEntryKindSchema });
export type MemoryExportEntry = z.infer<typeof memoryExportEntrySchema>;

/** The JSON form of an export: `{ store, entries }`, entries newest first. */
export const memoryExportSchema = z.object({ store: memoryStoreNameSchema, entries: z.array(memoryExportEntrySchema) });
export type MemoryExport = z.infer<typeof memoryExportSchema>;

/** The kind of a stored entry: insights are kept under the family's {@link INSIGHTS_TASK_ID}. */
export function entryKind(entry: Pick<MemoryEntry, "taskId">): MemoryEntryKind {
  return entry.taskId === INSIGHTS_TASK_ID ? "insight" : "reflection";
}

/**
 * The text form of an export: one entry per line (newline-terminated; empty string for no entries),
 * in the export's order. Line breaks and runs of whitespace inside an entry become one space; an
 * insight starts with {@link INSIGHT_MEMORY_PREFIX}.
 */
export function memoryExportText(exported: Pick<MemoryExport, "entries">): string {
  return exported.entries
    .map((entry) => {
      const text = entry.text.replace(/\s+/gu, " ").trim();
      return `${entry.kind === "insight" ? INSIGHT_MEMORY_PREFIX : ""}${text}\n`;
    })
    .join("");
}
