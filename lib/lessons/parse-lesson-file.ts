import matter from "gray-matter";
import { AppError } from "@/lib/domain/errors";
import { describeIssues } from "@/lib/domain/describe-issues";
import { lessonSchema, type LessonDocument } from "./lesson-schema";

/**
 * Reads a lesson file (`lessons/*.md`, an Export, a bundle's lesson): YAML front matter (gray-matter)
 * validated with lessonSchema, and the Markdown body as the introduction. Server side (gray-matter
 * reads Node buffers); lib/lessons/lesson-file.ts writes the same format.
 */

/** A lesson file's text parsed and validated; the error names the file and the field. */
export function parseLessonFile(file: string, text: string): LessonDocument {
  let parsed: matter.GrayMatterFile<string>;
  try {
    parsed = matter(text);
  } catch (error) {
    throw new AppError("invalid-input", `${file}: the front matter is not valid YAML (${error instanceof Error ? error.message.split("\n")[0] : String(error)}).`);
  }
  const result = lessonSchema.safeParse(parsed.data);
  if (!result.success) {
    throw new AppError("invalid-input", `${file}: ${describeIssues(result.error, "(lesson)", 5)}. See the lesson schema in docs/guides/teaching.md, "Writing a lesson".`);
  }
  return { lesson: result.data, introduction: parsed.content.trim(), file, source: "folder" };
}

