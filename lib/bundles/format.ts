import { z } from "zod";
import { environmentIdSchema } from "@/lib/domain/config";
import { annotationEventSchema } from "@/lib/domain/annotations";
import { runEventSchema } from "@/lib/domain/events";
import { experimentDefinitionSchema } from "@/lib/domain/experiment";
import { provenanceSchema } from "@/lib/domain/provenance";
import { templateSchema, templateVersionSchema } from "@/lib/domain/template-library";

/**
 * The run bundle format (docs/decisions/0026-bundles-and-otlp.md): one gzip'd JSON file
 * `{ manifest, content }` that carries a run (all its branches) or an experiment (all its runs) to
 * another machine. Every schema here is `.strict()` — an **allow-list**: a writer can only put in
 * the fields named below, and a reader refuses any other (so no API key, no base URL with
 * credentials, no environment value can ride along). Events are the app's own stored events
 * (lib/domain/events.ts, parsed with their schemas, which keep only the catalogue's fields).
 */

/** The value of `manifest.format`: what the file is. */
export const BUNDLE_FORMAT = "reflexion-playground.bundle";
/**
 * The highest format version this app reads; bumped on an incompatible change, and a reader refuses a
 * higher one ("made by a newer version"). 1: one gzip'd JSON document (this file); 2: gzip'd JSON
 * Lines, written and read as a stream (lib/bundles/stream-format.ts).
 */
export const BUNDLE_FORMAT_VERSION = 2;
/** The version of the one-document format described here (still written by `encodeBundle`, still read). */
export const BUNDLE_FORMAT_V1 = 1;

/** One branch of a bundled run: its identity and fork point (DESIGN.md §1). */
export const bundleBranchSchema = z
  .object({
    id: z.string().min(1),
    parentBranchId: z.string().min(1).nullable(),
    forkSeq: z.number().int().positive().nullable(),
    /** ISO-8601. */
    createdAt: z.string(),
  })
  .strict();
export type BundleBranch = z.infer<typeof bundleBranchSchema>;

/** A run: identity, title and every branch's own events (seq order per branch, run-start first). */
export const bundleRunSchema = z
  .object({
    id: z.string().min(1),
    /** ISO-8601. */
    createdAt: z.string(),
    title: z.string(),
    rootBranchId: z.string().min(1),
    branches: z.array(bundleBranchSchema).min(1),
    events: z.array(runEventSchema).min(1),
    /**
     * People's annotation log of the run (lib/domain/annotations.ts): add, edit and delete events in
     * `seq` order. Absent when the run has none — so a run without annotations hashes and reads as
     * in bundles written before annotations existed, which still import.
     */
    annotations: z.array(annotationEventSchema).min(1).optional(),
  })
  .strict();
export type BundleRun = z.infer<typeof bundleRunSchema>;

/** An experiment: its record and which run fills each (task, arm) cell. */
export const bundleExperimentSchema = z
  .object({
    id: z.string().min(1),
    createdAt: z.string(),
    definition: experimentDefinitionSchema,
    taskSetName: z.string(),
    provenance: provenanceSchema.nullable(),
    cells: z.array(z.object({ taskId: z.string(), arm: z.string(), runId: z.string() }).strict()),
  })
  .strict();
export type BundleExperiment = z.infer<typeof bundleExperimentSchema>;

/** A task set an experiment points at (uploaded sets; built-in tasks ship with the app). Each run also carries its task in its config. */
export const bundleTaskSetSchema = z
  .object({
    id: z.string().min(1),
    name: z.string(),
    environment: environmentIdSchema,
    createdAt: z.string(),
    tasks: z.array(z.record(z.string(), z.unknown())),
    problems: z.array(z.string()),
    contentHash: z.string().nullable(),
  })
  .strict();
export type BundleTaskSet = z.infer<typeof bundleTaskSetSchema>;

/**
 * One response-cache entry a bundled call used: the cache key (`[scope:]hash[#n][~k]`,
 * lib/llm/caching-model-port.ts `cacheKeyOf`) and the response as cached — text, token usage,
 * finish reason; nothing else of the provider's reply.
 */
export const bundleCacheEntrySchema = z
  .object({
    key: z.string().min(1),
    response: z
      .object({
        text: z.string(),
        usage: z
          .object({
            inputTokens: z.number().int().nonnegative(),
            outputTokens: z.number().int().nonnegative(),
            cachedInputTokens: z.number().int().nonnegative().optional(),
            cacheWriteInputTokens: z.number().int().nonnegative().optional(),
          })
          .strict(),
        finishReason: z.string(),
      })
      .strict(),
  })
  .strict();
export type BundleCacheEntry = z.infer<typeof bundleCacheEntrySchema>;

/** A template library version a bundled run recorded (`versionId` in its templates or prompt edits), with its template. */
export const bundleTemplateVersionSchema = z
  .object({
    template: templateSchema.strict(),
    version: templateVersionSchema.strict(),
  })
  .strict();
export type BundleTemplateVersion = z.infer<typeof bundleTemplateVersionSchema>;

/** Everything the content hash covers. */
export const bundleContentSchema = z
  .object({
    runs: z.array(bundleRunSchema).min(1),
    experiments: z.array(bundleExperimentSchema),
    taskSets: z.array(bundleTaskSetSchema),
    responseCache: z.array(bundleCacheEntrySchema),
    templateVersions: z.array(bundleTemplateVersionSchema),
  })
  .strict();
export type BundleContent = z.infer<typeof bundleContentSchema>;

/** Counts in the manifest (checked against the content on import). */
export const bundleCountsSchema = z
  .object({
    runs: z.number().int().nonnegative(),
    branches: z.number().int().nonnegative(),
    events: z.number().int().nonnegative(),
    cacheEntries: z.number().int().nonnegative(),
    experiments: z.number().int().nonnegative(),
    templateVersions: z.number().int().nonnegative(),
  })
  .strict();
export type BundleCounts = z.infer<typeof bundleCountsSchema>;

/** The manifest: what, from which app version, when, how much, and the SHA-256 of the canonical content. */
export const bundleManifestSchema = z
  .object({
    format: z.literal(BUNDLE_FORMAT),
    /** Checked separately first, so a newer file gets "made by a newer version", not a schema error. */
    formatVersion: z.number().int().positive(),
    /** package.json version of the app that wrote it. */
    appVersion: z.string(),
    /** ISO-8601. */
    createdAt: z.string(),
    /** What was exported: one run, or an experiment with its runs. */
    subject: z.object({ kind: z.enum(["run", "experiment"]), id: z.string().min(1), title: z.string() }).strict(),
    counts: bundleCountsSchema,
    /** Format 1: SHA-256 (hex) of the RFC 8785 canonical JSON of `content` (lib/bundles/content-hash.ts); format 2: of its record lines as written (lib/bundles/stream-format.ts). */
    contentSha256: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict();
export type BundleManifest = z.infer<typeof bundleManifestSchema>;

/** The whole file, after gunzip and JSON parse. */
export const bundleFileSchema = z.object({ manifest: bundleManifestSchema, content: bundleContentSchema }).strict();
export type BundleFile = z.infer<typeof bundleFileSchema>;

/** The counts of a content, as the manifest states them. */
export function countsOf(content: BundleContent): BundleCounts {
  return {
    runs: content.runs.length,
    branches: content.runs.reduce((sum, run) => sum + run.branches.length, 0),
    events: content.runs.reduce((sum, run) => sum + run.events.length, 0),
    cacheEntries: content.responseCache.length,
    experiments: content.experiments.length,
    templateVersions: content.templateVersions.length,
  };
}
