import { z } from "zod";

/**
 * Branded identifiers. Every id is an opaque string (a UUID v4 in practice);
 * the brand keeps a run id from being passed where a branch id is expected.
 */
export const runIdSchema = z.string().min(1).brand<"RunId">();
/** Id of a run: `{ id, createdAt, config, rootBranchId }` (DESIGN.md §1). */
export type RunId = z.infer<typeof runIdSchema>;

export const branchIdSchema = z.string().min(1).brand<"BranchId">();
/** Id of a branch of a run; the root branch is created with the run. */
export type BranchId = z.infer<typeof branchIdSchema>;

export const eventIdSchema = z.string().min(1).brand<"EventId">();
/** Id of one stored event (unique across all runs). */
export type EventId = z.infer<typeof eventIdSchema>;

export const callIdSchema = z.string().min(1).brand<"CallId">();
/** Id of one model call; `step-*` and `reflection-end` events point at it. */
export type CallId = z.infer<typeof callIdSchema>;

/** Brands a trusted string (one we generated or read back from our own store). */
export const asRunId = (value: string): RunId => runIdSchema.parse(value);
/** @see asRunId */
export const asBranchId = (value: string): BranchId => branchIdSchema.parse(value);
/** @see asRunId */
export const asEventId = (value: string): EventId => eventIdSchema.parse(value);
/** @see asRunId */
export const asCallId = (value: string): CallId => callIdSchema.parse(value);

/**
 * C0 and C1 control characters (NUL, TAB, newline, ESC, DEL, …), the Unicode line and paragraph
 * separators, and the bidirectional controls (U+202A–202E, U+2066–2069, U+200E/200F, U+061C), which
 * make an id display as another one ("Trojan Source", CVE-2021-42574).
 */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

/**
 * A task's id, the one rule every family's task schema uses at ingestion (dataset files, uploads,
 * built-in sets): not empty after trimming, and no control characters — an id is printed in lists,
 * tables and terminals (`cli runs`), where a NUL or an escape sequence would garble the output.
 */
export const taskIdSchema = z
  .string()
  .trim()
  .min(1, { message: "the task id must not be empty" })
  .refine((id) => !CONTROL_CHARACTERS.test(id), {
    message: "the task id must not contain control characters (NUL, tab, newline, escape, right-to-left override…); rename the task in the file",
  });

/**
 * `text` with control characters shown as escapes (`\u0000`, `\t`, `\n`, `\u001b`…), for printing
 * stored text to a terminal or a tab-separated line; other text is unchanged.
 */
export function escapeControlCharacters(text: string): string {
  return text.replace(new RegExp(CONTROL_CHARACTERS.source, "g"), (char) => {
    if (char === "\t") return "\\t";
    if (char === "\n") return "\\n";
    if (char === "\r") return "\\r";
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}
