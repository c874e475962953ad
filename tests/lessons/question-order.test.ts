import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/domain/events";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { codeDemoScriptBook } from "@/lib/environments/code/demo-script";
import { householdDemoScriptBook } from "@/lib/environments/household/demo-script";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { PaperImportService } from "@/lib/importers/import-service";
import { questionOrderProblems } from "@/lib/lessons/question-order";
import type { Lesson } from "@/lib/lessons/lesson-schema";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { LessonService, parseLessonFile } from "@/lib/server/lesson-service";
import { demoMockModel } from "../helpers/mock-model";

/**
 * No lesson asks a question after its answer was shown (lib/lessons/question-order.ts): every
 * shipped lesson, on the run the lesson service makes for it (the demo model through the real
 * service; the authors' log when ../shared/data is there), and the rules on a broken copy.
 */

const LESSONS_DIR = path.resolve("lessons");
const DATA_ROOT = path.resolve(process.env.REFLEXION_DATA_ROOT ?? "../shared/data");
const contexts: ServerContext[] = [];
afterAll(async () => {
  for (const context of contexts) await context.workers.stop();
});

async function lessonRun(file: string): Promise<{ lesson: Lesson; events: RunEvent[] }> {
  const mock = demoMockModel([qaDemoScriptBook, householdDemoScriptBook, codeDemoScriptBook]);
  const base = createServerContext({ store: new MemoryRunStore(), model: createModelPort({ resolveModel: () => mock, maxRetries: 0 }) });
  const context = { ...base, imports: new PaperImportService(base.store, base.experiments, { dataRoot: DATA_ROOT }) };
  contexts.push(base);
  const service = new LessonService(context, { dir: LESSONS_DIR });
  const { lesson } = parseLessonFile(file, fs.readFileSync(path.join(LESSONS_DIR, file), "utf8"));
  const { runId } = await service.ensureRun(lesson.id);
  const run = await context.service.getRun(runId);
  await context.workers.untilSettled(run.rootBranchId);
  return { lesson, events: (await context.service.events(runId)).events };
}

const shipped = fs.readdirSync(LESSONS_DIR).filter((name) => name.endsWith(".md")).sort();
const playable = shipped.filter((name) => {
  const { lesson } = parseLessonFile(name, fs.readFileSync(path.join(LESSONS_DIR, name), "utf8"));
  return lesson.run.kind === "builtin" || fs.existsSync(path.join(DATA_ROOT, "reflexion"));
});

describe("no lesson asks a question after its answer was shown", () => {
  it.each(playable)("%s", { timeout: 180_000 }, async (file) => {
    const { lesson, events } = await lessonRun(file);
    expect(questionOrderProblems(lesson, events)).toEqual([]);
  });

  it("why-reflexion-qa asks the curve question before trial 2 submits River Sallow", { timeout: 120_000 }, async () => {
    const { lesson, events } = await lessonRun("why-reflexion-qa.md");
    const curve = lesson.steps.findIndex((step) => step.question?.kind === "curve");
    expect(curve).toBeGreaterThan(0);
    // Put it back where it was (the step before the last, after "The second hop" showed the answer): each rule catches it.
    const moved = { ...lesson, steps: [...lesson.steps.filter((_, index) => index !== curve)] };
    moved.steps.splice(moved.steps.length - 1, 0, { ...lesson.steps[curve]!, cursor: { event: "evaluation", trial: 2, edge: "before" } });
    const problems = questionOrderProblems(moved, events);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toMatch(/named the right answer \("River Sallow"\).*ask before trial 2's answer is shown/);

    const spotlit = { ...moved, steps: moved.steps.map((step, index) => (index === 0 ? { ...step, spotlight: [{ kind: "evaluation" as const, trial: 2 }] } : step)) };
    expect(questionOrderProblems(spotlit, events)[0]?.message).toMatch(/step 1 spotlights trial 2's evaluation/);

    const past = { ...moved, steps: moved.steps.map((step, index) => (index === moved.steps.length - 3 ? { ...step, cursor: { event: "run-end" as const, edge: "after" as const } } : step)) };
    expect(questionOrderProblems(past, events)[0]?.message).toMatch(/already answered by showing the log past it/);
  });
});
