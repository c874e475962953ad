import { bundleImportResponseSchema, bundleListResponseSchema, MAX_BUNDLE_BYTES } from "@/lib/bundles/api";
import { bundleManifestSchema } from "@/lib/bundles/format";
import { AppError } from "@/lib/domain/errors";
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

async function upload(request: Request): Promise<{ bytes: Uint8Array; name: string }> {
  const type = request.headers.get("content-type") ?? "";
  if (type.includes("multipart/form-data")) {
    const file = (await request.formData()).get("file");
    if (!file || typeof file === "string") throw new AppError("invalid-input", "No file was uploaded: send the bundle as a `file` field.");
    if (file.size > MAX_BUNDLE_BYTES) throw new AppError("invalid-input", `This file is ${file.size} bytes; bundles up to ${MAX_BUNDLE_BYTES} bytes are accepted.`);
    return { bytes: new Uint8Array(await file.arrayBuffer()), name: file.name };
  }
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.length === 0) throw new AppError("invalid-input", "The request has no body: send the bundle file.");
  if (bytes.length > MAX_BUNDLE_BYTES) throw new AppError("invalid-input", `This file is ${bytes.length} bytes; bundles up to ${MAX_BUNDLE_BYTES} bytes are accepted.`);
  return { bytes, name: request.headers.get("x-file-name") ?? "upload" };
}

/**
 * Imports a bundle: multipart `file`, or the raw file as the body. 422 `invalid-dataset` with what is
 * wrong for a truncated, tampered, malformed or newer-format file (nothing stored); 409 for a bundle
 * whose runs are partly here already.
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
    }),
    { status: result.created ? 201 : 200 },
  );
});
