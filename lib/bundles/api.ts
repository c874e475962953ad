import { z } from "zod";
import { environmentIdSchema } from "@/lib/domain/config";
import { bundleManifestSchema } from "./format";

/**
 * HTTP contract of run bundles:
 * - `GET  /api/runs/:id/bundle`, `GET /api/experiments/:id/bundle` → the bundle file (application/gzip, attachment)
 * - `POST /api/bundles` — the raw file as the body (`x-file-name` header; streamed, up to `REFLEXION_MAX_BUNDLE_MB`,
 *   default 256) or multipart `file` (read whole, up to {@link MAX_BUNDLE_BYTES}) → {@link bundleImportResponseSchema};
 *   a bad file answers 422 `invalid-dataset` saying what is wrong, and nothing is stored; a run that is here
 *   already is kept and the rest imported (`skippedRunIds`, `notes`)
 * - `GET  /api/bundles` → {@link bundleListResponseSchema}
 * - `GET  /api/bundles/:hash` → {@link sharedBundleResponseSchema} (the `/shared/<hash>` view), 404 when not imported here
 */

/** Largest bundle a multipart upload may be, bytes (gzip'd): multipart is read whole; the raw body streams up to `REFLEXION_MAX_BUNDLE_MB` (lib/bundles/limits.ts). */
export const MAX_BUNDLE_BYTES = 64 * 1024 * 1024;

export const bundleImportResponseSchema = z.object({
  contentSha256: z.string(),
  /** False when this bundle was imported before (same hash) or all its runs and experiments were here already. */
  created: z.boolean(),
  alreadyHere: z.boolean(),
  runIds: z.array(z.string()),
  experimentIds: z.array(z.string()),
  manifest: bundleManifestSchema,
  /** Runs of the bundle that were here already (same id, e.g. imported before from their own bundle) and were kept, not written again. */
  skippedRunIds: z.array(z.string()).default([]),
  /** One sentence per such run: reused (same content hash) or kept though its content differs. */
  notes: z.array(z.string()).default([]),
});
export type BundleImportResponse = z.infer<typeof bundleImportResponseSchema>;

export const bundleListItemSchema = z.object({
  contentSha256: z.string(),
  importedAt: z.string(),
  fileName: z.string(),
  subject: bundleManifestSchema.shape.subject,
  runs: z.number().int().nonnegative(),
});
export const bundleListResponseSchema = z.object({ bundles: z.array(bundleListItemSchema) });
export type BundleListResponse = z.infer<typeof bundleListResponseSchema>;

/** One run of a shared bundle, as listed on `/shared/<hash>`. */
export const sharedRunSchema = z.object({
  id: z.string(),
  title: z.string(),
  environment: environmentIdSchema,
  strategy: z.string(),
  modelId: z.string(),
  /** ISO-8601 time it was recorded. */
  createdAt: z.string(),
  branches: z.number().int().positive(),
  outcome: z.enum(["success", "failure", "cancelled"]).nullable(),
  trials: z.number().int().nonnegative(),
});
export type SharedRun = z.infer<typeof sharedRunSchema>;

export const sharedBundleResponseSchema = z.object({
  contentSha256: z.string(),
  fileName: z.string(),
  importedAt: z.string(),
  manifest: bundleManifestSchema,
  runs: z.array(sharedRunSchema),
  experiments: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type SharedBundleResponse = z.infer<typeof sharedBundleResponseSchema>;
