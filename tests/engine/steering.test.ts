import { describe, expect, it } from "vitest";
import { breakpointsSchema, runConfigSchema, type BreakpointsInput, type RunConfig } from "@/lib/domain/config";
import { draft, type EventDraft, type RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { driveRun } from "@/lib/engine/run-engine";
import { builtinQaTasks, qaDemoScriptBook, qaEnvironment } from "@/lib/environments/qa";
import { createModelPort } from "@/lib/llm/model-port";
import { demoMockModel } from "../helpers/mock-model";

const task = builtinQaTasks[0]!;

function config(breakpoints: BreakpointsInput = {}): RunConfig {
  return runConfigSchema.parse({
    environment: "qa",
    taskSetName: "builtin",
    taskId: task.id,
    task,
    strategy: "reflexion",
    models: { actor: { modelId: "demo" }, reflector: { modelId: "demo" } },
    templates: qaEnvironment.defaultTemplates,
    breakpoints: breakpointsSchema.parse(breakpoints),
  });
}

async function setup(breakpoints: BreakpointsInput = {}) {
  const store = new MemoryRunStore();
  const mock = demoMockModel([qaDemoScriptBook]);
  const deps = { log: store, model: createModelPort({ resolveModel: () => mock, maxRetries: 0 }), environmentFor: () => qaEnvironment };
  const run = await store.createRun({ config: config(breakpoints), title: task.question });
  const events = () => store.list(run.id, run.rootBranchId);
  const append = (...drafts: EventDraft[]) => store.append(run.id, run.rootBranchId, drafts);
  /** `atBoundary(n)` runs at the n-th boundary between two actions (e.g. another process appends a request there). */
  const drive = (options: { atBoundary?: (n: number) => Promise<void> } = {}) => {
    let boundary = 0;
    const atBoundary = options.atBoundary;
    return driveRun(atBoundary ? { ...deps, yieldToEventLoop: () => atBoundary(++boundary) } : deps, { runId: run.id, branchId: run.rootBranchId });
  };
  return { mock, events, append, drive };
}

const last = (events: RunEvent[]) => events.at(-1)!;

describe("breakpoints, Step, Cancel", () => {
  it("Step after the reflection breakpoint runs trial 2's first Actor step (starting the trial is not the one action)", async () => {
    const { mock, events, append, drive } = await setup({ afterReflection: true });
    await drive();
    expect(last(await events())).toMatchObject({ type: "run-pause", data: { reason: "breakpoint" } });
    const callsBefore = mock.doStreamCalls.length;
    await append(draft("run-resume", { reason: "user", step: true }));
    await drive();
    const log = await events();
    expect(last(log)).toMatchObject({ type: "run-pause", data: { reason: "step" } });
    expect(mock.doStreamCalls.length).toBe(callsBefore + 1);
    expect(foldRun(log).trials[1]?.steps.map((step) => step.observation !== null)).toEqual([true]);
  });

  it("pauses before each Actor call; Continue makes exactly that call and stops at the next one", async () => {
    const { mock, events, append, drive } = await setup({ beforeModelCall: { actor: true } });
    await drive();
    expect(last(await events())).toMatchObject({ type: "run-pause", data: { reason: "breakpoint", at: "before-call:actor:1:1" } });
    expect(mock.doStreamCalls).toHaveLength(0);
    await append(draft("run-resume", { reason: "user" }));
    await drive();
    expect(mock.doStreamCalls).toHaveLength(1);
    expect(last(await events())).toMatchObject({ type: "run-pause", data: { at: "before-call:actor:1:2" } });
  });

  it("pauses after each observation and after each evaluation", async () => {
    const observation = await setup({ afterObservation: true });
    await observation.drive();
    const afterObs = await observation.events();
    expect(afterObs.at(-2)?.type).toBe("step-observation");
    expect(last(afterObs)).toMatchObject({ type: "run-pause", data: { at: "after-observation:1:1" } });

    const evaluation = await setup({ afterEvaluation: true });
    await evaluation.drive();
    const afterEval = await evaluation.events();
    expect(afterEval.filter((e) => e.type === "reflection-end")).toHaveLength(0);
    expect(last(afterEval)).toMatchObject({ type: "run-pause", data: { at: "after-evaluation:1" } });
  });

  it("Step performs one action, then pauses again", async () => {
    const { mock, events, append, drive } = await setup({ beforeModelCall: { actor: true } });
    await drive();
    const before = (await events()).length;
    await append(draft("run-resume", { reason: "user", step: true }));
    await drive();
    const after = await events();
    expect(mock.doStreamCalls).toHaveLength(1);
    // resume, then the step's batch (call, thought, action, observation), then a pause
    expect(after.slice(before + 1).map((e) => e.type)).toEqual(["model-call-end", "step-thought", "step-action", "step-observation", "run-pause"]);
    expect(last(after).type).toBe("run-pause");
  });

  it("Cancel ends the run as cancelled at the next boundary", async () => {
    const { events, drive, append } = await setup();
    const result = await drive({
      atBoundary: async (n) => {
        if (n === 3) await append(draft("cancel-request", { requestedBy: "cli" }));
      },
    });
    expect(result.stoppedBecause).toBe("ended");
    const log = await events();
    expect(log.slice(-3).map((e) => e.type)).toEqual(["cancel-request", "run-cancel", "run-end"]);
    expect(foldRun(log).outcome).toBe("cancelled");
  });
});

describe("edits while paused", () => {
  it("a prompt-template edit and a model-settings edit apply from the next call on", async () => {
    const { mock, events, append, drive } = await setup({ beforeModelCall: { actor: true } });
    await drive();
    const state = foldRun(await events());
    const oldTemplate = state.config!.templates.actor;
    const newTemplate = { ...oldTemplate, version: oldTemplate.version + 1, text: `MARKER: answer carefully.\n${oldTemplate.text}` };
    const oldSettings = state.config!.models.actor;
    await append(
      draft("prompt-edit", { role: "actor", oldTemplate, newTemplate, note: "teacher" }),
      draft("settings-edit", { target: "model", role: "actor", oldValue: oldSettings, newValue: { ...oldSettings, temperature: 0.7 }, note: null }),
      draft("run-resume", { reason: "user" }),
    );
    await drive();
    const call = (await events()).find((e) => e.type === "model-call-end");
    expect(call?.type === "model-call-end" && call.data.messages[0]?.content.startsWith("MARKER: answer carefully.")).toBe(true);
    expect(call?.type === "model-call-end" && call.data.settings.temperature).toBe(0.7);
    expect(mock.doStreamCalls[0]?.temperature).toBe(0.7);
  });

  it("an injected action is executed without a model call", async () => {
    const { mock, events, append, drive } = await setup({ beforeModelCall: { actor: true } });
    await drive();
    await append(draft("action-edit", { trial: 1, step: 1, text: "Finish[River Sallow]", note: "show the right answer" }), draft("run-resume", { reason: "user" }));
    await drive();
    const log = await events();
    expect(mock.doStreamCalls).toHaveLength(0);
    const action = log.find((e) => e.type === "step-action");
    expect(action).toMatchObject({ data: { text: "Finish[River Sallow]", callId: null } });
    expect(foldRun(log)).toMatchObject({ outcome: "success", pendingAction: null });
  });
});
