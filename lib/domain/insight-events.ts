import { z } from "zod";
import { insightProvenanceSchema, memoryStoreNameSchema } from "./memory-store";

/**
 * The event of ExpeL's task inference (lib/domain/insights.ts), spread into the event catalogue of
 * lib/domain/events.ts. A run of a method that carries insights reads its store ONCE, before trial
 * 1, and records what it read here; folding the event puts the insights into the episodic memory
 * ahead of every reflection (ids `insight:<entry id>`, `trial: null`), so replays and forks never
 * read the store again and a memory edit changes an insight like any reflection.
 *
 * A separate event from the warm start's `memory-carried-in`: a run may carry both (the task's own
 * reflections and the family's insights), and a run without a store still records why it carries
 * none (`store: null` and a `note`).
 */
export const insightEventSchemas = {
  "insights-carried-in": z.object({
    /** The store read, or null when the run names none. */
    store: memoryStoreNameSchema.nullable(),
    entries: z.array(
      z.object({
        /** The memory item id ({@link insightItemId} of lib/domain/insights.ts). */
        itemId: z.string(),
        entryId: z.string(),
        /** The insight as stored, without the memory prefix. */
        text: z.string(),
        /** What it was extracted from; null when the store did not say. */
        provenance: insightProvenanceSchema.nullable(),
        /** ISO-8601 time the insight was written to the store. */
        createdAt: z.string(),
      }),
    ),
    /** Why nothing was carried in, e.g. "memory store 'x' has no insights …; extract them with …". */
    note: z.string().optional(),
  }),
} as const;
