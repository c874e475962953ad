import { z } from "zod";
import { AppError, isAppError } from "@/lib/domain/errors";
import { MAX_IMPORT_UPLOAD_BYTES } from "@/lib/domain/paper-import";
import { traceImportResponseSchema, type TraceImportResult } from "@/lib/domain/trace-import";
import { TRACE_FORMAT_CHOICES } from "@/lib/importers/external/formats";
import { readBodyBounded, readFormDataBounded } from "@/lib/io/bounded-body";
import { gunzipBounded, isGzip, maxInflatedBytes } from "@/lib/io/gunzip-bounded";
import { getServerContext } from "@/lib/server/app-context";
import { errorResponse, handle } from "@/lib/server/http-errors";

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
 * for the request's files together). Answers `{ imports: [{ file, experimentId, runIds, format,
 * traces, problems, reused }] }` (lib/domain/trace-import.ts); a file in which nothing could be read
 * answers 400 naming the file and line, and nothing of it is stored; a body over 64 MB answers 413.
 */
export const POST = handle(async (request: Request) => {
  try {
    return await importFrom(request);
  } catch (error) {
    if (isAppError(error, "invalid-dataset")) return Response.json({ error: { code: error.code, message: error.message } }, { status: 400 });
    return errorResponse(error);
  }
});

async function importFrom(request: Request): Promise<Response> {
  const { traceImports } = getServerContext();
  const url = new URL(request.url);
  const query = querySchema.safeParse({ name: url.searchParams.get("name") ?? undefined, format: url.searchParams.get("format") ?? undefined });
  if (!query.success) throw new AppError("invalid-input", `format must be one of ${TRACE_FORMAT_CHOICES.join(", ")}; name at most 200 characters.`);
  const uploads: Array<{ name: string; bytes: Uint8Array }> = [];
  if ((request.headers.get("content-type") ?? "").includes("multipart/form-data")) {
    const form = await readFormDataBounded(request, MAX_IMPORT_UPLOAD_BYTES, "trace upload");
    const files = form.getAll("file").filter((entry): entry is File => typeof entry !== "string");
    if (files.length === 0) throw new AppError("invalid-input", "No file was uploaded: send one or more `file` fields, or the file as the body with ?name=<file name>.");
    for (const file of files) uploads.push({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) });
  } else {
    const bytes = await readBodyBounded(request, MAX_IMPORT_UPLOAD_BYTES, "trace upload");
    if (bytes.byteLength === 0) throw new AppError("invalid-input", "The body is empty: send the trace file as the body (with ?name=<file name>) or as multipart `file` fields.");
    uploads.push({ name: query.data.name ?? "upload.jsonl", bytes });
  }
  // One decompression budget for the request's files together, so several bombs cannot add up.
  const budget = maxInflatedBytes();
  let used = 0;
  const imports: TraceImportResult[] = [];
  for (const upload of uploads) {
    let bytes = upload.bytes;
    let name = upload.name;
    if (isGzip(bytes)) {
      bytes = new Uint8Array(await gunzipBounded(bytes, { what: `trace file ${name}`, maxBytes: Math.max(0, budget - used) }));
      used += bytes.byteLength;
      name = name.replace(/\.gz$/i, "");
    }
    imports.push(await traceImports.importFile({ name, bytes, format: query.data.format }));
  }
  return Response.json(traceImportResponseSchema.parse({ imports }));
}
