import { describe, expect, it } from "vitest";
import { breakpointsSchema, runConfigSchema, type RunConfig } from "@/lib/domain/config";
import type { RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { asEventId } from "@/lib/domain/ids";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { driveRun, type EngineDeps } from "@/lib/engine/run-engine";
import { builtinQaTasks, qaEnvironment } from "@/lib/environments/qa";
import { createModelPort } from "@/lib/llm/model-port";
import { queuedMockModel } from "../helpers/mock-model";

const task = builtinQaTasks[0]!; // answer "River Sallow": Search[The Glass Orchard] → Dunmere → its river
const LESSON = "LESSON: the question asks for the river of the town, so search Dunmere and answer with its river.";

/** A wrong first answer, with an invented observation after it. */
const WRONG = " The opera was staged in Dunmere.\nAction 1: Finish[Dunmere]\nObservation 1: Answer is CORRECT";
const REFLECTION = `${LESSON}\nextra line`;
/** The two steps of a trial that follows the lesson. */
const INFORMED = [" The lesson says to look up the town.\nAction 1: Search[Dunmere]", " Found it.\nAction 2: Finish[River Sallow]"];
/** Actor trial 1 (wrong), Self-Reflection, Actor trial 2 (two steps, right): the calls of a Reflexion run that learns. */
const LEARNS = [WRONG, REFLECTION, ...INFORMED];

function qaConfig(overrides: Partial<RunConfig> = {}): RunConfig {
  return runConfigSchema.parse({
    environment: "qa",
    taskSetName: "builtin",
    taskId: task.id,
    task,
    strategy: "reflexion",
    models: { actor: { modelId: "demo" }, reflector: { modelId: "demo" } },
    templates: qaEnvironment.defaultTemplates,
    ...overrides,
  });
}

/** `replies[k]` answers the run's k-th model call. */
async function setup(config: RunConfig, replies: ReadonlyArray<string | Error> = LEARNS) {
  const store = new MemoryRunStore();
  const model = queuedMockModel(replies);
  const deps: EngineDeps = {
    log: store,
    model: createModelPort({ resolveModel: () => model, maxRetries: 0 }),
    environmentFor: () => qaEnvironment,
  };
  const run = await store.createRun({ config, title: task.question });
  /** `atBoundary(n)` runs at the n-th boundary between two actions (e.g. another process appends a request there). */
  const drive = (options: { atBoundary?: (n: number) => Promise<void> } = {}) => {
    let boundary = 0;
    const atBoundary = options.atBoundary;
    return driveRun(
      atBoundary ? { ...deps, yieldToEventLoop: () => atBoundary(++boundary) } : deps,
      { runId: run.id, branchId: run.rootBranchId },
    );
  };
  const events = () => store.list(run.id, run.rootBranchId);
  return { store, model, run, drive, events };
}

const actorPrompts = (events: RunEvent[], trial: number) =>
  events.flatMap((e) => (e.type === "model-call-end" && e.data.role === "actor" && e.data.trial === trial ? [e.data.messages.map((m) => m.content).join("\n")] : []));

describe("driveRun: the Reflexion loop with AI SDK mock models", () => {
  it("reflexion: trial 1 fails, the reflection reaches trial 2's Actor prompt, trial 2 succeeds", async () => {
    const { drive, events, model } = await setup(qaConfig());
    const result = await drive();
    expect(result.stoppedBecause).toBe("ended");
    const log = await events();
    const state = foldRun(log);
    expect(state.trials.map((t) => t.outcome)).toEqual(["failure", "success"]);
    expect(state.outcome).toBe("success");
    expect(state.trials[0]?.reflection?.text).toBe(`${LESSON} extra line`);
    // On the recorded calls: trial 2's Actor prompt carries trial 1's reflection; trial 1's carries none.
    const recorded = model.doStreamCalls.map((call) => JSON.stringify(call.prompt));
    expect(recorded).toHaveLength(4); // actor t1, reflector, actor t2 ×2
    expect(actorPrompts(log, 2).every((p) => p.includes(LESSON))).toBe(true);
    expect(actorPrompts(log, 1).some((p) => p.includes("LESSON"))).toBe(false);
    expect(recorded[2]).toContain("LESSON: the question asks for the river");
    expect(state.trials[1]?.memory.map((m) => m.text)).toEqual([`${LESSON} extra line`]);
  });

  it("none: no reflection is written, no memory reaches any prompt, and it never succeeds", async () => {
    const { drive, events, model } = await setup(qaConfig({ strategy: "none", maxTrials: 3 }), [WRONG, WRONG, WRONG]);
    await drive();
    const log = await events();
    const state = foldRun(log);
    expect(state.trials.map((t) => t.outcome)).toEqual(["failure", "failure", "failure"]);
    expect(log.some((e) => e.type === "reflection-end")).toBe(false);
    expect(model.doStreamCalls).toHaveLength(3);
    for (const trial of [1, 2, 3]) for (const prompt of actorPrompts(log, trial)) expect(prompt).not.toMatch(/LESSON|Reflections:/);
    // Trial 1's prompt is identical under none and reflexion (one template, empty memory slot).
    const reflexion = await setup(qaConfig());
    await reflexion.drive();
    expect(actorPrompts(await reflexion.events(), 1)[0]).toBe(actorPrompts(log, 1)[0]);
  });

  it("executes only the first action of a completion and never an invented observation", async () => {
    const { drive, events } = await setup(qaConfig({ maxTrials: 1 }), [WRONG]);
    await drive();
    const log = await events();
    const first = foldRun(log).trials[0]!.steps[0]!;
    expect(first.action?.text).toBe("Finish[Dunmere]");
    expect(first.observation?.text).not.toMatch(/CORRECT/);
  });

  it("halts a trial at the step limit, counts it as failed and reflects on it", async () => {
    const search = ` Search again.\nAction 1: Search[The Glass Orchard]`;
    const replies = [search, search, search, "I kept searching the same page.", search, search, search];
    const { drive, events, model } = await setup(qaConfig({ maxTrials: 2, maxStepsPerTrial: 3 }), replies);
    await drive();
    expect(model.doStreamCalls).toHaveLength(replies.length);
    const state = foldRun(await events());
    expect(state.trials[0]?.steps).toHaveLength(3);
    expect(state.trials[0]?.outcome).toBe("halted");
    expect(state.trials[0]?.evaluation?.verdict).toBe("fail");
    expect(state.trials[0]?.reflection?.text).toBe("I kept searching the same page.");
    // No reflection after the last trial: nothing would read it.
    expect(state.trials[1]?.reflection).toBeNull();
    expect(state.outcome).toBe("failure");
  });

  it("turns a malformed completion into an Invalid Action observation that uses up a step", async () => {
    const garbage = "I refuse to use the format {}[]";
    const { drive, events } = await setup(qaConfig({ maxTrials: 1, maxStepsPerTrial: 2 }), [garbage, garbage]);
    const result = await drive();
    expect(result.stoppedBecause).toBe("ended");
    const steps = foldRun(await events()).trials[0]!.steps;
    expect(steps).toHaveLength(2);
    expect(steps[0]?.action?.action).toBeNull();
    expect(steps[0]?.action?.parseError).toBeTruthy();
    expect(steps[0]?.observation?.text).toMatch(/^Invalid Action/);
  });

  it("pauses after a reflection; an edited reflection is what the next trial sees", async () => {
    const { drive, events, store, run } = await setup(qaConfig({ breakpoints: breakpointsSchema.parse({ afterReflection: true }) }), [WRONG, REFLECTION, WRONG, REFLECTION]);
    const first = await drive();
    expect(first.stoppedBecause).toBe("paused");
    let state = foldRun(await events());
    expect(state.pause?.reason).toBe("breakpoint");
    expect(state.trials).toHaveLength(1);
    const reflection = state.trials[0]!.reflection!;
    const edited = "A teacher's wrong lesson: answer with the opera's composer.";
    const { draft } = await import("@/lib/domain/events");
    await store.append(run.id, run.rootBranchId, [
      draft("reflection-edit", { reflectionEventId: asEventId(reflection.eventId), oldText: reflection.text, newText: edited, note: "demo" }),
      draft("run-resume", { reason: "user" }),
    ]);
    const second = await drive();
    expect(second.stoppedBecause).toBe("paused"); // after trial 2's reflection
    const log = await events();
    state = foldRun(log);
    expect(state.trials[1]?.memory.map((m) => m.text)).toEqual([edited]);
    expect(actorPrompts(log, 2)[0]).toContain(edited);
    expect(actorPrompts(log, 2)[0]).not.toContain("LESSON");
    expect(state.trials[1]?.outcome).toBe("failure");
  });

  it("pauses at the next boundary when a pause-request is in the log, whoever appended it", async () => {
    const { drive, events, store, run } = await setup(qaConfig());
    const { draft } = await import("@/lib/domain/events");
    const result = await drive({
      atBoundary: async (n) => {
        if (n === 2) await store.append(run.id, run.rootBranchId, [draft("pause-request", { requestedBy: "another process" })]);
      },
    });
    expect(result.stoppedBecause).toBe("paused");
    const log = await events();
    expect(log.slice(-2).map((e) => e.type)).toEqual(["pause-request", "run-pause"]);
    expect(log.at(-1)).toMatchObject({ type: "run-pause", data: { reason: "user" } });
    expect(foldRun(log).pauseRequested).toBe(false);
  });

  it("records a provider failure as model-call-error and pauses; resuming continues the same trial", async () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
    const { drive, events, store, run } = await setup(qaConfig(), [refused, ...LEARNS]);
    const first = await drive();
    expect(first.stoppedBecause).toBe("paused");
    let log = await events();
    expect(log.map((e) => e.type)).toEqual(["run-start", "trial-start", "model-call-error", "run-pause"]);
    expect(log.at(-1)).toMatchObject({ data: { reason: "model-error" } });
    const { draft } = await import("@/lib/domain/events");
    await store.append(run.id, run.rootBranchId, [draft("run-resume", { reason: "user" })]);
    await drive();
    log = await events();
    const state = foldRun(log);
    expect(state.trials.map((t) => t.outcome)).toEqual(["failure", "success"]);
    expect(log.filter((e) => e.type === "trial-start")).toHaveLength(2); // the failed call did not start a new trial
  });

  it("writes a checkpoint after each trial end and each reflection whose digest matches the fold", async () => {
    const { drive, events } = await setup(qaConfig());
    await drive();
    const log = await events();
    const { digestState } = await import("@/lib/engine/digest");
    const checkpoints = log.filter((e) => e.type === "checkpoint");
    expect(checkpoints).toHaveLength(3); // trial 1 end, reflection 1, trial 2 end
    for (const checkpoint of checkpoints) {
      if (checkpoint.type !== "checkpoint") continue;
      const prefix = log.filter((e) => e.seq < checkpoint.seq);
      expect(digestState(foldRun(prefix))).toBe(checkpoint.data.digest);
    }
  });
});
