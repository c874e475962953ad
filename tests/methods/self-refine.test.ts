import { describe, expect, it } from "vitest";
import type { MockLanguageModelV3 } from "ai/test";
import { foldRun, type RefinementView } from "@/lib/domain/fold-run";
import { feedbackSaysStop, nextRefineAction, refineRoundsOf, REFINE_STOP_PHRASE } from "@/lib/domain/self-refine";
import { MemoryRunStore } from "@/lib/db/memory-store";
import type { RunStore } from "@/lib/db/store";
import { builtinCodeDemoScripts, codeDemoScriptBook } from "@/lib/environments/code";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext } from "@/lib/server/app-context";
import type { Strategy } from "@/lib/domain/config";
import { demoMockModel, promptText, queuedMockModel } from "../helpers/mock-model";

const round = (n: number, feedback: { text: string; stop: boolean } | null, answer: string | null): RefinementView => ({
  round: n,
  feedback: feedback && { ...feedback, callId: `f${n}`, eventId: `ef${n}` },
  answer: answer === null ? null : { text: answer, callId: `a${n}`, eventId: `ea${n}` },
});
const trial = (...refinements: RefinementView[]) => ({ refinements });
const go = { text: "Name the river, not the town.", stop: false };
const stop = { text: `Fine. ${REFINE_STOP_PHRASE}`, stop: true };

describe("Self-Refine's next call (decided from the folded log)", () => {
  it("asks for feedback first, refines after feedback that asks for a change, and stops on the stop phrase", () => {
    expect(nextRefineAction(trial(), "Dunmere", 3)).toEqual({ kind: "feedback", round: 1 });
    expect(nextRefineAction(trial(round(1, go, null)), "Dunmere", 3)).toEqual({ kind: "refine", round: 1 });
    expect(nextRefineAction(trial(round(1, go, "River Sallow")), "Dunmere", 3)).toEqual({ kind: "feedback", round: 2 });
    expect(nextRefineAction(trial(round(1, stop, null)), "Dunmere", 3)).toEqual({ kind: "done", answer: "Dunmere" });
    expect(nextRefineAction(trial(round(1, go, "River Sallow"), round(2, stop, null)), "Dunmere", 3)).toEqual({ kind: "done", answer: "River Sallow" });
  });

  it("stops after k rounds with the last refined answer, whatever the feedback says", () => {
    const two = trial(round(1, go, "Sallow"), round(2, go, "River Sallow"));
    expect(nextRefineAction(two, "Dunmere", 2)).toEqual({ kind: "done", answer: "River Sallow" });
    expect(nextRefineAction(two, "Dunmere", 3)).toEqual({ kind: "feedback", round: 3 });
    expect(nextRefineAction(trial(round(1, go, "Sallow")), "Dunmere", 1)).toEqual({ kind: "done", answer: "Sallow" });
  });

  it("refines nothing without an answer or under a method that does not refine", () => {
    expect(nextRefineAction(trial(), null, 3)).toEqual({ kind: "done", answer: null });
    expect(nextRefineAction(trial(), "Dunmere", 0)).toEqual({ kind: "done", answer: "Dunmere" });
    expect(refineRoundsOf({ strategy: "reflexion" })).toBe(0);
    expect(refineRoundsOf({ strategy: "self-refine" })).toBe(3);
    expect(refineRoundsOf({ strategy: "self-refine", refineRounds: 5 })).toBe(5);
  });

  it("reads the stop phrase in any case, anywhere in the feedback", () => {
    expect(feedbackSaysStop("Looks right. No more feedback.")).toBe(true);
    expect(feedbackSaysStop("NO MORE FEEDBACK")).toBe(true);
    expect(feedbackSaysStop("More feedback: name the river.")).toBe(false);
  });
});

/** A server context on `store` whose every model answers with `model`. */
function contextOver(model: MockLanguageModelV3, store: RunStore = new MemoryRunStore()) {
  return createServerContext({ store, env: { OPENAI_API_KEY: "sk-test-not-a-key" }, model: createModelPort({ resolveModel: () => model, maxRetries: 0 }) });
}

const QA_WRONG = " The opera was staged in Dunmere, so that is the answer.\nAction 1: Finish[Dunmere]";

describe("Self-Refine in the engine", () => {
  it("runs k rounds when the feedback never stops, refines with the round's feedback, and the Evaluator judges the last answer", async () => {
    const replies = [QA_WRONG, "The question asks for a river; Dunmere is a town.", "Sallow", "Give the river's full name.", "River Sallow"];
    const model = queuedMockModel(replies);
    const context = contextOver(model);
    const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "self-refine", modelId: "openai:mock", maxTrials: 1, refineRounds: 2 });
    await context.workers.untilSettled(run.rootBranchId);
    const events = (await context.service.events(run.id)).events;
    const state = foldRun(events);

    expect(state.config?.refineRounds).toBe(2);
    expect(state.config?.templates.feedback?.id).toBe("qa/self-refine-feedback");
    expect(model.doStreamCalls.length).toBe(5);
    const only = state.trials[0]!;
    expect(only.refinements.map((r) => [r.round, r.feedback?.stop, r.answer?.text])).toEqual([
      [1, false, "Sallow"],
      [2, false, "River Sallow"],
    ]);
    expect(only.answer).toBe("River Sallow");
    expect(only.evaluation?.verdict).toBe("pass");
    expect(only.reflection).toBeNull();
    // The second refine prompt carries round 2's feedback and round 1's answer; every call is the Actor's model's.
    const lastPrompt = promptText(model.doStreamCalls[4]!);
    expect(lastPrompt).toContain("Give the river's full name.");
    expect(lastPrompt).toContain("Sallow");
    const refineCalls = events.filter((event) => event.type === "model-call-end").slice(1);
    expect(refineCalls.map((event) => event.type === "model-call-end" && [event.data.role, event.data.step])).toEqual(Array(4).fill(["actor", null]));
    // Each refine event follows its own model-call-end.
    for (const type of ["refine-feedback", "refine-answer"] as const) {
      for (const event of events.filter((e) => e.type === type)) {
        const before = events[events.indexOf(event) - 1]!;
        expect(before.type).toBe("model-call-end");
        expect(event.causedBy).toBe(before.id);
      }
    }

    // A recorded replay from the run start makes no model call and records the same rounds.
    const { branchId } = await context.service.fork(run.id, { atSeq: 1, replay: "recorded" });
    await context.workers.untilSettled(branchId);
    const replay = (await context.service.events(run.id, 0, branchId)).events.filter((event) => event.branchId === branchId);
    expect(model.doStreamCalls.length).toBe(5);
    const replayed = foldRun((await context.service.events(run.id, 0, branchId)).events);
    expect(replayed.trials[0]!.refinements.map((r) => r.answer?.text)).toEqual(["Sallow", "River Sallow"]);
    expect(foldRun(replay).totals).toMatchObject({ liveCalls: 0, cachedCalls: 5 });
  });

  it("resumes with the refinement after stopping between a feedback and its refinement, without asking for the feedback again", async () => {
    const store = new MemoryRunStore();
    const first = queuedMockModel([QA_WRONG, "The question asks for a river; Dunmere is a town.", new Error("connection reset by the provider")]);
    const before = contextOver(first, store);
    const run = await before.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "self-refine", modelId: "openai:mock", maxTrials: 1 });
    await before.workers.untilSettled(run.rootBranchId);
    const paused = foldRun((await before.service.events(run.id)).events);
    expect(paused.status).toBe("paused");
    expect(paused.trials[0]!.refinements).toHaveLength(1);
    expect(paused.trials[0]!.refinements[0]!.answer).toBeNull();

    // Another process picks the run up from the same log.
    const second = queuedMockModel(["River Sallow", `Right. ${REFINE_STOP_PHRASE}`]);
    const after = contextOver(second, store);
    await after.service.resume(run.id);
    await after.workers.untilSettled(run.rootBranchId);
    const state = foldRun((await after.service.events(run.id)).events);
    expect(second.doStreamCalls.length).toBe(2);
    expect(promptText(second.doStreamCalls[0]!)).toContain("The question asks for a river; Dunmere is a town.");
    expect(state.trials[0]!.refinements.map((r) => [r.round, r.answer?.text ?? null, r.feedback?.stop])).toEqual([
      [1, "River Sallow", false],
      [2, null, true],
    ]);
    expect(state.outcome).toBe("success");
  });
});

describe("Self-Refine in an experiment", () => {
  it("gives each arm's runs the arm's refine rounds, and records the family's feedback and refine templates", async () => {
    const context = createServerContext({ store: new MemoryRunStore(), model: createModelPort({ resolveModel: () => queuedMockModel([]), maxRetries: 0 }), startWorkers: false });
    const record = await context.experiments.start({
      name: "k = 1 vs k = 4",
      environment: "code",
      taskSet: "builtin",
      taskIds: ["code-py-01"],
      arms: [
        { label: "k1", strategy: "self-refine", modelId: "demo", refineRounds: 1 },
        { label: "k4", strategy: "self-refine", modelId: "demo", refineRounds: 4 },
        { label: "ReAct", strategy: "none", modelId: "demo", refineRounds: 4 },
      ],
    });
    const configs = [];
    for (const runId of await context.experiments.runIds(record.id)) configs.push(foldRun((await context.service.events(runId)).events).config!);
    const byStrategy = configs.map((config) => [config.strategy, config.refineRounds ?? null, config.templates.refine?.id ?? null]).sort();
    expect(byStrategy).toEqual([
      ["none", null, null],
      ["self-refine", 1, "code/self-refine-refine"],
      ["self-refine", 4, "code/self-refine-refine"],
    ]);
    await context.experiments.cancel(record.id);
  });
});

describe("Self-Refine and the before-Actor-call breakpoint", () => {
  it("holds the feedback call too (it is the Actor's model's), and Continue makes it", async () => {
    const model = queuedMockModel([QA_WRONG, `Right. ${REFINE_STOP_PHRASE}`]);
    const context = contextOver(model);
    const run = await context.service.createRun({
      environment: "qa",
      taskSet: "builtin",
      taskId: "qa-builtin-01",
      strategy: "self-refine",
      modelId: "openai:mock",
      maxTrials: 1,
      breakpoints: { beforeModelCall: { actor: true } },
    });
    await context.workers.untilSettled(run.rootBranchId);
    await context.service.resume(run.id);
    await context.workers.untilSettled(run.rootBranchId);
    const held = foldRun((await context.service.events(run.id)).events);
    expect(held.pause?.at).toBe("before-call:refine-feedback:1:1");
    expect(model.doStreamCalls.length).toBe(1);
    await context.service.resume(run.id);
    await context.workers.untilSettled(run.rootBranchId);
    const state = foldRun((await context.service.events(run.id)).events);
    expect(model.doStreamCalls.length).toBe(2);
    expect(state.trials[0]!.refinements[0]!.feedback?.stop).toBe(true);
    expect(state.status).toBe("ended");
  });
});

describe("Self-Refine on the demo model (scripted, labelled as such)", () => {
  const demoRun = async (environment: "qa" | "code", taskId: string, strategy: Strategy) => {
    const mock = demoMockModel([qaDemoScriptBook, codeDemoScriptBook]);
    const context = createServerContext({ store: new MemoryRunStore(), model: createModelPort({ resolveModel: () => mock, maxRetries: 0 }) });
    const run = await context.service.createRun({ environment, taskSet: "builtin", taskId, strategy, modelId: "demo", maxTrials: 1 });
    await context.workers.untilSettled(run.rootBranchId);
    return foldRun((await context.service.events(run.id)).events);
  };

  it("on code the feedback names the bug and the refinement fixes it: trial 1 passes, where ReAct alone fails", async () => {
    const script = builtinCodeDemoScripts["code-py-01"]!;
    const plain = await demoRun("code", "code-py-01", "none");
    const refined = await demoRun("code", "code-py-01", "self-refine");
    expect(plain.trials[0]!.evaluation?.verdict).toBe("fail");
    const trial1 = refined.trials[0]!;
    expect(trial1.refinements[0]!.feedback?.stop).toBe(false);
    expect(trial1.refinements[0]!.feedback?.text).toMatch(/empty/);
    expect(trial1.refinements[0]!.answer?.text.trim()).toBe(script.informed.trim());
    expect(trial1.refinements.at(-1)!.feedback?.stop).toBe(true);
    // The Evaluator ran the refined program: its internal tests and the hidden ones pass.
    expect(trial1.evaluation?.verdict).toBe("pass");
    expect(trial1.evaluation?.hiddenTests?.verdict).toBe("pass");
    expect(refined.outcome).toBe("success");
  });

  it("on QA the feedback finds the answer fine: nothing is refined and the verdict is ReAct's", async () => {
    const plain = await demoRun("qa", "qa-builtin-01", "none");
    const refined = await demoRun("qa", "qa-builtin-01", "self-refine");
    const trial1 = refined.trials[0]!;
    expect(trial1.refinements).toHaveLength(1);
    expect(trial1.refinements[0]!.feedback?.stop).toBe(true);
    expect(trial1.answer).toBe(plain.trials[0]!.answer);
    expect(trial1.evaluation?.verdict).toBe(plain.trials[0]!.evaluation?.verdict);
    expect(trial1.evaluation?.verdict).toBe("fail");
  });
});
