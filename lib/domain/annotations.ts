import { z } from "zod";

/**
 * People's annotations on a run (docs/annotations.md, docs/decisions/0040): a comment in Markdown
 * (rendered text-safe: no raw HTML), tags, an optional score on a named scale, the author's name and
 * the time, on any node of the run graph — a thought, action, observation, verdict, reflection,
 * memory item or tree node — with replies forming a thread.
 *
 * Annotations are not run events: a run's log is written by the engine under a lease with fenced
 * appends, and imported runs are read-only. They live in their own append-only log of
 * {@link AnnotationEvent}s (add, edit, delete), keyed by the run and the **event id** of the node
 * (graph node ids are event ids). A fork shares its parent's events up to the fork point, so an
 * annotation on the shared prefix shows on every branch that sees that event, and nothing is copied.
 * Editing or deleting appends an event; the fold ({@link foldAnnotations}) keeps the edit history and
 * marks a deleted annotation instead of dropping it.
 */

/** What kind of node an annotation is on (the run graph's node kinds, plus memory items and tree nodes). */
export const annotationTargetKinds = ["run", "trial", "thought", "action", "observation", "evaluation", "reflection", "refinement", "memory-item", "tree-node", "call-error"] as const;
export type AnnotationTargetKind = (typeof annotationTargetKinds)[number];

/**
 * The node an annotation is on. `eventId` is the graph node's id: the event that drew it (for a
 * memory item, the item's id, which is its `reflection-end` event id or a hand-written entry's id;
 * for the run itself, the `run-start` event id).
 */
export const annotationTargetSchema = z.object({
  runId: z.string().min(1),
  /** The branch the person was looking at when annotating (informational: visibility follows `eventId`). */
  branchId: z.string().min(1),
  eventId: z.string().min(1),
  kind: z.enum(annotationTargetKinds),
  /** The trial of the node; null for the run itself. */
  trial: z.number().int().positive().nullable(),
  /** The ReAct step of a thought / action / observation; null otherwise. */
  step: z.number().int().positive().nullable(),
  /** The event's position on `branchId` (what `cli annotate --seq` names); null for a memory item. */
  seq: z.number().int().positive().nullable(),
});
export type AnnotationTarget = z.infer<typeof annotationTargetSchema>;

/** A named score scale: integer scores from `min` to `max` inclusive. */
export interface ScoreScale {
  name: string;
  min: number;
  max: number;
  /** What the ends mean, for the picker. */
  description: string;
}

/** The scales an annotation score can use. */
export const SCORE_SCALES: readonly ScoreScale[] = [
  { name: "quality", min: 1, max: 5, description: "1 = useless … 5 = excellent" },
  { name: "correct", min: 0, max: 1, description: "0 = wrong, 1 = right" },
  { name: "helpfulness", min: 1, max: 5, description: "1 = did not help the next trial … 5 = fixed it" },
];

/** A score on a named scale; the value must be an integer within the scale. */
export const annotationScoreSchema = z
  .object({ scale: z.string().min(1), value: z.number().int() })
  .superRefine((score, context) => {
    const scale = SCORE_SCALES.find((candidate) => candidate.name === score.scale);
    if (!scale) context.addIssue({ code: "custom", message: `unknown score scale "${score.scale}" (known: ${SCORE_SCALES.map((s) => s.name).join(", ")})` });
    else if (score.value < scale.min || score.value > scale.max) context.addIssue({ code: "custom", message: `a ${scale.name} score is ${scale.min}–${scale.max}, not ${score.value}` });
  });
export type AnnotationScore = z.infer<typeof annotationScoreSchema>;

/** Longest comment accepted, in characters. */
export const ANNOTATION_TEXT_MAX = 10_000;
/** A tag: lower-case letters, digits, `-` and `_`, 1–40 characters (so `tag:loop` is unambiguous in search). */
export const annotationTagSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/u, "a tag is 1–40 letters, digits, - or _ (e.g. loop, false-positive)");
/** An author's name as typed (no accounts in embedded mode): 1–60 characters. */
export const authorSchema = z.string().trim().min(1, "say who you are (a name)").max(60);
/** An author's name in a new request: also plain text (no control characters or `< >`), as it is printed in tables, CSV and OTLP attributes. */
export const writerSchema = authorSchema.refine((name) => !/[\p{Cc}<>]/u.test(name), {
  message: "a name is plain text: leave out control characters (tabs, line breaks) and < >, e.g. \"ann\" or \"Ada Lovelace\"",
});

/** The content a person writes; every field of an edit replaces the previous value. */
export const annotationContentSchema = z.object({
  text: z.string().max(ANNOTATION_TEXT_MAX).default(""),
  /** Each tag once, in the order first given. */
  tags: z
    .array(annotationTagSchema)
    .max(20)
    .default([])
    .transform((tags) => [...new Set(tags)]),
  score: annotationScoreSchema.nullable().default(null),
});
export type AnnotationContent = z.infer<typeof annotationContentSchema>;

/** Content a person sends: like {@link annotationContentSchema}, but it must say something (a comment, a tag or a score). */
const writtenContentSchema = annotationContentSchema.refine((content) => content.text.trim() !== "" || content.tags.length > 0 || content.score !== null, {
  message: "a note needs a comment, a tag or a score",
});

/** Where an annotation came from when a tool wrote it for a person (a review queue's item). */
export const annotationOriginSchema = z.object({ queueId: z.string().min(1), itemId: z.string().min(1) }).nullable();

/** One entry of the annotation log. `seq` is the store's order (ascending, global). */
export const annotationEventSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("annotation-add"),
    id: z.string().min(1),
    seq: z.number().int().nonnegative(),
    annotationId: z.string().min(1),
    target: annotationTargetSchema,
    /** The annotation this one replies to (a thread); null for a top-level annotation. */
    parentId: z.string().nullable(),
    author: authorSchema,
    content: annotationContentSchema,
    origin: annotationOriginSchema.default(null),
    /** ISO-8601. */
    occurredAt: z.string(),
  }),
  z.object({
    type: z.literal("annotation-edit"),
    id: z.string().min(1),
    seq: z.number().int().nonnegative(),
    annotationId: z.string().min(1),
    runId: z.string().min(1),
    author: authorSchema,
    content: annotationContentSchema,
    occurredAt: z.string(),
  }),
  z.object({
    type: z.literal("annotation-delete"),
    id: z.string().min(1),
    seq: z.number().int().nonnegative(),
    annotationId: z.string().min(1),
    runId: z.string().min(1),
    author: authorSchema,
    occurredAt: z.string(),
  }),
]);
export type AnnotationEvent = z.infer<typeof annotationEventSchema>;
/** An event before the store gives it `id`, `seq` and (unless given) `occurredAt`. */
export type AnnotationEventDraft = {
  [K in AnnotationEvent["type"]]: Omit<Extract<AnnotationEvent, { type: K }>, "id" | "seq" | "occurredAt"> & { occurredAt?: string };
}[AnnotationEvent["type"]];

/** An annotation as it stands after its events (the fold). */
export interface Annotation {
  id: string;
  target: AnnotationTarget;
  parentId: string | null;
  /** Who wrote it first. */
  author: string;
  content: AnnotationContent;
  origin: { queueId: string; itemId: string } | null;
  /** ISO-8601 of the add. */
  createdAt: string;
  /** ISO-8601 of the last edit or delete; equals `createdAt` when never changed. */
  updatedAt: string;
  /** Who made the last change. */
  updatedBy: string;
  /** Deleted annotations stay in the fold (the log keeps everything); views hide or grey them. */
  deleted: boolean;
  /** Earlier versions of the content, oldest first, with who replaced them and when. */
  history: Array<{ content: AnnotationContent; replacedAt: string; replacedBy: string }>;
}

/**
 * Folds annotation events (any order; sorted by `seq`) into annotations, oldest first. An edit or
 * delete of an unknown annotation is ignored (the store refuses one, so only a hand-edited log has it).
 */
export function foldAnnotations(events: readonly AnnotationEvent[]): Annotation[] {
  const byId = new Map<string, Annotation>();
  for (const event of [...events].sort((a, b) => a.seq - b.seq)) {
    if (event.type === "annotation-add") {
      byId.set(event.annotationId, {
        id: event.annotationId,
        target: event.target,
        parentId: event.parentId,
        author: event.author,
        content: event.content,
        origin: event.origin ?? null,
        createdAt: event.occurredAt,
        updatedAt: event.occurredAt,
        updatedBy: event.author,
        deleted: false,
        history: [],
      });
      continue;
    }
    const current = byId.get(event.annotationId);
    if (!current) continue;
    if (event.type === "annotation-edit") {
      current.history.push({ content: current.content, replacedAt: event.occurredAt, replacedBy: event.author });
      current.content = event.content;
    } else current.deleted = true;
    current.updatedAt = event.occurredAt;
    current.updatedBy = event.author;
  }
  return [...byId.values()];
}

/**
 * `POST /api/runs/:runId/annotations` body: a new annotation (or reply, with `parentId`). The target
 * is the branch and the node's event id; the server reads the kind, trial, step and seq from the log
 * (any sent are ignored). `kind: "memory-item"` picks the memory item when its id is also an event's
 * (a reflection's memory item shares its `reflection-end` event id).
 */
export const annotationCreateRequestSchema = z.object({
  target: z.object({
    branchId: z.string().min(1),
    eventId: z.string().min(1),
    kind: z.enum(annotationTargetKinds).optional(),
    trial: z.number().int().positive().nullable().optional(),
    step: z.number().int().positive().nullable().optional(),
    seq: z.number().int().positive().nullable().optional(),
  }),
  parentId: z.string().nullable().default(null),
  author: writerSchema,
  content: writtenContentSchema,
});
export type AnnotationCreateRequest = z.input<typeof annotationCreateRequestSchema>;

/** `PATCH /api/runs/:runId/annotations/:annotationId` body: new content, or `{ delete: true }`. */
export const annotationChangeRequestSchema = z
  .object({ author: writerSchema, content: writtenContentSchema.optional(), delete: z.literal(true).optional() })
  .strict()
  .superRefine((request, context) => {
    if ((request.content === undefined) === (request.delete === undefined)) {
      context.addIssue({ code: "custom", message: "send either { author, content } to edit the note or { author, delete: true } to delete it, not both or neither" });
    }
  });
export type AnnotationChangeRequest = z.input<typeof annotationChangeRequestSchema>;
