import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lessonFileText } from "@/lib/lessons/lesson-file";
import { lessonSchema } from "@/lib/lessons/lesson-schema";
import { parseLessonFile } from "@/lib/lessons/parse-lesson-file";
import { authoredLesson } from "./authored-fixture";

/**
 * A lesson's `.md` file (the Export download): written with the `yaml` package, read back with
 * parseLessonFile (gray-matter), it gives the same lesson and introduction — for every shipped
 * lesson file and for an authored lesson over a stored run.
 */

const LESSONS_DIR = path.resolve("lessons");
const shipped = fs.readdirSync(LESSONS_DIR).filter((name) => name.endsWith(".md")).sort();

describe("lesson file round trip", () => {
  it.each(shipped)("%s: export → parseLessonFile gives the same lesson and introduction", (file) => {
    const original = parseLessonFile(file, fs.readFileSync(path.join(LESSONS_DIR, file), "utf8"));
    const text = lessonFileText(original.lesson, original.introduction);
    const back = parseLessonFile(file, text);
    expect(back.lesson).toEqual(original.lesson);
    expect(back.introduction).toBe(original.introduction);
    expect(text.startsWith("---\nid: ")).toBe(true);
  });

  it("an authored lesson over a stored run (Markdown with colons, quotes and blank lines) round-trips", () => {
    const lesson = lessonSchema.parse(authoredLesson("run_01JABCDEF"));
    const introduction = "# Before class\n\nOpen the run: *watch* the graph.\n\n---\n\nThat line above is a rule, not front matter.";
    const back = parseLessonFile("mine.md", lessonFileText(lesson, introduction));
    expect(back.lesson).toEqual(lesson);
    expect(back.lesson.run).toEqual({ kind: "stored", runId: "run_01JABCDEF" });
    expect(back.introduction).toBe(introduction);
  });

  it("a stored run needs its run id: the schema names the field", () => {
    const result = lessonSchema.safeParse({ ...authoredLesson("x"), run: { kind: "stored" } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["run", "runId"]);
  });
});
