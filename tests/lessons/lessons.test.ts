import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { codeDemoScriptBook } from "@/lib/environments/code/demo-script";
import { householdDemoScriptBook } from "@/lib/environments/household/demo-script";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { lessonSchema, type Lesson } from "@/lib/lessons/lesson-schema";
import { derivePrediction } from "@/lib/lessons/predictions";
import { LessonResolveError, resolveCursor, resolveNode } from "@/lib/lessons/resolve-lesson";
import { createModelPort } from "@/lib/llm/model-port";
import { PaperImportService } from "@/lib/importers/import-service";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { LessonService, parseLessonFile } from "@/lib/server/lesson-service";
import { demoMockModel } from "../helpers/mock-model";

/**
 * Lessons as data: every shipped lesson file validates, every cursor,
 * spotlight and question resolves on the run the lesson service makes for it (the demo
 * model through the real service), and the predictions' answers come from the log.
 */

const LESSONS_DIR = path.resolve("lessons");
const contexts: ServerContext[] = [];
afterAll(async () => {
  for (const context of contexts) await context.workers.stop();
});

function setup() {
  const mock = demoMockModel([qaDemoScriptBook, householdDemoScriptBook, codeDemoScriptBook]);
  const context = createServerContext({ store: new MemoryRunStore(), model: createModelPort({ resolveModel: () => mock, maxRetries: 0 }) });
  contexts.push(context);
  return { context, lessons: new LessonService(context, { dir: LESSONS_DIR }), mock };
}

async function playedRun(context: ServerContext, service: LessonService, lessonId: string): Promise<RunEvent[]> {
  const { runId } = await service.ensureRun(lessonId);
  const run = await context.service.getRun(runId);
  await context.workers.untilSettled(run.rootBranchId);
  return (await context.service.events(runId)).events;
}

const shipped = fs.readdirSync(LESSONS_DIR).filter((name) => name.endsWith(".md")).sort();
const builtin = shipped.filter((name) => parseLessonFile(name, fs.readFileSync(path.join(LESSONS_DIR, name), "utf8")).lesson.run.kind === "builtin");

describe("shipped lesson files", () => {
  it("all load and validate, with unique ids, and the three built-in lessons are there", async () => {
    const { lessons } = setup();
    const { lessons: loaded, problems } = await lessons.list();
    expect(problems).toEqual([]);
    expect(loaded).toHaveLength(shipped.length);
    expect(new Set(loaded.map((document) => document.lesson.id)).size).toBe(loaded.length);
    const byFamily = (family: Lesson["family"]) => loaded.filter((document) => document.lesson.family === family && document.lesson.run.kind === "builtin");
    expect(byFamily("qa").map((document) => document.lesson.title)).toContain("Why Reflexion: one QA failure becomes a lesson");
    expect(byFamily("household").map((document) => document.lesson.title)).toContain("Loops and the household world");
    expect(byFamily("code").map((document) => document.lesson.title)).toContain("When the Evaluator lies: a false positive in code");
    // Each built-in lesson asks at least two predictions.
    for (const document of loaded.filter((entry) => entry.lesson.run.kind === "builtin")) expect(document.lesson.steps.filter((step) => step.question).length).toBeGreaterThanOrEqual(2);
  });

  it.each(builtin)("%s: every cursor, spotlight and question resolves on its demo run", { timeout: 120_000 }, async (file) => {
    const { context, lessons } = setup();
    const { lesson } = parseLessonFile(file, fs.readFileSync(path.join(LESSONS_DIR, file), "utf8"));
    const events = await playedRun(context, lessons, lesson.id);
    let previous = -1;
    for (const [index, step] of lesson.steps.entries()) {
      const cursor = resolveCursor(events, step.cursor);
      expect(cursor, `step ${index + 1} (${step.title})`).toBeGreaterThanOrEqual(0);
      expect(cursor).toBeLessThanOrEqual(events.length);
      // Steps move forwards through the run, never back.
      expect(cursor, `step ${index + 1} moves forwards`).toBeGreaterThanOrEqual(previous);
      previous = cursor;
      for (const selector of step.spotlight) {
        const id = resolveNode(events, selector);
        // A spotlit node is drawn at the step's cursor (or, for a question, once it is revealed).
        const at = events.findIndex((event) => event.id === id);
        const reveal = step.question ? derivePrediction(events, step.question).revealCursor : cursor;
        expect(at, `step ${index + 1}: ${selector.kind} of trial ${selector.trial} is shown`).toBeLessThan(Math.max(cursor, reveal));
      }
      if (step.question) {
        const prediction = derivePrediction(events, step.question);
        // Asked before the answer is in the graph, revealed after.
        expect(prediction.revealCursor, `step ${index + 1} reveals later`).toBeGreaterThan(cursor);
        expect(prediction.choices.map((choice) => choice.id)).toContain(prediction.answer);
      }
      if (step.practice) expect(foldRun(events.slice(0, cursor)).trials.find((trial) => trial.trial === step.practice?.trial)?.outcome).not.toBe("success");
    }
  });
});

describe("lesson runs", () => {
  it("are made once and reused: concurrent and later calls return the same run", { timeout: 60_000 }, async () => {
    const { context, lessons } = setup();
    const [first, second] = await Promise.all([lessons.ensureRun("why-reflexion-qa"), lessons.ensureRun("why-reflexion-qa")]);
    expect(first.runId).toBe(second.runId);
    const run = await context.service.getRun(first.runId);
    await context.workers.untilSettled(run.rootBranchId);
    const again = await lessons.ensureRun("why-reflexion-qa");
    expect(again).toEqual({ runId: first.runId, reused: true });
    expect((await context.store.listRuns(10)).length).toBe(1);
  });

  it("are not reused once their root branch was edited", { timeout: 60_000 }, async () => {
    const { context, lessons } = setup();
    const events = await playedRun(context, lessons, "why-reflexion-qa");
    const { runId } = await lessons.ensureRun("why-reflexion-qa");
    const reflection = events.find((event) => event.type === "reflection-end");
    if (!reflection) throw new Error("the demo run has no reflection");
    await context.store.append(reflection.runId, reflection.branchId, [
      { type: "reflection-edit", data: { reflectionEventId: reflection.id, oldText: "x", newText: "y", note: null } },
    ]);
    const next = await lessons.ensureRun("why-reflexion-qa");
    expect(next.reused).toBe(false);
    expect(next.runId).not.toBe(runId);
  });

  it("an unknown lesson is a not-found error naming the lessons there are", async () => {
    const { lessons } = setup();
    await expect(lessons.ensureRun("no-such-lesson")).rejects.toThrow(/No lesson "no-such-lesson". Lessons: .*why-reflexion-qa/);
  });
});

describe("predictions are derived from the log", () => {
  it("QA: trial 1's verdict, the next action, the unchanged first action, the success trial", { timeout: 60_000 }, async () => {
    const { context, lessons } = setup();
    const events = await playedRun(context, lessons, "why-reflexion-qa");
    const state = foldRun(events);
    const verdict = derivePrediction(events, { kind: "evaluator-verdict", trial: 1, tests: "internal", prompt: "?", explanation: "." });
    expect(verdict.answer).toBe(state.trials[0]?.evaluation?.verdict);
    expect(verdict.answer).toBe("fail");
    const next = derivePrediction(events, { kind: "next-action", trial: 1, step: 2, distractors: ["Search[Dunmere]"], prompt: "?", explanation: "." });
    expect(next.choices.find((choice) => choice.id === next.answer)?.label).toBe(state.trials[0]?.steps[1]?.action?.text);
    expect(next.choices.map((choice) => choice.label).sort()).toEqual(["Finish[Dunmere]", "Search[Dunmere]"]);
    expect(() => derivePrediction(events, { kind: "next-action", trial: 1, step: 2, distractors: ["Finish[Dunmere]"], prompt: "?", explanation: "." })).toThrow(LessonResolveError);
    const first = derivePrediction(events, { kind: "reflection-changes-first-action", trial: 2, prompt: "?", explanation: "." });
    expect(first.answer).toBe(state.trials[0]?.steps[0]?.action?.text === state.trials[1]?.steps[0]?.action?.text ? "same" : "changes");
    expect(first.answer).toBe("same");
    const curve = derivePrediction(events, { kind: "curve", prompt: "?", explanation: "." });
    expect(curve.answer).toBe("trial-2");
    expect(curve.choices).toHaveLength(state.config!.maxTrials + 1);
    expect(curve.revealCursor).toBe(events.length - (events.length - 1 - events.findIndex((event) => event.type === "run-end")));
  });

  it("code: the hidden tests fail while the internal ones pass, and the run never succeeds", { timeout: 120_000 }, async () => {
    const { context, lessons } = setup();
    const events = await playedRun(context, lessons, "evaluator-false-positive");
    const internal = derivePrediction(events, { kind: "evaluator-verdict", trial: 1, tests: "internal", prompt: "?", explanation: "." });
    const hidden = derivePrediction(events, { kind: "evaluator-verdict", trial: 1, tests: "hidden", prompt: "?", explanation: "." });
    expect([internal.answer, hidden.answer]).toEqual(["pass", "fail"]);
    expect(derivePrediction(events, { kind: "curve", prompt: "?", explanation: "." }).answer).toBe("never");
  });

  it("household: the reflection changes trial 2's first action", { timeout: 120_000 }, async () => {
    const { context, lessons } = setup();
    const events = await playedRun(context, lessons, "household-loops");
    expect(derivePrediction(events, { kind: "reflection-changes-first-action", trial: 2, prompt: "?", explanation: "." }).answer).toBe("changes");
    expect(derivePrediction(events, { kind: "evaluator-verdict", trial: 1, tests: "internal", prompt: "?", explanation: "." }).answer).toBe("fail");
  });
});

describe("lesson schema", () => {
  const base = {
    id: "x-lesson",
    title: "X",
    summary: "S",
    family: "qa",
    minutes: 3,
    run: { kind: "builtin", environment: "qa", taskId: "qa-builtin-01", strategy: "reflexion" },
    steps: [{ title: "One", narration: "Text", cursor: { event: "trial-start", trial: 1 } }],
  };

  it("accepts a minimal lesson and fills defaults", () => {
    const lesson = lessonSchema.parse(base);
    expect(lesson.steps[0]?.cursor.edge).toBe("after");
    expect(lesson.steps[0]?.spotlight).toEqual([]);
  });

  it.each([
    ["a trial cursor without a trial", { steps: [{ title: "One", narration: "Text", cursor: { event: "evaluation" } }] }, /needs a trial/],
    ["a step on an evaluation", { steps: [{ title: "One", narration: "Text", cursor: { event: "evaluation", trial: 1, step: 2 } }] }, /only thought, action and observation/],
    ["an unknown field (a typo)", { steps: [{ title: "One", narration: "Text", cursr: {} }] }, /Unrecognized key|cursor/],
    ["a run of another family", { family: "code" }, /must be the lesson's family/],
    ["a family that does not exist", { family: "quiz" }, /unknown family \\"quiz\\": use one of qa, household, code/],
    ["an id with spaces", { id: "My lesson" }, /lower-case words/],
    ["a next-action question without distractors", { steps: [{ title: "One", narration: "Text", cursor: { event: "trial-start", trial: 1 }, question: { kind: "next-action", trial: 1, step: 1, distractors: [], prompt: "?", explanation: "." } }] }, /distractors/],
  ])("rejects %s with a message that names it", (_label, change, message) => {
    const result = lessonSchema.safeParse({ ...base, ...change });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toMatch(message);
  });

  it("a broken file is listed as a problem with its name, and the others still load", async () => {
    const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? "/tmp", "lessons-"));
    fs.writeFileSync(path.join(dir, "good.md"), `---\n${JSON.stringify(base)}\n---\nIntro`);
    fs.writeFileSync(path.join(dir, "bad.md"), `---\nid: bad\ntitle: [unclosed\n---\n`);
    const { context } = setup();
    const { lessons, problems } = await new LessonService(context, { dir }).list();
    expect(lessons.map((document) => [document.lesson.id, document.introduction])).toEqual([["x-lesson", "Intro"]]);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.file).toBe("bad.md");
    expect(problems[0]?.message).toMatch(/bad\.md/);
  });
});

describe("the lesson over the authors' imported HotpotQA run", () => {
  const file = "paper-hotpotqa-search-loop.md";
  const dataRoot = path.resolve("../shared/data");

  it.runIf(fs.existsSync(path.join(dataRoot, "reflexion")))("imports the log once and resolves every step on the question's run", { timeout: 180_000 }, async () => {
    const { context, lessons } = setup();
    const { lesson } = parseLessonFile(file, fs.readFileSync(path.join(LESSONS_DIR, file), "utf8"));
    expect(lesson.run.kind).toBe("imported");
    const first = await lessons.ensureRun(lesson.id);
    const events = (await context.service.events(first.runId)).events;
    const state = foldRun(events);
    expect(state.config?.provenance).not.toBeNull();
    // The authors' run solved this question in trial 2.
    expect(state.trials.map((trial) => trial.outcome)).toEqual(["halted", "success"]);
    for (const step of lesson.steps) {
      const cursor = resolveCursor(events, step.cursor);
      for (const selector of step.spotlight) expect(() => resolveNode(events, selector)).not.toThrow();
      if (step.question) expect(derivePrediction(events, step.question).revealCursor).toBeGreaterThan(cursor);
    }
    expect(derivePrediction(events, { kind: "reflection-changes-first-action", trial: 2, prompt: "?", explanation: "." }).answer).toBe("changes");
    // A second call reuses the import (content hash): same run, nothing new.
    const again = await lessons.ensureRun(lesson.id);
    expect(again).toEqual({ runId: first.runId, reused: true });
  });

  it("without a data folder, says where to put the log and which command imports it", async () => {
    const { context } = setup();
    const service = new LessonService({ ...context, imports: new PaperImportService(context.store, context.experiments, { dataRoot: null }) }, { dir: LESSONS_DIR });
    await expect(service.ensureRun("paper-hotpotqa-search-loop")).rejects.toThrow(/REFLEXION_DATA_ROOT.*import-logs/);
  });
});
