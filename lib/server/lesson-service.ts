import { getServerContext } from "./app-context";
import { LessonService } from "./lesson-library";

/**
 * The process's lesson service (routes and server pages). The service itself — folder lessons,
 * lessons written in the app, the runs they play — is lib/server/lesson-library.ts; parseLessonFile
 * is lib/lessons/parse-lesson-file.ts. Both are re-exported here for the callers that import them from this module.
 */
export { DEFAULT_LESSONS_DIR, LessonService, type LessonInput } from "./lesson-library";
export { parseLessonFile } from "@/lib/lessons/parse-lesson-file";

type GlobalWithLessons = typeof globalThis & { __reflexionLessonService?: LessonService };

/** The process's lesson service, over {@link getServerContext} (routes and server pages). */
export function getLessonService(): LessonService {
  const holder: GlobalWithLessons = globalThis;
  holder.__reflexionLessonService ??= new LessonService(getServerContext());
  return holder.__reflexionLessonService;
}
