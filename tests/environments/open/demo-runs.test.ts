import { describe, expect, it } from "vitest";
import { runConfigSchema, type Strategy } from "@/lib/domain/config";
import type { RunEvent, RunEventOf } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { driveRun } from "@/lib/engine/run-engine";
import { builtinOpenDemoScripts, builtinOpenTasks, openDemoScriptBook, openEnvironment } from "@/lib/environments/open";
import { createModelPort } from "@/lib/llm/model-port";

/**
 * The offline demo model (a real AI SDK LanguageModelV3 over the open script book) on every
 * built-in open task, through the real engine: the Actor's first draft misses one criterion, the
 * demo judge scores it below the threshold, the Self-Reflection names the low criterion from the
 * judge's feedback, and trial 2's answer passes. Judge calls are recorded like any call.
 */

const model = createModelPort({ demoScriptBooks: [openDemoScriptBook], maxRetries: 0 });

async function demoRun(taskId: string, strategy: Strategy = "reflexion", reflectionEdit?: string): Promise<RunEvent[]> {
  const task = builtinOpenTasks.find((t) => t.id === taskId);
  if (!task) throw new Error(taskId);
  const store = new MemoryRunStore();
  const config = runConfigSchema.parse({
    environment: "open",
    taskSetName: "builtin",
    taskId,
    task,
    strategy,
    maxTrials: 3,
    maxStepsPerTrial: 2,
    models: { actor: { modelId: "demo", maxOutputTokens: 512 }, reflector: { modelId: "demo" } },
    templates: openEnvironment.defaultTemplates,
    breakpoints: reflectionEdit ? { afterReflection: true } : {},
  });
  const run = await store.createRun({ config, title: taskId });
  const deps = { log: store, model, environmentFor: () => openEnvironment };
  await driveRun(deps, { runId: run.id, branchId: run.rootBranchId });
  if (reflectionEdit !== undefined) {
    const events = await store.list(run.id, run.rootBranchId);
    const reflection = events.find((e): e is RunEventOf<"reflection-end"> => e.type === "reflection-end");
    if (!reflection) throw new Error("no reflection");
    await store.append(run.id, run.rootBranchId, [
      { type: "reflection-edit", data: { reflectionEventId: reflection.id, oldText: reflection.data.text, newText: reflectionEdit, note: null } },
      { type: "settings-edit", data: { target: "breakpoints", oldValue: config.breakpoints, newValue: { ...config.breakpoints, afterReflection: false }, note: null } },
      { type: "run-resume", data: { reason: "user", step: false } },
    ]);
    await driveRun(deps, { runId: run.id, branchId: run.rootBranchId });
  }
  return store.list(run.id, run.rootBranchId);
}

const evaluations = (events: RunEvent[]) => events.filter((e): e is RunEventOf<"evaluation-end"> => e.type === "evaluation-end").map((e) => e.data);

describe("demo model on the built-in open tasks", () => {
  it("ships 8–10 tasks, each with a demo script whose checks cover every criterion", () => {
    expect(builtinOpenTasks.length).toBeGreaterThanOrEqual(8);
    expect(builtinOpenTasks.length).toBeLessThanOrEqual(10);
    for (const task of builtinOpenTasks) {
      const script = builtinOpenDemoScripts[task.id];
      expect(script, task.id).toBeDefined();
      expect(Object.keys(script!.checks).sort()).toEqual(task.rubric.criteria.map((c) => c.id).sort());
    }
  });

  it.each(builtinOpenTasks.map((t) => t.id))("%s: trial 1 judged below threshold, reflection names the low criterion, trial 2 passes", async (taskId) => {
    const events = await demoRun(taskId);
    const state = foldRun(events);
    expect(state.trials.map((t) => t.outcome)).toEqual(["failure", "success"]);
    expect(state.outcome).toBe("success");
    const [first, second] = evaluations(events);
    expect(first).toMatchObject({ verdict: "fail", evaluatorKind: "llm-judge", oracle: false });
    expect(second).toMatchObject({ verdict: "pass", evaluatorKind: "llm-judge", oracle: false });
    expect(first!.judge!.weightedScore).toBeLessThan(first!.judge!.threshold);
    expect(second!.judge!.weightedScore).toBeGreaterThanOrEqual(second!.judge!.threshold);
    // The judge's call is recorded like any other: role evaluator, step null, its prompt carries the rubric and the answer.
    const judgeCall = state.calls[first!.judge!.callId]!;
    expect(judgeCall).toMatchObject({ role: "evaluator", step: null, trial: 1 });
    const prompt = judgeCall.messages.map((m) => m.content).join("\n");
    for (const criterion of builtinOpenTasks.find((t) => t.id === taskId)!.rubric.criteria) expect(prompt).toContain(criterion.description);
    expect(prompt).toContain(state.trials[0]!.answer!);
    // The missed criterion is the low one, and the reflection names it with the lesson.
    const low = first!.judge!.criteria.filter((c) => c.rawScore < 4).map((c) => c.id);
    expect(low.length).toBeGreaterThan(0);
    const reflection = state.trials[0]!.reflection!.text;
    for (const id of low) expect(reflection).toContain(id);
    for (const keyword of builtinOpenDemoScripts[taskId]!.lessonKeywords) expect(reflection.toLowerCase()).toContain(keyword.toLowerCase());
    // The Self-Reflection prompt saw the judge's per-criterion feedback.
    const reflectorCall = state.calls[state.trials[0]!.reflection!.callId]!;
    expect(reflectorCall.messages[0]!.content).toContain(first!.feedback);
    // The rubric never reaches the Actor.
    for (const call of Object.values(state.calls).filter((c) => c.role === "actor")) {
      for (const criterion of first!.judge!.criteria) expect(call.messages[0]!.content).not.toContain(criterion.description);
    }
  });

  it("under strategy none it keeps failing (no reflection reaches the Actor)", async () => {
    const state = foldRun(await demoRun("open-polite-refusal", "none"));
    expect(state.trials.map((t) => t.outcome)).toEqual(["failure", "failure", "failure"]);
    expect(state.outcome).toBe("failure");
  });

  it("editing the lesson out of the reflection makes trial 2 fail again", async () => {
    const events = await demoRun("open-alt-text", "reflexion", "I should try harder next time.");
    const state = foldRun(events);
    expect(state.trials[1]!.outcome).toBe("failure");
    expect(state.trials[1]!.memory[0]!.text).toBe("I should try harder next time.");
  });
});
