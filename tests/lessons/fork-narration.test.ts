import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { qaDemoScriptBook } from "@/lib/environments/qa";
import { forkDifference, forkFloor, forkNote } from "@/lib/lessons/fork-narration";
import { lessonSchema } from "@/lib/lessons/lesson-schema";
import { resolveCursor, resolveNode } from "@/lib/lessons/resolve-lesson";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext } from "@/lib/server/app-context";
import { parseLessonFile } from "@/lib/server/lesson-service";
import { demoMockModel } from "../helpers/mock-model";
import { CORRECT_PARAPHRASES } from "../demo/paraphrases";

/**
 * A lesson followed onto the learner's fork ("Run trial 2 with mine"): the step says its narration
 * describes the model's run and what differs, resolves on the fork's own log (so the inspector
 * selects the fork's node, not the model's) and never hides the learner's reflection.
 */

async function lessonRunAndFork(text: string): Promise<{ main: RunEvent[]; fork: RunEvent[] }> {
  const mock = demoMockModel([qaDemoScriptBook]);
  const context = createServerContext({ store: new MemoryRunStore(), model: createModelPort({ resolveModel: () => mock, maxRetries: 0 }) });
  const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo", maxTrials: 5 });
  await context.workers.untilSettled(run.rootBranchId);
  const main = (await context.service.events(run.id)).events;
  const reflection = main.find((event) => event.type === "reflection-end" && event.data.trial === 1)!;
  const checkpoint = main.find((event) => event.type === "checkpoint" && event.seq > reflection.seq)!;
  // What "Run trial 2 with mine" sends.
  const { branchId } = await context.service.fork(run.id, { atSeq: checkpoint.seq, replay: "recorded", edits: [{ kind: "reflection", reflectionEventId: reflection.id, text }] });
  await context.workers.untilSettled(branchId);
  const fork = (await context.service.events(run.id, 0, branchId)).events;
  await context.workers.stop();
  return { main, fork };
}

describe("a lesson on the learner's fork", () => {
  it("says the narration describes the model's run, with the learner's reflection and both trial 2s", { timeout: 60_000 }, async () => {
    const mine = "I answered the town, not the river. Next time I should search Dunmere and give the river that flows through it.";
    const { main, fork } = await lessonRunAndFork(mine);
    const difference = forkDifference(main, fork);
    expect(difference).toMatchObject({ trial: 1, yours: mine, yourNext: "succeeded", modelNext: "succeeded" });
    expect(difference.model).toBe(foldRun(main).trials[0]?.reflection?.text);
    const note = forkNote(difference);
    expect(note).toMatch(/^This narration describes the model's own run; you are on your fork — trial 1's reflection is yours \(“I answered the town/);
    expect(note).toContain("On your fork trial 2 succeeded; in the model's run it succeeded.");

    const unhelpful = await lessonRunAndFork("I should think harder and be more careful next time before answering.");
    expect(forkNote(forkDifference(unhelpful.main, unhelpful.fork))).toMatch(/On your fork trial 2 (failed|was halted); in the model's run it succeeded\./);
  });

  it("resolves the lesson's steps on the fork's log: trial 2's nodes are the fork's, and no step hides the learner's reflection", { timeout: 60_000 }, async () => {
    const { main, fork } = await lessonRunAndFork(CORRECT_PARAPHRASES["qa-builtin-01"]!);
    const { lesson } = parseLessonFile("why-reflexion-qa.md", fs.readFileSync(path.resolve("lessons/why-reflexion-qa.md"), "utf8"));
    const hop = lesson.steps.find((step) => step.title === "The second hop")!;
    const mainNode = resolveNode(main, hop.spotlight[0]!);
    const forkNode = resolveNode(fork, hop.spotlight[0]!);
    // The inspector selects the fork's own trial-2 thought: the model's is not in the fork's log.
    expect(forkNode).not.toBe(mainNode);
    expect(fork.some((event) => event.id === forkNode)).toBe(true);
    expect(fork.some((event) => event.id === mainNode)).toBe(false);
    // The practice step points before the model's reflection; on the fork it shows at least the fork's edit.
    const practice = lesson.steps.find((step) => step.practice)!;
    const floor = forkFloor(fork);
    expect(resolveCursor(fork, practice.cursor)).toBeLessThan(floor);
    expect(fork[floor - 1]?.type).toBe("reflection-edit");
    expect(foldRun(fork.slice(0, floor)).trials[0]?.reflection?.text).toBe(CORRECT_PARAPHRASES["qa-builtin-01"]);
    expect(forkFloor(main)).toBe(0);
  });

  it("takes an optional forkNarration per step (the one field added to the schema)", () => {
    const base = { id: "x", title: "X", summary: "S", family: "qa", minutes: 3, run: { kind: "builtin", environment: "qa", taskId: "qa-builtin-01", strategy: "reflexion" } };
    const step = { title: "One", narration: "For main.", forkNarration: "On **your** fork.", cursor: { event: "trial-start", trial: 1 } };
    expect(lessonSchema.parse({ ...base, steps: [step] }).steps[0]?.forkNarration).toBe("On **your** fork.");
    expect(lessonSchema.safeParse({ ...base, steps: [{ ...step, forkNarration: "" }] }).success).toBe(false);
  });
});
