import { AppError, isAppError } from "@/lib/domain/errors";
import { importListResponseSchema, importRequestSchema, importResponseSchema } from "@/lib/domain/paper-import";
import { getServerContext } from "@/lib/server/app-context";
import { errorResponse, handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The authors' logs in the shared data folder and which were imported (lib/domain/paper-import.ts). */
export const GET = handle(async () => Response.json(importListResponseSchema.parse(await getServerContext().imports.list())));

/**
 * Imports logs: JSON `{ paths }` (entries of GET) or multipart uploads (`file`
 * fields; several env_results_trial_N.json files form one ALFWorld import).
 * A bad file answers 400 naming the file and line, and nothing of it is stored.
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
    const form = await request.formData();
    const files = form.getAll("file").filter((entry): entry is File => typeof entry !== "string");
    if (files.length === 0) throw new AppError("invalid-input", "No file was uploaded: send one or more `file` fields.");
    const uploads = await Promise.all(files.map(async (file) => ({ name: file.name, content: await file.text() })));
    return Response.json(importResponseSchema.parse({ imports: await imports.importUploads(uploads) }));
  }
  const body = importRequestSchema.parse(await request.json());
  return Response.json(importResponseSchema.parse({ imports: await imports.importPaths(body.paths) }));
}
