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
