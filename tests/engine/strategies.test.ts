// Over 400 lines on purpose: the prompt matrix of all six strategies (what each Actor and
// Self-Reflection prompt carries in trials 1–3) reads best in one file.
import { describe, expect, it } from "vitest";
import type { CreateRunRequest } from "@/lib/domain/api";
import type { RunConfig, Strategy } from "@/lib/domain/config";
import type { EnvironmentFamily } from "@/lib/domain/environment";
import { isAppError } from "@/lib/domain/errors";
import { draft, type EventDraft } from "@/lib/domain/events";
import { foldRun, type RunState } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { driveRun, type EngineDeps } from "@/lib/engine/run-engine";
import { nextTrialView } from "@/lib/domain/next-trial";
import { fixedLimitsOf } from "@/lib/domain/strategies";
import { strategyBehaviour, supportedStrategiesOf } from "@/lib/engine/strategies";
import { builtinHouseholdTasks, householdDemoScriptBook, householdEnvironment } from "@/lib/environments/household";
import { builtinQaTasks, qaDemoScriptBook, qaEnvironment } from "@/lib/environments/qa";
import { NO_TOOLS_INVALID_ACTION_OBSERVATION } from "@/lib/environments/qa/environment";
import {
  CONTEXT_LABEL,
  END_OF_EXAMPLES_MARKER,
  END_PREVIOUS_TRIAL_MARKER,
  LAST_ATTEMPT_HEADER,
  MEMORY_HEADER,
  reflectionsHeaderAfterLastAttempt,
  renderTrajectory,
} from "@/lib/environments/qa/prompts";
import { joinSentences, type QaTask } from "@/lib/environments/qa/task";
import { environmentEntry } from "@/lib/environments/registry";
import { createModelPort } from "@/lib/llm/model-port";
import { buildRunConfig } from "@/lib/server/run-config-factory";
import { MockLanguageModelV3 } from "ai/test";
import { demoMockModel, promptText, queuedMockModel } from "../helpers/mock-model";

/**
 * Every memory strategy through the real engine, asserting on the prompts the
 * AI SDK mock model actually received (docs/decisions/0008-strategies.md has
 * the table these tests check). Configs come from the real config factory, so
 * each strategy runs with the templates and step budget the app would use.
 */

/**
 * The methods shipped today, whose behaviour this file writes out by hand. A method added later
 * (one folder in lib/methods) is covered by the conformance suite; these tables stay as they are.
 */
const ALL_STRATEGIES = ["none", "reflexion", "last-attempt", "last-attempt-and-reflexion", "cot", "cot-gold-context"] as const satisfies readonly Strategy[];
type BuiltInStrategy = (typeof ALL_STRATEGIES)[number];
/** `strategies` without methods added after today's (keeps the written-out expectations exact). */
const builtInOnly = (strategies: readonly Strategy[]) => strategies.filter((strategy) => (ALL_STRATEGIES as readonly string[]).includes(strategy));
const task = builtinQaTasks[0]!; // "Which river runs through the town where the opera The Glass Orchard was first staged?" → River Sallow
const qaEntry = environmentEntry("qa");
const householdEntry = environmentEntry("household");

function request(strategy: Strategy, overrides: Partial<CreateRunRequest> = {}): CreateRunRequest {
  return { environment: "qa", taskSet: "builtin", taskId: task.id, strategy, modelId: "demo", maxTrials: 3, ...overrides };
}

function qaConfig(strategy: Strategy, overrides: Partial<CreateRunRequest> = {}, qaTask: QaTask = task): RunConfig {
  return buildRunConfig(request(strategy, { taskId: qaTask.id, ...overrides }), qaEntry, qaTask, "builtin");
}

/** One recorded model call: the mock model's prompt, labelled from the matching `model-call-end` event. */
interface Call {
  role: "actor" | "reflector" | "evaluator";
  trial: number;
  step: number | null;
  prompt: string;
}

/**
 * Drives a run to its end with `model`; `before` is appended right after `run-start` (e.g. a hand-written memory).
 * Queued replies given instead of a model must all be used.
 */
async function drive(
  config: RunConfig,
  replies: readonly string[] | MockLanguageModelV3,
  family: EnvironmentFamily<unknown> = qaEnvironment as EnvironmentFamily<unknown>,
  before: readonly EventDraft[] = [],
) {
  const store = new MemoryRunStore();
  const model = replies instanceof MockLanguageModelV3 ? replies : queuedMockModel(replies);
  const deps: EngineDeps = {
    log: store,
    model: createModelPort({ resolveModel: () => model, maxRetries: 0 }),
    environmentFor: () => family,
  };
  const run = await store.createRun({ config, title: "strategies" });
  if (before.length > 0) await store.append(run.id, run.rootBranchId, before);
  const result = await driveRun(deps, { runId: run.id, branchId: run.rootBranchId });
  const events = await store.list(run.id, run.rootBranchId);
  const ends = events.flatMap((event) => (event.type === "model-call-end" ? [event.data] : []));
  // The mock's recorded calls, in order, are the prompts; the log says which role, trial and step each was.
  const prompts = model.doStreamCalls.map((call) => promptText(call));
  expect(prompts).toHaveLength(ends.length);
  if (!(replies instanceof MockLanguageModelV3)) expect(prompts).toHaveLength(replies.length);
  const calls: Call[] = ends.map((end, index) => {
    expect(end.messages.map((message) => message.content).join("\n\n")).toBe(prompts[index]);
    return { role: end.role, trial: end.trial, step: end.step, prompt: prompts[index]! };
  });
  return { result, state: foldRun(events), calls, events };
}

const actorCalls = (calls: Call[], trial?: number) => calls.filter((call) => call.role === "actor" && (trial === undefined || call.trial === trial));
const reflectorCalls = (calls: Call[]) => calls.filter((call) => call.role === "reflector");
const firstActorPrompt = (calls: Call[], trial: number) => actorCalls(calls, trial)[0]!.prompt;

/** The strategies that reflect after a failed trial (decision 0008), written out rather than read from the engine. */
const REFLECTING: Record<BuiltInStrategy, boolean> = {
  none: false,
  "last-attempt": false,
  reflexion: true,
  "last-attempt-and-reflexion": true,
  cot: true,
  "cot-gold-context": true,
};

/**
 * The replies, in call order, of a scripted Actor that fails all three trials,
 * labelling everything it writes so the tests can tell trials and reflections
 * apart: the thought of trial k starts "Attempt k:", the k-th reflection is
 * "REFLECTION k: …". Under the ReAct strategies each trial is a Search then a
 * wrong Finish (two steps); under the chain-of-thought ones a wrong Finish at
 * once. The reflecting strategies reflect after trials 1 and 2, not after the last.
 */
function labelledReplies(strategy: BuiltInStrategy): string[] {
  return [1, 2, 3].flatMap((trial) => [
    ...(strategy.startsWith("cot")
      ? [` Attempt ${trial}: it was staged in Dunmere.\nAction 1: Finish[Dunmere]`]
      : [` Attempt ${trial}: find where the opera was staged.\nAction 1: Search[The Glass Orchard]`, ` Attempt ${trial}: it was staged in Dunmere.\nAction 2: Finish[Dunmere]`]),
    ...(REFLECTING[strategy] && trial < 3 ? [`REFLECTION ${trial}: the question asks for a river, not a town.`] : []),
  ]);
}

/** Text that only a previous-trial block or a reflections block can put in an Actor prompt. */
const MEMORY_MARKERS = [END_PREVIOUS_TRIAL_MARKER, LAST_ATTEMPT_HEADER, "Reflections:", MEMORY_HEADER, "REFLECTION"];

/** The prompt's text after the few-shot examples (the memory slot, the context, the question and the scratchpad). */
const afterExamples = (prompt: string) => prompt.slice(prompt.lastIndexOf(END_OF_EXAMPLES_MARKER));

/** The trajectory of a trial as the QA family renders it in prompts. */
function renderedTrial(state: RunState, trial: number): string {
  const view = state.trials.find((t) => t.trial === trial)!;
  return renderTrajectory(
    view.steps.map((step) => ({
      step: step.step,
      thought: step.thought?.text ?? "",
      actionText: step.action?.text ?? "",
      observation: step.observation?.text ?? "",
    })),
  );
}

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

const runs = new Map<string, Promise<Awaited<ReturnType<typeof drive>>>>();
/** Each strategy's 3-trial run with the labelled replies, shared by the tests below (memoised). */
function runOf(strategy: BuiltInStrategy, overrides: Partial<CreateRunRequest> = {}) {
  const key = `${strategy} ${JSON.stringify(overrides)}`;
  let found = runs.get(key);
  if (!found) {
    found = drive(qaConfig(strategy, overrides), labelledReplies(strategy));
    runs.set(key, found);
  }
  return found;
}

describe("strategy none (ReAct only)", () => {
  it("never reflects and never puts memory in an Actor prompt", async () => {
    const { state, calls } = await runOf("none");
    expect(state.trials.map((t) => t.outcome)).toEqual(["failure", "failure", "failure"]);
    expect(reflectorCalls(calls)).toHaveLength(0);
    expect(actorCalls(calls)).toHaveLength(6);
    for (const call of actorCalls(calls)) for (const marker of MEMORY_MARKERS) expect(call.prompt).not.toContain(marker);
    // Every trial starts from the same prompt: nothing of an earlier trial reaches a later one.
    expect(firstActorPrompt(calls, 2)).toBe(firstActorPrompt(calls, 1));
    expect(firstActorPrompt(calls, 3)).toBe(firstActorPrompt(calls, 1));
    expect(state.trials.every((t) => t.memory.length === 0)).toBe(true);
  });
});

describe("strategy last-attempt (EPM)", () => {
  it("puts the previous trial's trajectory, with its end marker, in the next trial's prompt and never reflects", async () => {
    const { state, calls } = await runOf("last-attempt");
    expect(state.trials.map((t) => t.outcome)).toEqual(["failure", "failure", "failure"]);
    expect(reflectorCalls(calls)).toHaveLength(0);
    for (const marker of MEMORY_MARKERS) expect(firstActorPrompt(calls, 1)).not.toContain(marker);

    for (const trial of [2, 3]) {
      for (const call of actorCalls(calls, trial)) {
        const tail = afterExamples(call.prompt);
        expect(tail, "run-engine.ts must pass the previous trial to buildActorMessages (docs/decisions/0008-strategies.md)").toContain(
          `${LAST_ATTEMPT_HEADER}\nQuestion: ${task.question}${renderedTrial(state, trial - 1)}\n${END_PREVIOUS_TRIAL_MARKER}\n\nQuestion: ${task.question}\nThought`,
        );
        expect(count(tail, END_PREVIOUS_TRIAL_MARKER)).toBe(1);
        expect(tail).not.toContain("Reflections:");
        expect(tail).not.toContain(MEMORY_HEADER);
      }
    }
    // Only the newest trial: trial 3 shows trial 2's trajectory, not trial 1's.
    const third = afterExamples(firstActorPrompt(calls, 3));
    expect(third).toContain("Attempt 2:");
    expect(third).not.toContain("Attempt 1:");
  });
});

describe("strategy reflexion", () => {
  it("with Ω = 1, trial 3 sees only reflection 2; no previous-trial block", async () => {
    const { state, calls } = await runOf("reflexion", { memoryWindow: 1 });
    expect(state.trials.map((t) => t.outcome)).toEqual(["failure", "failure", "failure"]);
    // Reflections after trials 1 and 2, none after the last trial.
    expect(reflectorCalls(calls).map((call) => call.trial)).toEqual([1, 2]);
    for (const marker of MEMORY_MARKERS) expect(firstActorPrompt(calls, 1)).not.toContain(marker);
    for (const call of actorCalls(calls, 2)) {
      expect(afterExamples(call.prompt)).toContain(`${MEMORY_HEADER}\nReflections:\n- REFLECTION 1: the question asks for a river, not a town.\n\nQuestion: ${task.question}`);
    }
    for (const call of actorCalls(calls, 3)) {
      const tail = afterExamples(call.prompt);
      expect(tail).toContain("- REFLECTION 2:");
      expect(tail).not.toContain("REFLECTION 1");
    }
    for (const call of actorCalls(calls)) {
      expect(call.prompt).not.toContain(END_PREVIOUS_TRIAL_MARKER);
      expect(call.prompt).not.toContain(LAST_ATTEMPT_HEADER);
    }
    expect(state.trials[2]?.evicted.map((item) => item.text)).toEqual(["REFLECTION 1: the question asks for a river, not a town."]);
  });

  it("with the default Ω = 3, trial 3 sees both reflections, oldest first", async () => {
    const { calls } = await runOf("reflexion");
    expect(afterExamples(firstActorPrompt(calls, 3))).toMatch(/Reflections:\n- REFLECTION 1: [^\n]*\n- REFLECTION 2: [^\n]*\n\nQuestion: /);
  });

  it("the Self-Reflection prompt shows the failed trial and its feedback, ends with `Reflection:`, and no memory", async () => {
    const { state, calls } = await runOf("reflexion", { memoryWindow: 1 });
    const [first, second] = reflectorCalls(calls);
    expect(first!.prompt.endsWith(`Question: ${task.question}${renderedTrial(state, 1)}\n\nEvaluator: ${state.trials[0]!.evaluation!.feedback}\n\nReflection:`)).toBe(true);
    expect(second!.prompt).toContain(`Question: ${task.question}${renderedTrial(state, 2)}\n\nEvaluator: `);
    expect(second!.prompt).not.toContain("REFLECTION 1");
    expect(second!.prompt).not.toContain("Attempt 1:");
  });
});

describe("strategy last-attempt-and-reflexion (EPM + Reflexion)", () => {
  it("puts the previous trajectory, then ONLY the newest reflection under the shorter header (Ω ignored)", async () => {
    const { state, calls } = await runOf("last-attempt-and-reflexion", { memoryWindow: 3 });
    expect(state.config?.memoryWindow).toBe(1);
    expect(reflectorCalls(calls).map((call) => call.trial)).toEqual([1, 2]);
    for (const marker of MEMORY_MARKERS) expect(firstActorPrompt(calls, 1)).not.toContain(marker);
    for (const trial of [2, 3]) {
      for (const call of actorCalls(calls, trial)) {
        const tail = afterExamples(call.prompt);
        expect(tail, "run-engine.ts must pass the previous trial to buildActorMessages (docs/decisions/0008-strategies.md)").toContain(
          `${LAST_ATTEMPT_HEADER}\nQuestion: ${task.question}${renderedTrial(state, trial - 1)}\n${END_PREVIOUS_TRIAL_MARKER}\n\n` +
            `${reflectionsHeaderAfterLastAttempt(1)}\nReflections:\n- REFLECTION ${trial - 1}: the question asks for a river, not a town.\n\nQuestion: ${task.question}\nThought`,
        );
        expect(tail).not.toContain(MEMORY_HEADER);
        expect(count(tail, "\n- REFLECTION")).toBe(1);
        expect(count(tail, END_PREVIOUS_TRIAL_MARKER)).toBe(1);
      }
    }
    const third = afterExamples(firstActorPrompt(calls, 3));
    expect(third).not.toContain("REFLECTION 1");
    expect(third).not.toContain("Attempt 1:");
    expect(state.trials[2]?.memory.map((item) => item.trial)).toEqual([2]);
  });
});

describe("trial 1 is one prompt for every ReAct strategy (one template, empty memory slot)", () => {
  it("none, reflexion, last-attempt and last-attempt-and-reflexion send the same first Actor prompt", async () => {
    const prompts = await Promise.all(
      (["none", "reflexion", "last-attempt", "last-attempt-and-reflexion"] as const).map(async (strategy) => firstActorPrompt((await runOf(strategy)).calls, 1)),
    );
    expect(new Set(prompts).size).toBe(1);
    expect(prompts[0]!.endsWith(`${END_OF_EXAMPLES_MARKER}\n\nQuestion: ${task.question}\nThought 1:`)).toBe(true);
  });
});

const paragraphTexts = (qaTask: QaTask) => qaTask.paragraphs.map((paragraph) => ({ title: paragraph.title, text: joinSentences(paragraph.sentences) }));

describe("strategy cot (closed-book chain of thought + Reflexion)", () => {
  it("has no tools and no paragraphs in any prompt, one step per trial, and reflects with the CoT reflection prompt", async () => {
    const { state, calls } = await runOf("cot");
    expect(state.config?.maxStepsPerTrial).toBe(1);
    expect(state.config?.templates.actor.id).toBe("qa/cot-actor");
    expect(state.trials.map((t) => t.steps.length)).toEqual([1, 1, 1]);
    expect(state.trials.map((t) => t.outcome)).toEqual(["failure", "failure", "failure"]);
    expect(actorCalls(calls).map((call) => [call.trial, call.step])).toEqual([[1, 1], [2, 1], [3, 1]]);
    expect(reflectorCalls(calls).map((call) => call.trial)).toEqual([1, 2]);
    for (const call of calls) {
      for (const tool of ["Search[", "Lookup["]) expect(call.prompt).not.toContain(tool);
      for (const { text } of paragraphTexts(task)) expect(call.prompt).not.toContain(text);
      expect(call.prompt).not.toContain(CONTEXT_LABEL);
      expect(call.prompt).not.toContain(END_PREVIOUS_TRIAL_MARKER);
    }
    for (const call of actorCalls(calls)) expect(call.prompt).toContain("Finish[answer]");
    expect(firstActorPrompt(calls, 1).endsWith(`${END_OF_EXAMPLES_MARKER}\n\nQuestion: ${task.question}\nThought 1:`)).toBe(true);
    // Memory: the reflections, windowed by Ω (default 3).
    expect(afterExamples(firstActorPrompt(calls, 2))).toContain(`${MEMORY_HEADER}\nReflections:\n- REFLECTION 1:`);
    expect(afterExamples(firstActorPrompt(calls, 3))).toMatch(/- REFLECTION 1: [^\n]*\n- REFLECTION 2: /);
    // The CoT reflection prompt: exact match and phrasing, the one-step trajectory, `Reflection:` at the end.
    const reflection = reflectorCalls(calls)[0]!.prompt;
    expect(state.config?.templates.reflector.id).toBe("qa/cot-reflect");
    expect(reflection).toMatch(/exact match/);
    expect(reflection).toMatch(/phrasing discrepancy/);
    expect(reflection.endsWith(`Question: ${task.question}${renderedTrial(state, 1)}\n\nEvaluator: ${state.trials[0]!.evaluation!.feedback}\n\nReflection:`)).toBe(true);
    expect(renderedTrial(state, 1)).toBe("\nThought 1: Attempt 1: it was staged in Dunmere.\nAction 1: Finish[Dunmere]\nObservation 1: Episode finished, answer submitted: Dunmere");
  });

  it("a tool action is invalid and the one-step trial halts without an answer", async () => {
    const { state } = await drive(qaConfig("cot", { maxTrials: 1 }), [" I will look it up.\nAction 1: Search[The Glass Orchard]"]);
    const trial = state.trials[0]!;
    expect(trial.steps).toHaveLength(1);
    expect(trial.outcome).toBe("halted");
    expect(trial.steps[0]?.observation?.text, "run-engine.ts must pass { strategy } to family.startEpisode (docs/decisions/0008-strategies.md)").toBe(
      NO_TOOLS_INVALID_ACTION_OBSERVATION,
    );
  });
});

describe("strategy cot-gold-context (CoT (GT) + Reflexion, the paper's Fig. 4b)", () => {
  it("gives the supporting paragraphs (each once, no distractor) and no tools, one step per trial", async () => {
    const { state, calls } = await runOf("cot-gold-context");
    expect(state.config?.maxStepsPerTrial).toBe(1);
    expect([state.config?.templates.actor.id, state.config?.templates.reflector.id]).toEqual(["qa/cot-context-actor", "qa/cot-context-reflect"]);
    expect(state.trials.map((t) => t.steps.length)).toEqual([1, 1, 1]);
    expect(reflectorCalls(calls).map((call) => call.trial)).toEqual([1, 2]);
    const supporting = new Set(task.supportingTitles);
    for (const call of calls) {
      for (const tool of ["Search[", "Lookup["]) expect(call.prompt).not.toContain(tool);
      for (const { title, text } of paragraphTexts(task)) {
        if (supporting.has(title)) expect(count(call.prompt, `${title}: ${text}`), title).toBe(1);
        else expect(call.prompt, title).not.toContain(text);
      }
    }
    // Order in the Actor prompt: examples, reflections, the context, the question.
    const second = afterExamples(firstActorPrompt(calls, 2));
    const positions = ["Reflections:", `${CONTEXT_LABEL}\n${task.supportingTitles[0]}: `, `\nQuestion: ${task.question}\nThought 1:`].map((part) => second.indexOf(part));
    expect(positions.every((position) => position > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(second.endsWith("Thought 1:")).toBe(true);
    // The reflector sees the context too, and is told about phrasing discrepancies.
    const reflection = reflectorCalls(calls)[0]!.prompt;
    expect(reflection).toMatch(/phrasing discrepancy/);
    expect(reflection).toContain(`Previous trial:\n${CONTEXT_LABEL}\n${task.supportingTitles[0]}: `);
  });
});

describe("the config factory", () => {
  it("picks each QA strategy's templates and step budget", () => {
    const expected: Record<BuiltInStrategy, { actor: string; reflector: string; steps: number }> = {
      none: { actor: "qa/react-actor", reflector: "qa/reflect", steps: 6 },
      reflexion: { actor: "qa/react-actor", reflector: "qa/reflect", steps: 6 },
      "last-attempt": { actor: "qa/react-actor", reflector: "qa/reflect", steps: 6 },
      "last-attempt-and-reflexion": { actor: "qa/react-actor", reflector: "qa/reflect", steps: 6 },
      cot: { actor: "qa/cot-actor", reflector: "qa/cot-reflect", steps: 1 },
      "cot-gold-context": { actor: "qa/cot-context-actor", reflector: "qa/cot-context-reflect", steps: 1 },
    };
    for (const strategy of ALL_STRATEGIES) {
      const config = qaConfig(strategy);
      expect({ actor: config.templates.actor.id, reflector: config.templates.reflector.id, steps: config.maxStepsPerTrial }, strategy).toEqual(expected[strategy]);
      expect(config.strategy).toBe(strategy);
    }
  });

  it("lets the request set the step budget except under the cot variants, which always take one step", () => {
    expect(qaConfig("reflexion", { maxStepsPerTrial: 4 }).maxStepsPerTrial).toBe(4);
    expect(qaConfig("last-attempt", { maxStepsPerTrial: 4 }).maxStepsPerTrial).toBe(4);
    expect(qaConfig("cot", { maxStepsPerTrial: 4 }).maxStepsPerTrial).toBe(1);
    expect(qaConfig("cot-gold-context", { maxStepsPerTrial: 6 }).maxStepsPerTrial).toBe(1);
  });

  it("records Ω = 1 for last-attempt-and-reflexion and keeps the request's Ω otherwise", () => {
    expect(qaConfig("last-attempt-and-reflexion", { memoryWindow: 3 }).memoryWindow).toBe(1);
    expect(qaConfig("reflexion", { memoryWindow: 2 }).memoryWindow).toBe(2);
    expect(qaConfig("cot", { memoryWindow: null }).memoryWindow).toBeNull();
  });

  it("rejects a strategy the family does not support, naming the supported ones", () => {
    const household = builtinHouseholdTasks[0]!;
    for (const strategy of ["cot", "cot-gold-context"] as const) {
      let caught: unknown;
      try {
        buildRunConfig({ ...request(strategy), environment: "household", taskId: household.id }, householdEntry, household, "builtin");
      } catch (error) {
        caught = error;
      }
      expect(isAppError(caught, "invalid-input"), strategy).toBe(true);
      expect((caught as Error).message).toContain(`"${strategy}"`);
      expect((caught as Error).message).toContain("none, reflexion, last-attempt, last-attempt-and-reflexion");
    }
    const config = buildRunConfig({ ...request("last-attempt"), environment: "household", taskId: household.id }, householdEntry, household, "builtin");
    // The config also records the built-in library version ids.
    expect(config.templates).toMatchObject(householdEnvironment.defaultTemplates);
    expect(config.maxStepsPerTrial).toBe(householdEnvironment.defaultMaxStepsPerTrial);
  });

  it("supported strategies: QA runs all six, household the four ReAct ones, a bare family none and reflexion", () => {
    expect(builtInOnly(supportedStrategiesOf(qaEnvironment)).sort()).toEqual([...ALL_STRATEGIES].sort());
    expect(builtInOnly(supportedStrategiesOf(householdEnvironment))).toEqual(["none", "reflexion", "last-attempt", "last-attempt-and-reflexion"]);
    expect(builtInOnly(supportedStrategiesOf({}))).toEqual(["none", "reflexion"]);
    expect(builtInOnly(supportedStrategiesOf({ renderLastAttempt: () => "" }))).toEqual(["none", "reflexion", "last-attempt", "last-attempt-and-reflexion"]);
    // A `listed` method runs only where the family names it; naming an `all` method changes nothing.
    expect(builtInOnly(supportedStrategiesOf({ ownStrategies: ["cot"] }))).toEqual(["none", "reflexion", "cot"]);
    expect(builtInOnly(supportedStrategiesOf({ ownStrategies: ["reflexion"] }))).toEqual(["none", "reflexion"]);
    expect(builtInOnly(supportedStrategiesOf(environmentEntry("code").family))).toEqual(["none", "reflexion"]);
  });
});

describe("strategyBehaviour", () => {
  const memory = [1, 2, 3].map((trial) => ({ id: `r${trial}`, text: `reflection ${trial}`, trial }));
  it.each([
    ["none", false, false, false, null, null, []],
    ["last-attempt", false, false, true, null, null, []],
    ["reflexion", true, true, false, null, null, ["r2", "r3"]],
    ["last-attempt-and-reflexion", true, true, true, 1, null, ["r3"]],
    ["cot", true, true, false, null, 1, ["r2", "r3"]],
    ["cot-gold-context", true, true, false, null, 1, ["r2", "r3"]],
  ] as const)(
    "%s: reflects %s, reflections in prompt %s, last attempt %s, fixed Ω %s, steps %s, memory with Ω = 2 %j",
    (strategy, reflects, inPrompt, lastAttempt, fixedWindow, steps, kept) => {
      const behaviour = strategyBehaviour(strategy);
      expect(behaviour.reflectsAfterFailure).toBe(reflects);
      expect(behaviour.reflectionsInPrompt).toBe(inPrompt);
      expect(behaviour.includesLastAttempt).toBe(lastAttempt);
      expect(behaviour.fixedMemoryWindow).toBe(fixedWindow);
      expect(behaviour.stepsPerTrial).toBe(steps);
      expect(behaviour.memoryForTrial(memory, 2).inContext.map((item) => item.id)).toEqual(kept);
    },
  );

  it("fixes the family's step budget over the strategy's, and the strategy's Ω", () => {
    expect(fixedLimitsOf("cot", {})).toEqual({ stepsPerTrial: 1, memoryWindow: null });
    expect(fixedLimitsOf("reflexion", { fixedStepsPerTrial: 2 })).toEqual({ stepsPerTrial: 2, memoryWindow: null });
    expect(fixedLimitsOf("last-attempt-and-reflexion", { fixedStepsPerTrial: null })).toEqual({ stepsPerTrial: null, memoryWindow: 1 });
    expect(qaConfig("last-attempt-and-reflexion", { memoryWindow: 3 }).memoryWindow).toBe(1);
    expect(qaConfig("reflexion", { memoryWindow: 2 }).memoryWindow).toBe(2);
  });
});

describe("what the UI says the next trial sees (lib/domain/next-trial.ts) is what the engine puts in its prompt", () => {
  const handWritten = { id: "hand-1", text: "Name the river itself, not the town it runs through.", trial: null };
  const withHandWritten = [draft("memory-edit", { oldMemory: [], newMemory: [handWritten], note: null })];

  it.each(ALL_STRATEGIES)("%s, with a hand-written memory entry before trial 1", async (strategy) => {
    const { events, calls } = await drive(qaConfig(strategy), labelledReplies(strategy), undefined, withHandWritten);
    const starts = events.flatMap((event) => (event.type === "trial-start" ? [event] : []));
    expect(starts).toHaveLength(3);
    for (const start of starts) {
      // The state the memory panel shows just before the engine starts the trial.
      const view = nextTrialView(foldRun(events.filter((event) => event.seq < start.seq)));
      expect(view?.trial).toBe(start.data.trial);
      expect(view?.inContext).toEqual(start.data.memory);
      // And the prompt agrees: the hand-written entry reaches the Actor exactly when the view says so.
      const prompt = firstActorPrompt(calls, start.data.trial);
      expect(prompt.includes(handWritten.text), `trial ${start.data.trial}`).toBe(view?.inContext.some((item) => item.id === handWritten.id));
    }
    expect(strategyBehaviour(strategy).reflectionsInPrompt).toBe(firstActorPrompt(calls, 1).includes(handWritten.text));
  });
});

describe("the QA demo script book under each strategy (all built-in tasks, 3 trials)", () => {
  const expected: Record<BuiltInStrategy, string[]> = {
    none: ["failure", "failure", "failure"],
    // The previous trajectory alone does not teach the lesson (the paper's EPM vs Reflexion point).
    "last-attempt": ["failure", "failure", "failure"],
    reflexion: ["failure", "success"],
    "last-attempt-and-reflexion": ["failure", "success"],
    cot: ["failure", "success"],
    "cot-gold-context": ["failure", "success"],
  };
  it.each(ALL_STRATEGIES)("%s", async (strategy) => {
    for (const qaTask of builtinQaTasks) {
      const { state, calls } = await drive(qaConfig(strategy, {}, qaTask), demoMockModel([qaDemoScriptBook]));
      const outcomes = state.trials.map((t) => (t.outcome === "halted" ? "failure" : t.outcome));
      expect(outcomes, `${qaTask.id} under ${strategy}`).toEqual(expected[strategy]);
      if (state.outcome === "success") expect(state.trials.at(-1)?.answer, qaTask.id).toBe(qaTask.answer);
      if (strategy.startsWith("cot")) expect(state.trials.every((t) => t.steps.length === 1), qaTask.id).toBe(true);
      if (strategy === "last-attempt") expect(afterExamples(firstActorPrompt(calls, 2))).toContain(END_PREVIOUS_TRIAL_MARKER);
    }
  });
});

describe("the household family under the last-attempt strategies (demo script book)", () => {
  const householdTask = builtinHouseholdTasks[0]!;
  const householdConfig = (strategy: Strategy) =>
    buildRunConfig({ ...request(strategy), environment: "household", taskId: householdTask.id }, householdEntry, householdTask, "builtin");
  const family = householdEnvironment as EnvironmentFamily<unknown>;

  it("last-attempt: the previous trial is in the prompt, no reflection, and it keeps failing", async () => {
    const { state, calls } = await drive(householdConfig("last-attempt"), demoMockModel([householdDemoScriptBook]), family);
    expect(state.trials.map((t) => t.outcome)).toEqual(["halted", "halted", "halted"]);
    expect(reflectorCalls(calls)).toHaveLength(0);
    const second = actorCalls(calls, 2)[0]!.prompt;
    expect(second).toContain("(END PREVIOUS TRIAL)\n\nHere is the task:");
    expect(second).not.toContain("Your memory for the task below:");
  });

  it("last-attempt-and-reflexion: the previous trial and the newest reflection; trial 2 succeeds", async () => {
    const { state, calls } = await drive(householdConfig("last-attempt-and-reflexion"), demoMockModel([householdDemoScriptBook]), family);
    expect(state.trials.map((t) => t.outcome)).toEqual(["halted", "success"]);
    const second = actorCalls(calls, 2)[0]!.prompt;
    expect(second).toMatch(/\(END PREVIOUS TRIAL\)\n\nYour memory for the task below:\nTrial 1:\n[^\n]+\n\nHere is the task:/);
  });
});
