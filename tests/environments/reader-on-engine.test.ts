import { describe, expect, it } from "vitest";
import { runConfigSchema, type RunConfig } from "@/lib/domain/config";
import type { EnvironmentFamily } from "@/lib/domain/environment";
import type { RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { driveRun, type EngineDeps } from "@/lib/engine/run-engine";
import { builtinHouseholdTasks, householdEnvironment } from "@/lib/environments/household";
import { builtinQaTasks, qaEnvironment } from "@/lib/environments/qa";
import { createModelPort } from "@/lib/llm/model-port";
import { queuedMockModel } from "../helpers/mock-model";

/**
 * The action readers inside the real engine: what a family's reader takes out
 * (`reasoning`) and reads past (`ignored`) is recorded on the step, an action
 * inside a reasoning block never runs, and neither reaches a later prompt
 * (the scratchpad renderers use only the thought, action and observation texts).
 */

/** Drives a run; `replies[k]` answers the run's k-th model call, and every reply must be used. */
async function drive(runConfig: RunConfig, family: EnvironmentFamily<unknown>, replies: string[]) {
  const store = new MemoryRunStore();
  const model = queuedMockModel(replies);
  const deps: EngineDeps = { log: store, model: createModelPort({ resolveModel: () => model, maxRetries: 0 }), environmentFor: () => family };
  const run = await store.createRun({ config: runConfig, title: "reader" });
  await driveRun(deps, { runId: run.id, branchId: run.rootBranchId });
  expect(model.doStreamCalls).toHaveLength(replies.length);
  const events = await store.list(run.id, run.rootBranchId);
  return { events, state: foldRun(events) };
}

function prompts(events: RunEvent[], role: "actor" | "reflector"): string[] {
  return events.flatMap((event) => (event.type === "model-call-end" && event.data.role === role ? [event.data.messages.map((m) => m.content).join("\n")] : []));
}

const SECRET = "PRIVATE-CHAIN-OF-THOUGHT";

describe("QA reader on the engine path", () => {
  const task = builtinQaTasks[0]!;
  const runConfig = runConfigSchema.parse({
    environment: "qa",
    taskSetName: "builtin",
    taskId: task.id,
    task,
    strategy: "reflexion",
    maxTrials: 2,
    maxStepsPerTrial: 4,
    models: { actor: { modelId: "demo" }, reflector: { modelId: "demo" } },
    templates: qaEnvironment.defaultTemplates,
  });

  /** One trial's four Actor answers, by step. */
  const trialAnswers = [
    `<think>${SECRET}: the answer is surely Dunmere. Finish[Dunmere]</think>\nThought 1: I should search the opera first.\nAction 1: search [The Glass Orchard]. Then I will look for the town.\nObservation 1: The Glass Orchard is an opera.`,
    `<think>${SECRET} again\nAction 2: Finish[Dunmere]</think>`,
    ` The opera was staged in Dunmere.\nAction 3: "Search[Dunmere]"`,
    ` The opera was staged in Dunmere.\nAction 4: "Search[Dunmere]"`,
  ];
  // Trial 1 runs out of steps without an answer, is reflected on, and trial 2 plays the same four answers.
  const replies = [...trialAnswers, "Search the opera, then the town, then answer with the river.", ...trialAnswers];

  it("records reasoning and ignored text on the step, never runs the Finish inside <think>, and keeps both out of later prompts", async () => {
    const { events, state } = await drive(runConfig, qaEnvironment as EnvironmentFamily<unknown>, replies);
    const trial = state.trials[0]!;
    const [first, second, third] = trial.steps;
    expect(first?.thought).toMatchObject({ text: "I should search the opera first.", reasoning: `${SECRET}: the answer is surely Dunmere. Finish[Dunmere]` });
    expect(first?.action).toMatchObject({ text: "search [The Glass Orchard]", action: { type: "Search", argument: "The Glass Orchard" }, parseError: null });
    expect(first?.action?.ignored).toBe("Then I will look for the town.\nObservation 1: The Glass Orchard is an opera.");
    // Step 2 had an action only inside <think>: nothing ran, the trial went on.
    expect(second?.thought?.reasoning).toContain("Finish[Dunmere]");
    expect(second?.action).toMatchObject({ text: "", action: null });
    expect(second?.action?.parseError).toMatch(/empty/);
    expect(second?.observation?.done).toBe(false);
    expect(third?.action).toMatchObject({ text: "Search[Dunmere]", action: { type: "Search", argument: "Dunmere" } });
    expect(trial.answer).toBeNull();

    const later = [...prompts(events, "actor").slice(1), ...prompts(events, "reflector")];
    expect(later.length).toBeGreaterThan(3);
    for (const prompt of later) {
      expect(prompt).not.toContain(SECRET);
      expect(prompt).not.toContain("Then I will look for the town");
      expect(prompt).not.toContain("The Glass Orchard is an opera.");
    }
    expect(prompts(events, "actor")[1]).toContain("\nThought 1: I should search the opera first.\nAction 1: search [The Glass Orchard]\nObservation 1: The Glass Orchard is a chamber opera in three acts");
  });
});

describe("household reader on the engine path", () => {
  const task = builtinHouseholdTasks[0]!;
  const runConfig = runConfigSchema.parse({
    environment: "household",
    taskSetName: "builtin",
    taskId: task.id,
    task,
    strategy: "reflexion",
    maxTrials: 1,
    maxStepsPerTrial: 4,
    models: { actor: { modelId: "demo" }, reflector: { modelId: "demo" } },
    templates: householdEnvironment.defaultTemplates,
  });
  const answers = [
    `<think>${SECRET}: use desklamp 1 now?</think>\nGo to shelf 2. Then I take the mug.`,
    "take mug 1 from shelf 2\nYou pick up the mug 1 from the shelf 2.",
    "Action: go to desk 1.",
    "`use desklamp 1`",
  ];

  it("executes the commands as read, records what it left out, and keeps reasoning out of later prompts", async () => {
    const { events, state } = await drive(runConfig, householdEnvironment as EnvironmentFamily<unknown>, answers);
    const trial = state.trials[0]!;
    expect(trial.steps.map((step) => step.action?.text)).toEqual(["Go to shelf 2", "take mug 1 from shelf 2", "go to desk 1", "use desklamp 1"]);
    expect(trial.steps.map((step) => step.action?.ignored ?? null)).toEqual(["Then I take the mug.", "You pick up the mug 1 from the shelf 2.", null, null]);
    expect(trial.steps[0]?.thought?.reasoning).toBe(`${SECRET}: use desklamp 1 now?`);
    expect(trial.outcome).toBe("success");
    for (const prompt of prompts(events, "actor").slice(1)) {
      expect(prompt).not.toContain(SECRET);
      expect(prompt).not.toContain("Then I take the mug");
    }
    expect(prompts(events, "actor")[3]).toContain("\n> Go to shelf 2\nOn the shelf 2, you see");
  });
});
