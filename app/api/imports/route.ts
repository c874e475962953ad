import { AppError, isAppError } from "@/lib/domain/errors";
import { importListResponseSchema, importRequestSchema, importResponseSchema, MAX_IMPORT_UPLOAD_BYTES } from "@/lib/domain/paper-import";
import { readFormDataBounded, readJsonBounded } from "@/lib/io/bounded-body";
import { isGzip, maxInflatedBytes, textOfUpload } from "@/lib/io/gunzip-bounded";
import { getServerContext } from "@/lib/server/app-context";
import { errorResponse, handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The authors' logs in the shared data folder and which were imported (lib/domain/paper-import.ts). */
export const GET = handle(async () => Response.json(importListResponseSchema.parse(await getServerContext().imports.list())));

/**
 * Imports logs: JSON `{ paths }` (entries of GET) or multipart uploads (`file`
 * fields; several env_results_trial_N.json files form one ALFWorld import).
 * A bad file answers 400 naming the file and line, and nothing of it is stored; a body over
 * 64 MB, or a gzip'd file that decompresses past `REFLEXION_MAX_INFLATED_MB`, 413 naming the limit.
 */
export const POST = handle(async (request: Request) => {
  try {
    return await importFrom(request);
  } catch (error) {
    // A malformed log is the request's fault: 400 (not the 422 of task-set uploads), keeping the code.
    if (isAppError(error, "invalid-dataset")) return Response.json({ error: { code: error.code, message: error.message } }, { status: 400 });
    return errorResponse(error);
  }
});

async function importFrom(request: Request): Promise<Response> {
  const { imports } = getServerContext();
  const type = request.headers.get("content-type") ?? "";
  if (type.includes("multipart/form-data")) {
    const form = await readFormDataBounded(request, MAX_IMPORT_UPLOAD_BYTES, "log upload");
    const files = form.getAll("file").filter((entry): entry is File => typeof entry !== "string");
    if (files.length === 0) throw new AppError("invalid-input", "No file was uploaded: send one or more `file` fields.");
    // One decompression budget for the request's files together, inflated one at a time, so several bombs cannot add up.
    const budget = maxInflatedBytes();
    let used = 0;
    const uploads: Array<{ name: string; content: string }> = [];
    for (const file of files) {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const content = await textOfUpload(bytes, { what: `log file ${file.name}`, maxBytes: Math.max(0, budget - used) });
      used += Buffer.byteLength(content);
      uploads.push({ name: isGzip(bytes) ? file.name.replace(/\.gz$/i, "") : file.name, content });
    }
    return Response.json(importResponseSchema.parse({ imports: await imports.importUploads(uploads) }));
  }
  const body = importRequestSchema.parse(await readJsonBounded(request, MAX_IMPORT_UPLOAD_BYTES, "import request"));
  return Response.json(importResponseSchema.parse({ imports: await imports.importPaths(body.paths) }));
}
