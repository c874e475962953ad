import { bundleImportResponseSchema, bundleListResponseSchema, MAX_BUNDLE_BYTES } from "@/lib/bundles/api";
import { bundleManifestSchema } from "@/lib/bundles/format";
import { AppError } from "@/lib/domain/errors";
import { readBodyBounded, readFormDataBounded } from "@/lib/io/bounded-body";
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

async function upload(request: Request): Promise<{ bytes: Uint8Array; name: string }> {
  const type = request.headers.get("content-type") ?? "";
  if (type.includes("multipart/form-data")) {
    const file = (await readFormDataBounded(request, MAX_BUNDLE_BYTES + FORM_SLACK_BYTES, "bundle upload")).get("file");
    if (!file || typeof file === "string") throw new AppError("invalid-input", "No file was uploaded: send the bundle as a `file` field.");
    if (file.size > MAX_BUNDLE_BYTES) throw new AppError("too-large", `This file is ${file.size} bytes; bundles up to ${MAX_BUNDLE_BYTES} bytes are accepted.`);
    return { bytes: new Uint8Array(await file.arrayBuffer()), name: file.name };
  }
  const bytes = await readBodyBounded(request, MAX_BUNDLE_BYTES, "bundle upload");
  if (bytes.length === 0) throw new AppError("invalid-input", "The request has no body: send the bundle file.");
  return { bytes, name: request.headers.get("x-file-name") ?? "upload" };
}

/**
 * Imports a bundle: multipart `file`, or the raw file as the body. 422 `invalid-dataset` with what is
 * wrong for a truncated, tampered, malformed or newer-format file (nothing stored); 413 `too-large` for
 * an upload over 64 MB or one that decompresses past `REFLEXION_MAX_INFLATED_MB`.
 */
export const POST = handle(async (request: Request) => {
  const { bytes, name } = await upload(request);
  const result = await getServerContext().bundles.importBundle(bytes, name);
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
