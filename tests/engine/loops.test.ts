import { describe, expect, it } from "vitest";
import { runConfigSchema, type RunConfig, type Strategy } from "@/lib/domain/config";
import type { EnvironmentFamily } from "@/lib/domain/environment";
import type { RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { driveRun, type EngineDeps } from "@/lib/engine/run-engine";
import { builtinHouseholdTasks, householdEnvironment } from "@/lib/environments/household";
import { builtinQaTasks, qaEnvironment } from "@/lib/environments/qa";
import { NO_ANSWER_FEEDBACK } from "@/lib/environments/qa/exact-match";
import { createModelPort } from "@/lib/llm/model-port";
import { queuedMockModel } from "../helpers/mock-model";

/**
 * Loops in every family, on the real engine path (event log, decideNext,
 * episode replay, the AI SDK model port with a scripted mock model): a model
 * that loops gets its trial halted with the loop as the one reason, in
 * `trial-end` and in `evaluation-end`; the Self-Reflection follows under the
 * reflecting strategies, and the next trial's prompt carries what the
 * strategy puts there (decision 0014).
 */

const qaTask = builtinQaTasks[0]!; // The Glass Orchard → staged in Dunmere → River Sallow
const householdTask = builtinHouseholdTasks[0]!; // examine the mug with the desklamp
const GOAL = "a mug held where a desklamp is switched on";

function config(environment: "qa" | "household", overrides: Partial<RunConfig> = {}): RunConfig {
  const family = environment === "qa" ? qaEnvironment : householdEnvironment;
  const task = environment === "qa" ? qaTask : householdTask;
  return runConfigSchema.parse({
    environment,
    taskSetName: "builtin",
    taskId: task.id,
    task,
    strategy: "reflexion",
    maxTrials: 2,
    maxStepsPerTrial: family.defaultMaxStepsPerTrial,
    models: { actor: { modelId: "demo" }, reflector: { modelId: "demo" } },
    templates: family.defaultTemplates,
    ...overrides,
  });
}

/** Drives a run; `replies[k]` answers the run's k-th model call, and every reply must be used. */
async function drive(runConfig: RunConfig, replies: readonly string[]) {
  const store = new MemoryRunStore();
  const model = queuedMockModel(replies);
  const family = (runConfig.environment === "qa" ? qaEnvironment : householdEnvironment) as EnvironmentFamily<unknown>;
  const deps: EngineDeps = { log: store, model: createModelPort({ resolveModel: () => model, maxRetries: 0 }), environmentFor: () => family };
  const run = await store.createRun({ config: runConfig, title: "loops" });
  const result = await driveRun(deps, { runId: run.id, branchId: run.rootBranchId });
  expect(model.doStreamCalls).toHaveLength(replies.length);
  const events = await store.list(run.id, run.rootBranchId);
  return { result, events, state: foldRun(events) };
}

/** The Actor prompts of a trial, in step order, from the recorded model calls. */
function actorPrompts(events: RunEvent[], trial: number): string[] {
  return events.flatMap((event) =>
    event.type === "model-call-end" && event.data.role === "actor" && event.data.trial === trial ? [event.data.messages.map((m) => m.content).join("\n")] : [],
  );
}

function reflectorPrompts(events: RunEvent[]): string[] {
  return events.flatMap((event) => (event.type === "model-call-end" && event.data.role === "reflector" ? [event.data.messages.map((m) => m.content).join("\n")] : []));
}

const QA_LESSON = "LESSON: Dunmere Abbey is not a page; search The Glass Orchard, then Dunmere, and answer with its river.";
/** A QA trial's Actor answers for `steps` steps, looping through `loop` (one action per step, as written). */
function qaLoop(loop: readonly string[], steps: number): string[] {
  return Array.from({ length: steps }, (_, i) => ` I will try this again.\nAction ${i + 1}: ${loop[i % loop.length]}`);
}

/** A QA trial's Actor answers that follow the lesson to the answer in three steps. */
const QA_INFORMED = ["Search[The Glass Orchard]", "Search[Dunmere]", "Finish[River Sallow]"].map((action, i) => ` The lesson says where to look.\nAction ${i + 1}: ${action}`);

describe("QA: a looping Actor is halted with the loop as the reason", () => {
  it("repetition (normalised: case, spacing, trailing punctuation): halted at step 3, reflected on, and the reflection reaches trial 2", async () => {
    const { result, events, state } = await drive(config("qa"), [
      ...qaLoop(["Search[Dunmere Abbey]", "search [dunmere abbey].", "SEARCH[Dunmere Abbey]"], 3),
      `${QA_LESSON} (1)`,
      ...QA_INFORMED,
    ]);
    expect(result.stoppedBecause).toBe("ended");
    const [first, second] = state.trials;
    expect(first?.steps).toHaveLength(3);
    expect(first?.outcome).toBe("halted");
    const reason = first?.endReason ?? "";
    expect(reason).toMatch(/^The same action "Search\[Dunmere Abbey\]" gave the same observation "Could not find \[Dunmere Abbey\]\. Similar: \['Dunmere', .*" 3 times in a row\.$/);
    // One reason, in the trial end and in the evaluation the Self-Reflection model reads.
    expect(first?.evaluation?.feedback).toBe(`${NO_ANSWER_FEEDBACK}. ${reason}`);
    expect(first?.evaluation?.details).toMatchObject({ halt: { kind: "repetition", message: reason } });
    expect(reflectorPrompts(events)[0]).toContain(`Evaluator: ${NO_ANSWER_FEEDBACK}. ${reason}`);
    expect(first?.reflection?.text).toBe(`${QA_LESSON} (1)`);
    // Trial 2 starts with the reflection in its memory and in its first Actor prompt, and succeeds.
    expect(second?.memory.map((item) => item.text)).toEqual([`${QA_LESSON} (1)`]);
    expect(actorPrompts(events, 2)[0]).toContain(`Reflections:\n- ${QA_LESSON} (1)`);
    expect(actorPrompts(events, 2)[0]).not.toContain("Dunmere Abbey]\nObservation");
    expect(second?.outcome).toBe("success");
  });

  it("a cycle A, B, A, B: halted at step 4 with the cycle named", async () => {
    const { state } = await drive(config("qa", { maxTrials: 1 }), qaLoop(["Search[Dunmere Abbey]", "Lookup[river]"], 4));
    const trial = state.trials[0]!;
    expect(trial.steps.map((step) => step.action?.text)).toEqual(["Search[Dunmere Abbey]", "Lookup[river]", "Search[Dunmere Abbey]", "Lookup[river]"]);
    expect(trial.outcome).toBe("halted");
    expect(trial.endReason).toBe(
      'The actions "Search[Dunmere Abbey]", "Lookup[river]" were repeated in the same order with the same observations: a cycle of 2 steps, twice in a row.',
    );
    expect(trial.evaluation?.feedback).toBe(`${NO_ANSWER_FEEDBACK}. ${trial.endReason}`);
  });

  it("two stop rules at the same step (the loop closes on the last step of the budget): one reason, the loop, in both places", async () => {
    const { state } = await drive(config("qa", { maxTrials: 1, maxStepsPerTrial: 3 }), qaLoop(["Search[Dunmere Abbey]"], 3));
    const trial = state.trials[0]!;
    expect(trial.steps).toHaveLength(3);
    expect(trial.endReason).toMatch(/^The same action "Search\[Dunmere Abbey\]" .* 3 times in a row\.$/);
    expect(trial.evaluation?.feedback).toBe(`${NO_ANSWER_FEEDBACK}. ${trial.endReason}`);
  });

  it("a trial that does not loop still runs to its step budget, with the budget as the reason", async () => {
    // Failed Searches alternate with Lookups: 3 Searches in a row with the same suggestions would be a stall.
    const { state } = await drive(config("qa", { maxTrials: 1 }), qaLoop(["Search[Abbey 1]", "Lookup[bell]", "Search[Abbey 2]", "Lookup[tower]", "Search[Abbey 3]", "Lookup[river]"], 6));
    const trial = state.trials[0]!;
    expect(trial.steps).toHaveLength(6);
    expect(trial.endReason).toBe("Step limit reached (6 steps) without finishing.");
    expect(trial.evaluation?.feedback).toBe(NO_ANSWER_FEEDBACK);
  });

  it("under none there is no reflection and trial 2's prompt carries no memory; under last-attempt-and-reflexion it carries the looping trial and the reflection", async () => {
    const none = await drive(config("qa", { strategy: "none" }), [...qaLoop(["Search[Dunmere Abbey]"], 3), ...qaLoop(["Search[Dunmere Abbey]"], 3)]);
    expect(none.state.trials.map((trial) => trial.outcome)).toEqual(["halted", "halted"]);
    expect(reflectorPrompts(none.events)).toHaveLength(0);
    expect(actorPrompts(none.events, 2)[0]).not.toMatch(/Reflections:|END PREVIOUS TRIAL/);

    const both = await drive(config("qa", { strategy: "last-attempt-and-reflexion" satisfies Strategy }), [...qaLoop(["Search[Dunmere Abbey]"], 3), `${QA_LESSON} (1)`, ...QA_INFORMED]);
    expect(both.state.trials[0]?.outcome).toBe("halted");
    const prompt = actorPrompts(both.events, 2)[0]!;
    expect(prompt).toContain("Action 3: Search[Dunmere Abbey]\nObservation 3: Could not find [Dunmere Abbey].");
    expect(prompt).toContain("(END PREVIOUS TRIAL)");
    expect(prompt).toContain(`${QA_LESSON} (1)`);
    expect(both.state.trials[1]?.outcome).toBe("success");
  });
});

describe("household: cycles and normalised repeats are halted too", () => {
  const REFLECTION = "I walked between the shelf and the desk; I should take the mug from shelf 2, go to desk 1 and use desklamp 1.";
  const INFORMED = ["go to shelf 2", "take mug 1 from shelf 2", "go to desk 1", "use desklamp 1"];

  it("A, B, A, B written with different case and punctuation: halted at step 4, reflected on, and the plan reaches trial 2", async () => {
    const { events, state } = await drive(config("household"), ["go to shelf 2", "go to desk 1", "Go to shelf 2.", "> go to  desk 1", `${REFLECTION} (1)`, ...INFORMED]);
    const [first, second] = state.trials;
    expect(first?.steps.map((step) => step.action?.text)).toEqual(["go to shelf 2", "go to desk 1", "Go to shelf 2", "go to  desk 1"]);
    expect(first?.outcome).toBe("halted");
    expect(first?.endReason).toBe(
      'The actions "go to shelf 2", "go to desk 1" were repeated in the same order with the same observations: a cycle of 2 steps, twice in a row.',
    );
    expect(first?.evaluation?.feedback).toBe(`Task not completed: the goal (${GOAL}) was not reached. ${first?.endReason}`);
    expect(reflectorPrompts(events)[0]).toContain(`Evaluator: ${first?.evaluation?.feedback}`);
    expect(first?.reflection?.text).toBe(`${REFLECTION} (1)`);
    expect(actorPrompts(events, 2)[0]).toContain(`Your memory for the task below:\nTrial 1:\n${REFLECTION} (1)`);
    expect(second?.outcome).toBe("success");
  });

  it("two stop rules at the same step: the repetition, not the step limit, is the one reason in the trial end and the evaluation", async () => {
    const { state } = await drive(config("household", { maxTrials: 1, maxStepsPerTrial: 3 }), ["use desklamp 1", "use desklamp 1.", "USE desklamp 1"]);
    const trial = state.trials[0]!;
    expect(trial.steps).toHaveLength(3);
    const reason = 'The same action "use desklamp 1" gave the same observation "Nothing happens." 3 times in a row.';
    expect(trial.endReason).toBe(reason);
    expect(trial.evaluation?.feedback).toBe(`Task not completed: the goal (${GOAL}) was not reached. ${reason}`);
    expect(trial.evaluation?.details).toMatchObject({ halt: { kind: "repetition", message: reason } });
  });
});

describe("household: the memory in the Actor prompt is labelled with the trials the reflections came from", () => {
  it("at trial 6 with Ω = 3 the prompt reads Trial 3, 4, 5 (not 1, 2, 3)", async () => {
    // Six trials of three repeated actions; each of the first five is reflected on.
    const replies = [1, 2, 3, 4, 5, 6].flatMap((trial) => [
      ...Array<string>(3).fill("use desklamp 1"),
      ...(trial < 6 ? [`Plan after failure ${trial}: open every drawer before the shelves.`] : []),
    ]);
    const { events, state } = await drive(config("household", { maxTrials: 6, maxStepsPerTrial: 3, memoryWindow: 3 }), replies);
    expect(state.trials).toHaveLength(6);
    const prompt = actorPrompts(events, 6)[0]!;
    const memory = prompt.slice(prompt.indexOf("Your memory for the task below:"), prompt.indexOf("Here is the task:"));
    expect(memory).toBe(
      [
        "Your memory for the task below:",
        "Trial 3:",
        "Plan after failure 3: open every drawer before the shelves.",
        "Trial 4:",
        "Plan after failure 4: open every drawer before the shelves.",
        "Trial 5:",
        "Plan after failure 5: open every drawer before the shelves.",
        "",
        "",
      ].join("\n"),
    );
  });
});
