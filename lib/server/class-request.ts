import type { z } from "zod";
import { CLASS_STUDENT_HEADER, CLASS_TEACHER_HEADER } from "@/lib/domain/class-session";
import { readRequestJson } from "@/lib/io/bounded-body";
import type { TeacherCredential } from "./class-service";

/**
 * What the class routes (app/api/classes/**) read from a request: a small JSON body, the teacher
 * secret and the student token headers.
 */

/** Most bytes of a class request body (a reflection of 600 characters, in UTF-8 and JSON, fits easily), bytes. */
export const CLASS_BODY_BYTES = 8 * 1024;

/**
 * The request's JSON body parsed with `schema`, at most {@link CLASS_BODY_BYTES}.
 * @throws AppError("too-large"); SyntaxError for invalid JSON; ZodError naming the field (all 400/413 by `handle`).
 */
export async function classBody<S extends z.ZodType>(request: Request, schema: S, what: string): Promise<z.output<S>> {
  return schema.parse(await readRequestJson(request, CLASS_BODY_BYTES, what));
}

/** The teacher secret of `x-class-teacher` (null when absent). */
export function teacherCredential(request: Request): TeacherCredential {
  return { secret: request.headers.get(CLASS_TEACHER_HEADER)?.trim() || null };
}

/** The student token of `x-class-student` (null when absent). */
export function studentToken(request: Request): string | null {
  return request.headers.get(CLASS_STUDENT_HEADER)?.trim() || null;
}
