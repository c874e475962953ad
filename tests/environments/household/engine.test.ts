import { describe, expect, it } from "vitest";
import { runConfigSchema, type RunConfig } from "@/lib/domain/config";
import type { EnvironmentFamily } from "@/lib/domain/environment";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { driveRun, type EngineDeps } from "@/lib/engine/run-engine";
import { builtinHouseholdTasks, householdDemoScriptBook, householdEnvironment } from "@/lib/environments/household";
import { createModelPort } from "@/lib/llm/model-port";
import { demoMockModel } from "../../helpers/mock-model";

/**
 * The household family inside the real engine (event log, decide, replay,
 * early stop), with the demo script book as the model: the whole loop the
 * app runs, minus the server.
 */

const task = builtinHouseholdTasks[0]!; // examine the mug with the desklamp

function config(overrides: Partial<RunConfig> = {}): RunConfig {
  return runConfigSchema.parse({
    environment: "household",
    taskSetName: "builtin",
    taskId: task.id,
    task,
    strategy: "reflexion",
    models: { actor: { modelId: "demo" }, reflector: { modelId: "demo" } },
    templates: householdEnvironment.defaultTemplates,
    maxStepsPerTrial: householdEnvironment.defaultMaxStepsPerTrial,
    ...overrides,
  });
}

async function run(runConfig: RunConfig) {
  const store = new MemoryRunStore();
  const model = demoMockModel([householdDemoScriptBook]);
  const deps: EngineDeps = {
    log: store,
    model: createModelPort({ resolveModel: () => model, maxRetries: 0 }),
    environmentFor: () => householdEnvironment as EnvironmentFamily<unknown>,
  };
  const created = await store.createRun({ config: runConfig, title: task.description });
  const result = await driveRun(deps, { runId: created.id, branchId: created.rootBranchId });
  return { result, state: foldRun(await store.list(created.id, created.rootBranchId)) };
}

describe("the household family in the engine, played by the demo script book", () => {
  it("reflexion: trial 1 is halted by the repetition heuristic, the lesson is reflected, trial 2 succeeds", async () => {
    const { result, state } = await run(config());
    expect(result.stoppedBecause).toBe("ended");
    expect(state.trials.map((trial) => trial.outcome)).toEqual(["halted", "success"]);
    const [first, second] = state.trials;
    expect(first?.endReason).toBe('The same action "use desklamp 1" gave the same observation "Nothing happens." 3 times in a row.');
    expect(first?.evaluation).toMatchObject({ verdict: "fail", evaluatorKind: "environment-success", oracle: false });
    expect(first?.reflection?.text).toContain("find the desklamp first");
    expect(first?.steps.at(-1)?.observation?.state).toEqual({ location: "sidetable 1", inventory: ["mug 1"] });
    expect(second?.steps.map((step) => step.action?.text)).toEqual([
      "think: My memory says to find the desklamp first: desklamp 1 is on desk 1, and mug 1 was on shelf 2.",
      "go to desk 1",
      "think: desklamp 1 is here. Now I fetch mug 1 from shelf 2 and bring it back to desk 1.",
      "go to shelf 2",
      "take mug 1 from shelf 2",
      "go to desk 1",
      "use desklamp 1",
    ]);
    expect(second?.steps.at(-1)?.observation).toMatchObject({ text: "You turn on the desklamp 1.", done: true, state: { location: "desk 1", inventory: ["mug 1"] } });
    expect(state.outcome).toBe("success");
  });

  it("none: no memory, no success", async () => {
    const { state } = await run(config({ strategy: "none", maxTrials: 3 }));
    expect(state.trials.map((trial) => trial.outcome)).toEqual(["halted", "halted", "halted"]);
    expect(state.outcome).toBe("failure");
  });

  it("the step budget halts a trial that never repeats itself three times", async () => {
    const { state } = await run(config({ maxTrials: 1, maxStepsPerTrial: 5 }));
    expect(state.trials[0]?.steps).toHaveLength(5);
    expect(state.trials[0]?.endReason).toBe("Step limit reached (5 steps) without finishing.");
  });
});
