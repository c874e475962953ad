import { AppError } from "@/lib/domain/errors";
import { MAX_JSON_BODY_BYTES, readFormDataBounded, readTextBounded } from "@/lib/io/bounded-body";
import { getLessonService } from "@/lib/server/lesson-service";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The uploaded lesson file: the multipart `file` field, or the raw body (`?name=` gives its file name). */
async function uploadOf(request: Request): Promise<{ name: string; text: string }> {
  const type = request.headers.get("content-type") ?? "";
  if (type.startsWith("multipart/form-data")) {
    const form = await readFormDataBounded(request, MAX_JSON_BODY_BYTES, "lesson file");
    const file = form.get("file");
    if (!(file instanceof File)) throw new AppError("invalid-input", "Send the lesson as a multipart field named file (a .md file from Export), or as the request body.");
    return { name: file.name || "lesson.md", text: await file.text() };
  }
  const name = new URL(request.url).searchParams.get("name")?.trim().slice(0, 200) || "lesson.md";
  return { name, text: await readTextBounded(request, MAX_JSON_BODY_BYTES, "lesson file") };
}

/**
 * Imports a lesson file (`.md`: YAML front matter + introduction, as Export writes and `lessons/*.md`
 * hold) as a lesson written in the app. 201 with `{ lesson, renamedFrom? }`: when its id is taken
 * (a folder lesson, or another authored lesson) it is stored as `<id>-2`… and `renamedFrom` names the
 * id it had. 400 naming the file, step and field when it does not validate; nothing is stored then.
 */
export const POST = handle(async (request: Request) => {
  const upload = await uploadOf(request);
  if (!upload.text.trim()) throw new AppError("invalid-input", `${upload.name} is empty: pick a lesson .md file (Export on a lesson's edit page writes one).`);
  const result = await getLessonService().importLesson({ text: upload.text }, { file: upload.name });
  return Response.json({ lesson: result.document, ...(result.renamedFrom ? { renamedFrom: result.renamedFrom } : {}) }, { status: result.unchanged ? 200 : 201 });
});
