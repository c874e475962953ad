import { z } from "zod";
import { AppError, isAppError } from "@/lib/domain/errors";
import { MAX_IMPORT_UPLOAD_BYTES } from "@/lib/domain/paper-import";
import { traceImportResponseSchema, type TraceImportFailure, type TraceImportResult } from "@/lib/domain/trace-import";
import { isTraceFormatError, TRACE_FORMAT_CHOICES } from "@/lib/importers/external/formats";
import { readBodyBounded, readFormDataBounded } from "@/lib/io/bounded-body";
import { gunzipBounded, isGzip, maxInflatedBytes } from "@/lib/io/gunzip-bounded";
import { getServerContext } from "@/lib/server/app-context";
import { handle, publicError } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const querySchema = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  format: z.enum(TRACE_FORMAT_CHOICES).default("auto"),
});

/**
 * Imports outside agents' trace files (lib/server/trace-import-service.ts): multipart `file`
 * field(s), or the raw body with `?name=<file name>`; `?format=auto|otlp|inspect|langsmith|langfuse`
 * (default `auto`: sniffed). A gzip'd file is inflated within `REFLEXION_MAX_INFLATED_MB` (one budget
 * for the request's files together). Each file is imported on its own: one that cannot be read
 * (nothing of it is stored) does not stop the others. Answers 200 with `{ imports: [{ file,
 * experimentId, runIds, format, traces, problems, reused }], failed: [{ file, index, code, message, formatMayHelp }] }`
 * (lib/domain/trace-import.ts) when at least one file was imported; when none was, 400 with the
 * first failure as `{ error: { code, message } }` plus `imports: []` and the `failed` list. A request
 * that is not an upload of files (a bad `format`, no file, a body over 64 MB: 413) answers its error alone.
 */
export const POST = handle(async (request: Request) => {
  const { traceImports } = getServerContext();
  const url = new URL(request.url);
  const query = querySchema.safeParse({ name: url.searchParams.get("name") ?? undefined, format: url.searchParams.get("format") ?? undefined });
  if (!query.success) throw new AppError("invalid-input", `format must be one of ${TRACE_FORMAT_CHOICES.join(", ")}; name at most 200 characters.`);
  const uploads = await uploadsOf(request, query.data.name);
  // One decompression budget for the request's files together, so several bombs cannot add up.
  const budget = maxInflatedBytes();
  let used = 0;
  const imports: TraceImportResult[] = [];
  const failed: TraceImportFailure[] = [];
  let firstStatus = 400;
  for (const [index, upload] of uploads.entries()) {
    try {
      let bytes = upload.bytes;
      let name = upload.name;
      if (isGzip(bytes)) {
        bytes = new Uint8Array(await gunzipBounded(bytes, { what: `trace file ${name}`, maxBytes: Math.max(0, budget - used) }));
        used += bytes.byteLength;
        name = name.replace(/\.gz$/i, "");
      }
      imports.push(await traceImports.importFile({ name, bytes, format: query.data.format }));
    } catch (error) {
      // Only a file's own errors are its failure (what a client may be told, as for any error); anything else fails the request.
      if (!isAppError(error)) throw error;
      // A file nothing could be read from is bad input like any other (400, as before the list), not 422.
      if (failed.length === 0 && !isAppError(error, "invalid-dataset")) firstStatus = publicError(error).status;
      failed.push({ file: upload.name, index, code: error.code, message: error.message, formatMayHelp: isTraceFormatError(error) });
    }
  }
  const body = traceImportResponseSchema.parse({ imports, failed });
  if (imports.length > 0) return Response.json(body);
  const first = failed[0]!;
  return Response.json({ error: { code: first.code, message: first.message }, ...body }, { status: firstStatus });
});

/** The request's files: multipart `file` fields, or the raw body named by `?name=`. */
async function uploadsOf(request: Request, name: string | undefined): Promise<Array<{ name: string; bytes: Uint8Array }>> {
  if ((request.headers.get("content-type") ?? "").includes("multipart/form-data")) {
    const form = await readFormDataBounded(request, MAX_IMPORT_UPLOAD_BYTES, "trace upload");
    const files = form.getAll("file").filter((entry): entry is File => typeof entry !== "string");
    if (files.length === 0) throw new AppError("invalid-input", "No file was uploaded: send one or more `file` fields, or the file as the body with ?name=<file name>.");
    return Promise.all(files.map(async (file) => ({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) })));
  }
  const bytes = await readBodyBounded(request, MAX_IMPORT_UPLOAD_BYTES, "trace upload");
  if (bytes.byteLength === 0) throw new AppError("invalid-input", "The body is empty: send the trace file as the body (with ?name=<file name>) or as multipart `file` fields.");
  return [{ name: name ?? "upload.jsonl", bytes }];
}
