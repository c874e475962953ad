import { bundleImportResponseSchema, bundleListResponseSchema, MAX_BUNDLE_BYTES } from "@/lib/bundles/api";
import { bundleManifestSchema } from "@/lib/bundles/format";
import { AppError } from "@/lib/domain/errors";
import { MAX_BUNDLE_ENV, maxBundleBytes } from "@/lib/bundles/limits";
import { readFormDataBounded } from "@/lib/io/bounded-body";
import { spoolBody } from "@/lib/io/spool-body";
import type { BundleImportOutcome } from "@/lib/server/bundle-service";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Bundles imported here, newest first (lib/bundles/api.ts). */
export const GET = handle(async () => {
  const bundles = await getServerContext().bundles.listBundles();
  return Response.json(
    bundleListResponseSchema.parse({
      bundles: bundles.map((bundle) => ({
        contentSha256: bundle.contentHash,
        importedAt: bundle.importedAt,
        fileName: bundle.fileName,
        subject: bundleManifestSchema.parse(JSON.parse(bundle.manifestJson)).subject,
        runs: bundle.runIds.length,
      })),
    }),
  );
});

/** Multipart overhead allowed on top of the file itself (boundaries and part headers). */
const FORM_SLACK_BYTES = 64 * 1024;

/** The `x-file-name` header: URL-encoded by the app (headers are Latin-1), or as sent. */
function fileNameOf(header: string | null): string {
  if (!header) return "upload";
  try {
    return decodeURIComponent(header);
  } catch {
    return header;
  }
}

/**
 * Imports the upload: a multipart `file` is read whole (at most 64 MB: MAX_BUNDLE_BYTES); the raw file as
 * the body (what the app's Import button sends) is streamed to a temporary file, at most
 * `REFLEXION_MAX_BUNDLE_MB` (default 256), then imported from there as a stream.
 */
async function importUpload(request: Request): Promise<BundleImportOutcome> {
  const bundles = getServerContext().bundles;
  const type = request.headers.get("content-type") ?? "";
  if (type.includes("multipart/form-data")) {
    const rawBody = `Send the file itself as the request body (with an x-file-name header; the app's Import button does) for up to ${MAX_BUNDLE_ENV} megabytes.`;
    const file = (await readFormDataBounded(request, MAX_BUNDLE_BYTES + FORM_SLACK_BYTES, "multipart bundle upload", rawBody)).get("file");
    if (!file || typeof file === "string") throw new AppError("invalid-input", "No file was uploaded: send the bundle as a `file` field.");
    if (file.size > MAX_BUNDLE_BYTES) {
      throw new AppError("too-large", `This file is ${file.size} bytes; a multipart upload may be up to ${MAX_BUNDLE_BYTES} bytes. Send the file itself as the request body (with an x-file-name header) for up to ${MAX_BUNDLE_ENV} megabytes.`);
    }
    return bundles.importBundle(new Uint8Array(await file.arrayBuffer()), file.name);
  }
  const body = await spoolBody(request, maxBundleBytes(), "bundle upload", MAX_BUNDLE_ENV);
  try {
    if (body.bytes === 0) throw new AppError("invalid-input", "The request has no body: send the bundle file.");
    return await bundles.importBundleFile(body.file, fileNameOf(request.headers.get("x-file-name")));
  } finally {
    await body.remove();
  }
}

/**
 * Imports a bundle: multipart `file`, or the raw file as the body. 422 `invalid-dataset` with what is
 * wrong for a truncated, tampered, malformed or newer-format file (nothing stored); 413 `too-large` for
 * an upload over the limit (`REFLEXION_MAX_BUNDLE_MB`; multipart 64 MB) or one that decompresses past its limit.
 */
export const POST = handle(async (request: Request) => {
  const result = await importUpload(request);
  return Response.json(
    bundleImportResponseSchema.parse({
      contentSha256: result.bundle.contentHash,
      created: result.created,
      alreadyHere: result.alreadyHere,
      runIds: result.bundle.runIds,
      experimentIds: result.bundle.experimentIds,
      manifest: result.manifest,
      skippedRunIds: result.skippedRunIds,
      notes: result.notes,
    }),
    { status: result.created ? 201 : 200 },
  );
});
