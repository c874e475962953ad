import { createHash } from "node:crypto";
import path from "node:path";
import { PassThrough } from "node:stream";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/domain/errors";
import { lessonFileText } from "@/lib/lessons/lesson-file";
import { parseLessonFile } from "@/lib/lessons/parse-lesson-file";
import type { ServerContext } from "@/lib/server/app-context";
import { LessonService } from "@/lib/server/lesson-library";
import { finishedRun, sqliteContext } from "../bundles/helpers";
import { authoredLesson } from "./authored-fixture";

/**
 * Lessons written in the app (docs/decisions/0043-class-sessions.md): stored beside the folder's,
 * over any stored run (played as it is, no new run), refused when they shadow a folder lesson or do
 * not fit the run's log, and carried in a run's format-2 bundle (stored on import, an id clash
 * renamed, a tampered lesson refused with nothing stored).
 */

const LESSONS_DIR = path.resolve("lessons");
const contexts: ServerContext[] = [];
let source: ServerContext;
let runId: string;

function fresh(): ServerContext {
  const { context } = sqliteContext();
  contexts.push(context);
  return context;
}

function lessonsOf(context: ServerContext): LessonService {
  return new LessonService(context, { dir: LESSONS_DIR });
}

async function codeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    if (isAppError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  return "no error";
}

beforeAll(async () => {
  source = fresh();
  runId = (await finishedRun(source, "qa")).id;
}, 120_000);
afterAll(async () => {
  for (const context of contexts) {
    await context.workers.stop();
    await context.store.close();
  }
});

describe("authored lessons", () => {
  it("a lesson over a stored run is saved, listed with the folder's as authored, and plays that run without making one", async () => {
    const lessons = lessonsOf(source);
    const saved = await lessons.save({ lesson: authoredLesson(runId), introduction: "Before class." });
    expect(saved.source).toBe("authored");
    const { lessons: listed, problems } = await lessons.list();
    expect(problems).toEqual([]);
    expect(listed.filter((document) => document.source === "folder").length).toBeGreaterThanOrEqual(5);
    const mine = listed.find((document) => document.lesson.id === "my-class-lesson");
    expect(mine).toMatchObject({ source: "authored", introduction: "Before class.", file: "my-class-lesson.md" });
    const before = (await source.store.listRuns(50)).length;
    expect(await lessons.ensureRun("my-class-lesson")).toEqual({ runId, reused: true });
    expect((await source.store.listRuns(50)).length).toBe(before);
    // The download parses back as the same lesson.
    const file = await lessons.fileOf("my-class-lesson");
    expect(file.fileName).toBe("my-class-lesson.md");
    expect(parseLessonFile(file.fileName, file.text).lesson).toEqual(mine?.lesson);
  });

  it("refuses a folder lesson's id (409, saying what to do), a run that is not here, the wrong family, and steps the log does not have", async () => {
    const lessons = lessonsOf(source);
    expect(await codeOf(lessons.save({ lesson: authoredLesson(runId, { id: "why-reflexion-qa" }) }))).toMatch(/^conflict: .*lessons folder already has a lesson "why-reflexion-qa".*another id, e\.g\. why-reflexion-qa-2/);
    expect(await codeOf(lessons.save({ lesson: authoredLesson("run_not_here", { id: "nowhere" }) }))).toMatch(/^not-found: .*run_not_here.*import that run/);
    expect(await codeOf(lessons.save({ lesson: authoredLesson(runId, { id: "wrong-family", family: "household" }) }))).toMatch(/^invalid-input: family: .* must be qa/);
    const far = authoredLesson(runId, { id: "too-far" });
    far.steps[1] = { ...far.steps[1]!, question: { kind: "evaluator-verdict", trial: 9, tests: "internal", prompt: "?", explanation: "." } };
    expect(await codeOf(lessons.save({ lesson: far }))).toMatch(/^invalid-input: .*step 2 \(Predict the verdict\), question: The run has no evaluation of trial 9/);
    const practice = authoredLesson(runId, { id: "no-fail" });
    practice.steps[2] = { ...practice.steps[2]!, practice: { trial: 2 } };
    expect(await codeOf(lessons.save({ lesson: practice }))).toMatch(/step 3 \(Your turn\), practice: Trial 2 did not fail/);
    expect(await codeOf(lessons.save({ text: "---\nid: Bad Id\n---\n" }))).toMatch(/^invalid-input: lesson: id: use lower-case words/);
    expect((await lessons.list()).lessons.map((document) => document.lesson.id)).not.toContain("too-far");
  });

  it("delete removes an authored lesson only: a folder lesson is refused (delete the file), an unknown one is 404", async () => {
    const lessons = lessonsOf(source);
    await lessons.save({ lesson: authoredLesson(runId, { id: "short-lived" }) });
    await lessons.remove("short-lived");
    expect((await lessons.list()).lessons.map((document) => document.lesson.id)).not.toContain("short-lived");
    expect(await codeOf(lessons.remove("short-lived"))).toMatch(/^not-found/);
    expect(await codeOf(lessons.remove("why-reflexion-qa"))).toMatch(/^conflict: .*delete lessons\/why-reflexion-qa\.md/);
  });

  it("import: the same file twice is kept once; another lesson with a taken id gets a free one and says so", async () => {
    const lessons = lessonsOf(source);
    const text = lessonFileText(authoredLesson(runId, { id: "imported-one" }), "Hello");
    expect((await lessons.importLesson({ text })).unchanged).toBe(false);
    const again = await lessons.importLesson({ text });
    expect(again).toMatchObject({ unchanged: true });
    const other = await lessons.importLesson({ text: lessonFileText(authoredLesson(runId, { id: "imported-one", title: "Another one" }), "") });
    expect(other.renamedFrom).toBe("imported-one");
    expect(other.document.lesson.id).toBe("imported-one-2");
    const folder = await lessons.importLesson({ text: lessonFileText(authoredLesson(runId, { id: "why-reflexion-qa" }), "") });
    expect(folder.document.lesson.id).toBe("why-reflexion-qa-2");
    // Imported again: found under the free id it was given, not stored a third time.
    const twice = await lessons.importLesson({ text: lessonFileText(authoredLesson(runId, { id: "why-reflexion-qa" }), "") });
    expect(twice).toMatchObject({ unchanged: true, document: { lesson: { id: "why-reflexion-qa-2" } } });
  });
});

async function collect(write: (out: PassThrough) => Promise<unknown>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on("data", (chunk: Buffer) => chunks.push(chunk));
  await write(out);
  return Buffer.concat(chunks);
}

function lines(file: Buffer): Array<Record<string, unknown>> {
  return gunzipSync(file)
    .toString("utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** `file` with its lines changed by `edit`, gzip'd again with the trailer's hash recomputed (only the schema can refuse it). */
function rehashed(file: Buffer, edit: (records: Array<Record<string, unknown>>) => void): Buffer {
  const all = lines(file);
  edit(all);
  const texts = all.map((line) => JSON.stringify(line));
  const digest = createHash("sha256");
  for (const text of texts.slice(1, -1)) digest.update(`${text}\n`);
  const trailer = JSON.parse(texts[texts.length - 1] ?? "{}") as Record<string, unknown>;
  texts[texts.length - 1] = JSON.stringify({ ...trailer, contentSha256: digest.digest("hex") });
  return gzipSync(Buffer.from(`${texts.join("\n")}\n`));
}

describe("lessons in bundles", () => {
  let bundle: Buffer;
  beforeAll(async () => {
    await lessonsOf(source).save({ lesson: authoredLesson(runId, { id: "bundled-lesson" }), introduction: "In the bundle." });
    bundle = await collect((out) => source.bundles.exportRunTo(out, runId));
  });

  it("a run's bundle carries the authored lessons that play it, after the runs and before the trailer", () => {
    const all = lines(bundle);
    const lessonLines = all.filter((line) => line.type === "lesson");
    const ids = lessonLines.map((line) => (line.lesson as { id: string }).id);
    expect(ids).toContain("bundled-lesson");
    expect(ids).toContain("my-class-lesson");
    expect(all.findIndex((line) => line.type === "lesson")).toBeGreaterThan(all.findIndex((line) => line.type === "run"));
    expect(all.at(-1)?.type).toBe("trailer");
  });

  it("import stores them as authored lessons over the imported run; an id taken here gets a suffix and the report says so", async () => {
    const target = fresh();
    const lessons = lessonsOf(target);
    // An unrelated authored lesson here already has the id (on a run of this database).
    const local = (await finishedRun(target, "qa")).id;
    await lessons.save({ lesson: authoredLesson(local, { id: "bundled-lesson", title: "Ours" }) });
    const imported = await target.bundles.importBundle(bundle, "class.reflexion.json.gz");
    expect(imported.bundle.runIds).toEqual([runId]);
    expect(imported.notes.join("\n")).toMatch(/Lesson "Our run, step by step" was added as bundled-lesson-2: a lesson "bundled-lesson" is here already/);
    const listed = (await lessons.list()).lessons;
    const copy = listed.find((document) => document.lesson.id === "bundled-lesson-2");
    expect(copy).toMatchObject({ source: "authored", introduction: "In the bundle.", lesson: { run: { kind: "stored", runId } } });
    expect(listed.find((document) => document.lesson.id === "bundled-lesson")?.lesson.title).toBe("Ours");
    expect(await lessons.ensureRun("bundled-lesson-2")).toEqual({ runId, reused: true });
  }, 120_000);

  it("a tampered lesson record is refused, with nothing stored: a changed byte by the hash, a lesson that is not valid by the lesson schema", async () => {
    for (const file of [
      // The lesson's title changed after export: the hash no longer matches.
      gzipSync(Buffer.from(gunzipSync(bundle).toString("utf8").replace("Our run, step by step", "Our run, changed"))),
      // A lesson no lesson file could hold, with the hash made to match.
      rehashed(bundle, (records) => {
        const record = records.find((line) => line.type === "lesson");
        if (record) record.lesson = { ...(record.lesson as object), id: "Not An Id" };
      }),
      // A lesson over a run that is not in the bundle.
      rehashed(bundle, (records) => {
        const record = records.find((line) => line.type === "lesson");
        if (record) record.lesson = { ...(record.lesson as object), run: { kind: "stored", runId: "run_elsewhere" } };
      }),
    ]) {
      const target = fresh();
      await expect(target.bundles.importBundle(file, "tampered.reflexion.json.gz")).rejects.toThrow(/changed after it was exported|does not match the bundle format at line \d+, lesson\.id|does not play a run of this bundle/);
      expect(await target.store.listRuns(10)).toEqual([]);
      expect(await target.bundles.listBundles()).toEqual([]);
      expect((await lessonsOf(target).list()).lessons.filter((document) => document.source === "authored")).toEqual([]);
    }
  }, 60_000);
});
