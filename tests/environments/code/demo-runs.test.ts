import { afterAll, describe, expect, it } from "vitest";
import { runConfigSchema, type Strategy } from "@/lib/domain/config";
import type { RunEvent, RunEventOf } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { driveRun } from "@/lib/engine/run-engine";
import { builtinCodeDemoScripts, builtinCodeTasks, codeDemoScriptBook, createCodeEnvironment } from "@/lib/environments/code";
import { createModelPort } from "@/lib/llm/model-port";
import { createSandboxPool } from "@/lib/sandbox";

/**
 * The offline demo model (a real AI SDK LanguageModelV3 over the code script
 * book) on every built-in code task, through the real engine and sandbox: the
 * whole Reflexion loop (fail → reflection → pass, both verdicts
 * per trial) and the two false-positive lessons.
 */

const pool = createSandboxPool({ size: 2 });
afterAll(() => pool.close());
const family = createCodeEnvironment({ sandbox: pool });
const model = createModelPort({ demoScriptBooks: [codeDemoScriptBook], maxRetries: 0 });

async function demoRun(taskId: string, strategy: Strategy = "reflexion"): Promise<RunEvent[]> {
  const task = builtinCodeTasks.find((t) => t.id === taskId)!;
  const store = new MemoryRunStore();
  const config = runConfigSchema.parse({
    environment: "code",
    taskSetName: "builtin",
    taskId,
    task,
    strategy,
    memoryWindow: 1,
    maxTrials: 3,
    maxStepsPerTrial: 2,
    models: { actor: { modelId: "demo", maxOutputTokens: 1024 }, reflector: { modelId: "demo", maxOutputTokens: 1024 } },
    templates: family.defaultTemplates,
  });
  const run = await store.createRun({ config, title: taskId });
  await driveRun({ log: store, model, environmentFor: () => family }, { runId: run.id, branchId: run.rootBranchId });
  return store.list(run.id, run.rootBranchId);
}

const evaluations = (events: RunEvent[]) => events.filter((e): e is RunEventOf<"evaluation-end"> => e.type === "evaluation-end").map((e) => e.data);

describe("demo model on the built-in code tasks", () => {
  const failThenPass = builtinCodeTasks.filter((task) => builtinCodeDemoScripts[task.id]?.kind === "fail-then-pass");
  const falsePositive = builtinCodeTasks.filter((task) => builtinCodeDemoScripts[task.id]?.kind === "false-positive");

  it("has both kinds of script", () => {
    expect(failThenPass.length).toBeGreaterThanOrEqual(18);
    expect(falsePositive.map((t) => t.id).sort()).toEqual(["code-py-07", "code-ts-03"]);
  });

  it.each(failThenPass.map((t) => t.id))("%s: reflexion fails trial 1, reflects, passes trial 2 with both verdicts recorded", async (taskId) => {
    const events = await demoRun(taskId);
    const state = foldRun(events);
    expect(state.trials.map((t) => t.outcome)).toEqual(["failure", "success"]);
    expect(state.outcome).toBe("success");
    expect(evaluations(events).map((e) => [e.verdict, e.hiddenTests?.verdict, e.falsePositive])).toEqual([
      ["fail", "fail", false],
      ["pass", "pass", false],
    ]);
    // No line of the hidden tests reaches any prompt (the demo's own tests use other inputs).
    const task = builtinCodeTasks.find((t) => t.id === taskId)!;
    const hiddenLines = task.hiddenTests.split("\n").map((line) => line.trim()).filter((line) => /assert/.test(line) && !line.includes("require("));
    for (const call of Object.values(state.calls)) {
      const prompt = call.messages.map((m) => m.content).join("\n");
      for (const line of hiddenLines) expect(prompt).not.toContain(line);
    }
    const reflection = state.trials[0]!.reflection!.text.toLowerCase();
    for (const keyword of builtinCodeDemoScripts[taskId]!.lessonKeywords) expect(reflection).toContain(keyword.toLowerCase());
  });

  it.each(falsePositive.map((t) => t.id))("%s: weak internal tests pass the wrong program; flagged as a false positive, run failed", async (taskId) => {
    const events = await demoRun(taskId);
    const state = foldRun(events);
    expect(state.trials).toHaveLength(1);
    expect(evaluations(events)[0]).toMatchObject({ verdict: "pass", falsePositive: true, hiddenTests: { verdict: "fail" } });
    expect(state.outcome).toBe("failure");
  });

  it("none: without reflections the demo Actor repeats its first program in every trial", async () => {
    const events = await demoRun("code-py-01", "none");
    const state = foldRun(events);
    expect(state.trials.map((t) => t.outcome)).toEqual(["failure", "failure", "failure"]);
    expect(new Set(state.trials.map((t) => t.answer)).size).toBe(1);
  });
});

describe("the code demo script book", () => {
  it("labels itself on a code prompt for a task it has no script for", () => {
    const prompt = `${family.defaultTemplates.actor.text.replace("{language_name}", "Python")}\n[func signature]:\ndef mystery(x):\n    pass\n\n[implementation]:`;
    expect(codeDemoScriptBook.respond(prompt)).toContain("offline demo model is a scripted stand-in");
  });

  it("answers null for prompts of other families", () => {
    expect(codeDemoScriptBook.respond("Question: who?\nThought 1:")).toBeNull();
  });
});
