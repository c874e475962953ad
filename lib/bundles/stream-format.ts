import { z } from "zod";
import { annotationEventSchema } from "@/lib/domain/annotations";
import { runEventSchema } from "@/lib/domain/events";
import {
  BUNDLE_FORMAT,
  bundleCacheEntrySchema,
  bundleCountsSchema,
  bundleExperimentSchema,
  bundleManifestSchema,
  bundleRunSchema,
  bundleTaskSetSchema,
  bundleTemplateVersionSchema,
} from "./format";
import { lessonSchema } from "@/lib/lessons/lesson-schema";

/**
 * Bundle format 2 (docs/decisions/0042-ten-times-bigger.md): gzip'd JSON Lines, so a bundle of any
 * size is written and read one record at a time.
 *
 * ```
 * {"type":"manifest", format, formatVersion: 2, appVersion, createdAt, subject}
 * {"type":"run", "run": {id, createdAt, title, rootBranchId, branches}}      ─┐ per run, in this order:
 * {"type":"events", "runId", "events": [≤ ~1 MiB of events]}  (1 or more)   │ its header, its events
 * {"type":"annotations", "runId", "annotations": [...]}       (0 or more)   │ (seq order), its notes,
 * {"type":"cache", "entries": [...]}                          (0 or more)  ─┘ the cache entries it used first
 * {"type":"experiment", "experiment": {...}}                  (after every run its cells name)
 * {"type":"task-set", "taskSet": {...}}
 * {"type":"template-version", "templateVersion": {...}}
 * {"type":"lesson", "lesson": {...}, "introduction": "…"}    (0 or more: lessons written in the app that play a run of the bundle)
 * {"type":"trailer", "counts": {...}, "contentSha256": "<hex>"}
 * ```
 *
 * The content hash is the SHA-256 of every record line's bytes as written, each with its `\n` —
 * every line but the manifest and the trailer — so a reader checks it as it reads, and a line
 * changed, added, dropped or moved changes it. Every record schema is `.strict()` (an allow-list,
 * as in format 1: lib/bundles/format.ts).
 */

/** The format version of JSON Lines bundles. */
export const STREAMED_BUNDLE_FORMAT_VERSION = 2;

/** The first line: what the file is, who wrote it, when, and what it holds (counts and hash come in the trailer). */
export const streamManifestLineSchema = z
  .object({
    type: z.literal("manifest"),
    format: z.literal(BUNDLE_FORMAT),
    formatVersion: z.number().int().positive(),
    appVersion: z.string(),
    /** ISO-8601. */
    createdAt: z.string(),
    subject: bundleManifestSchema.shape.subject,
  })
  .strict();
export type StreamManifestLine = z.infer<typeof streamManifestLineSchema>;

/** A run's identity, title and branches; its events and notes follow in their own lines. */
export const streamRunHeaderSchema = bundleRunSchema.omit({ events: true, annotations: true }).strict();
export type StreamRunHeader = z.infer<typeof streamRunHeaderSchema>;

/** A bundled lesson's introduction (Markdown), as long as a lesson file's narration may be. */
export const bundleLessonIntroductionSchema = z.string().max(4_000);

/** One record line (everything between the manifest and the trailer). */
export const streamRecordLineSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("run"), run: streamRunHeaderSchema }).strict(),
  z.object({ type: z.literal("events"), runId: z.string().min(1), events: z.array(runEventSchema).min(1) }).strict(),
  z.object({ type: z.literal("annotations"), runId: z.string().min(1), annotations: z.array(annotationEventSchema).min(1) }).strict(),
  z.object({ type: z.literal("experiment"), experiment: bundleExperimentSchema }).strict(),
  z.object({ type: z.literal("task-set"), taskSet: bundleTaskSetSchema }).strict(),
  z.object({ type: z.literal("cache"), entries: z.array(bundleCacheEntrySchema).min(1) }).strict(),
  z.object({ type: z.literal("template-version"), templateVersion: bundleTemplateVersionSchema }).strict(),
  z.object({ type: z.literal("lesson"), lesson: lessonSchema, introduction: bundleLessonIntroductionSchema }).strict(),
]);
export type StreamRecordLine = z.infer<typeof streamRecordLineSchema>;

/** The last line: the counts and the content hash of the record lines above it. */
export const streamTrailerLineSchema = z
  .object({
    type: z.literal("trailer"),
    counts: bundleCountsSchema,
    /** SHA-256 (hex) of the record lines' bytes, each with its `\n`. */
    contentSha256: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict();
export type StreamTrailerLine = z.infer<typeof streamTrailerLineSchema>;

/** Aim for record lines about this long (bytes of JSON): event and cache chunks close once past it. */
export const TARGET_LINE_BYTES = 1024 * 1024;
