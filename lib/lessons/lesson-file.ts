import YAML from "yaml";
import type { Lesson } from "./lesson-schema";

/**
 * A lesson as a `.md` file (the format of `lessons/*.md`, docs/guides/teaching.md): the whole
 * lesson as YAML front matter between `---` lines, then its introduction (Markdown) as the body.
 * Written with the `yaml` package; read back by parseLessonFile (lib/server/lesson-service.ts,
 * gray-matter), which gives the same lesson (tests/lessons/lesson-file.test.ts). Pure: the
 * authoring page uses it for a draft's Export too.
 */

/** The file's front matter keys in the order a person reads them (the schema's order). */
const KEY_ORDER: ReadonlyArray<keyof Lesson> = ["id", "title", "summary", "family", "minutes", "run", "steps"];

/**
 * The text of a lesson file: `---`, the lesson as YAML (no line folding, so narration keeps its
 * lines), `---`, a blank line and the introduction (omitted when empty).
 */
export function lessonFileText(lesson: Lesson, introduction = ""): string {
  const ordered = Object.fromEntries(KEY_ORDER.map((key) => [key, lesson[key]]));
  const front = YAML.stringify(ordered, { lineWidth: 0, minContentWidth: 0 });
  const body = introduction.trim();
  return `---\n${front}---\n${body ? `\n${body}\n` : ""}`;
}

/** The download name of a lesson's file: `<id>.md`. */
export function lessonFileName(lessonId: string): string {
  return `${lessonId}.md`;
}
