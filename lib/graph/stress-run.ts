import { NO_BREAKPOINTS, type RunConfig } from "@/lib/domain/config";
import { runEventSchema, type EventDataInput, type EventType, type MemoryItem, type RunEvent } from "@/lib/domain/events";
import { DEMO_MODEL_ID } from "@/lib/domain/model-id";
import { estimateTokens } from "@/lib/domain/token-estimate";

/**
 * A synthetic but realistic run log for the stress page (`/stress`), the graph
 * benchmark (bench/graph.bench.ts) and tests: the shape of a demo household
 * run (ALFWorld style) or a QA run, with every event the engine writes — model
 * calls whose prompts grow with the trajectory, empty household thoughts,
 * actions, observations with the world snapshot, loops that halt a trial, the
 * Evaluator's verdict, a reflection after each failed trial and the memory
 * window Ω — for any number of trials. Deterministic (seeded); every event is
 * checked against the event schema, as lib/query checks fetched events.
 *
 * A 24-trial household run has ~720 graph nodes (≈13 steps a trial, as the
 * demo model's household runs have; its empty thoughts draw no node, decision 0020).
 */

/** Which family the synthetic run imitates. */
export type StressFamily = "household" | "qa";

/** Options of {@link stressRunEvents}. */
export interface StressRunOptions {
  trials: number;
  family: StressFamily;
  /** Varies the steps per trial and the texts; runs with different seeds differ. Default 1. */
  seed?: number;
  /** Prefix of every id (event, call, run), so two runs can be shown side by side. Default `stress`. */
  idPrefix?: string;
  /** The last trial succeeds (true, default) or fails like the others. */
  lastTrialSucceeds?: boolean;
}

const HOUSEHOLD_PREAMBLE =
  "Solve a household task in a text world. Each turn, write exactly one command after the > sign; the world replies on the next line. " +
  "You can also write think: followed by your reasoning, which the world answers with OK. Here are two examples of the same kind of task.\n" +
  "You are in the middle of a room. Looking quickly around you, you see a bed 1, a desk 1, a drawer 2, a drawer 1, a garbagecan 1, a shelf 1, and a sidetable 1.\n" +
  "Your task is to: examine the book with the desklamp.\n> think: To solve the task, I need to find and take a book, then find and use a desklamp.\nOK.\n" +
  "> go to bed 1\nOn the bed 1, you see a book 1, a cellphone 1, and a pillow 1.\n> take book 1 from bed 1\nYou pick up the book 1 from the bed 1.\n" +
  "> go to desk 1\nOn the desk 1, you see a desklamp 1, and a pen 2.\n> use desklamp 1\nYou turn on the desklamp 1.\n";

const RECEPTACLES = ["desk 1", "drawer 1", "drawer 2", "shelf 1", "shelf 2", "sidetable 1", "dresser 1", "bed 1", "garbagecan 1"];
const THINGS = ["a pen 1", "a book 1", "a cd 1", "a laptop 1", "a pencil 2", "a creditcard 1", "an alarmclock 2", "a keychain 1", "a pillow 1"];

/** A tiny deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface SyntheticStep {
  thought: string;
  action: string;
  verb: string;
  argument: string;
  observation: string;
  state: Record<string, unknown> | null;
  done: boolean;
  answer: string | null;
}

function householdTrajectory(random: () => number, succeeds: boolean): SyntheticStep[] {
  const steps: SyntheticStep[] = [];
  const inventory: string[] = [];
  let location: string | null = null;
  const push = (verb: string, argument: string, observation: string, done = false) => {
    const action = verb === "think" ? `think: ${argument}` : `${verb} ${argument}`;
    steps.push({ thought: "", action, verb, argument, observation, state: { location, inventory: [...inventory] }, done, answer: null });
  };
  push("think", "To solve the task, I need to find and take a mug, then find and use a desklamp.", "OK.");
  push("think", "First I need a mug. Mugs are often on a desk, a shelf or a sidetable. I will start with desk 1.", "OK.");
  const visits = 2 + Math.floor(random() * 4);
  for (let index = 0; index < visits; index += 1) {
    const place = RECEPTACLES[Math.floor(random() * RECEPTACLES.length)] ?? "desk 1";
    location = place;
    if (place.startsWith("drawer") && random() < 0.5) {
      push("go to", place, `The ${place} is closed.`);
      push("open", place, `You open the ${place}. The ${place} is open. In it, you see ${THINGS[Math.floor(random() * THINGS.length)]}.`);
    } else {
      push("go to", place, `On the ${place}, you see ${THINGS[Math.floor(random() * THINGS.length)]}, and ${THINGS[Math.floor(random() * THINGS.length)]}.`);
    }
  }
  location = "shelf 2";
  push("go to", "shelf 2", "On the shelf 2, you see a cd 1, and a mug 1.");
  inventory.push("mug 1");
  push("take", "mug 1 from shelf 2", "You pick up the mug 1 from the shelf 2.");
  if (succeeds) {
    location = "desk 1";
    push("go to", "desk 1", "On the desk 1, you see a desklamp 1, a laptop 1, and a pencil 2.");
    push("use", "desklamp 1", "You turn on the desklamp 1.", true);
    return steps;
  }
  push("think", "Now I have the mug. Next I need a desklamp. It may be on a sidetable.", "OK.");
  location = "sidetable 1";
  push("go to", "sidetable 1", "On the sidetable 1, you see a alarmclock 2, and a creditcard 1.");
  // The loop the household Evaluator halts on: the same action and observation three times in a row.
  for (let repeat = 0; repeat < 3; repeat += 1) push("use", "desklamp 1", "Nothing happens.");
  return steps;
}

function qaTrajectory(random: () => number, succeeds: boolean): SyntheticStep[] {
  const answer = succeeds ? "Arthur's Magazine" : "First for Women";
  const searches = 1 + Math.floor(random() * 3);
  const steps: SyntheticStep[] = [];
  for (let index = 0; index < searches; index += 1) {
    const entity = index % 2 === 0 ? "Arthur's Magazine" : "First for Women";
    steps.push({
      thought: `I need to search ${entity} and find when it was started.`,
      action: `Search[${entity}]`,
      verb: "Search",
      argument: entity,
      observation: `${entity} was an American periodical; the article gives its first issue and its publisher.`,
      state: null,
      done: false,
      answer: null,
    });
  }
  steps.push({ thought: `So the answer is ${answer}.`, action: `Finish[${answer}]`, verb: "Finish", argument: answer, observation: "Episode finished.", state: null, done: true, answer });
  return steps;
}

function runConfig(family: StressFamily, trials: number): RunConfig {
  const household = family === "household";
  return {
    environment: family,
    taskSetName: "Built-in",
    taskId: household ? "household-builtin-01" : "qa-builtin-01",
    task: household
      ? { id: "household-builtin-01", taskType: "look_at_obj_in_light", description: "examine the mug with the desklamp.", goal: { object: "mug", receptacle: null, lamp: "desklamp" }, room: "bedroom", source: "built-in" }
      : { id: "qa-builtin-01", question: "Which magazine was started first, Arthur's Magazine or First for Women?", answer: "Arthur's Magazine" },
    strategy: "reflexion",
    memoryWindow: 3,
    maxTrials: Math.min(50, Math.max(1, trials)),
    maxStepsPerTrial: household ? 30 : 6,
    models: {
      actor: { modelId: DEMO_MODEL_ID, temperature: 0, maxOutputTokens: 256 },
      reflector: { modelId: DEMO_MODEL_ID, temperature: 0, maxOutputTokens: 250 },
    },
    templates: {
      actor: { id: `${family}/react-actor`, version: 1, text: household ? `${HOUSEHOLD_PREAMBLE}{memory}\n{scene}\n{trajectory}` : "Solve {question}\n{memory}\n{scratchpad}" },
      reflector: { id: `${family}/reflect`, version: 1, text: "Below is one of your past attempts. It failed. Write a short plan that avoids the mistake.\n{trajectory}" },
    },
    breakpoints: NO_BREAKPOINTS,
    seed: 0,
    replayMode: "live",
    cacheScope: null,
    provenance: null,
  };
}

/**
 * The events of a finished Reflexion run of `trials` trials (at most 50): every
 * trial but the last fails (household: halted by a loop; QA: a wrong answer)
 * and is reflected on; the last one succeeds unless `lastTrialSucceeds` is false.
 */
export function stressRunEvents(options: StressRunOptions): RunEvent[] {
  const trials = Math.min(50, Math.max(1, Math.floor(options.trials)));
  const prefix = options.idPrefix ?? "stress";
  const random = prng(options.seed ?? 1);
  const household = options.family === "household";
  const events: RunEvent[] = [];
  const start = Date.UTC(2026, 10, 30, 12, 0, 0);
  const add = <T extends EventType>(type: T, data: EventDataInput<T>, causedBy: string | null = null): RunEvent => {
    const seq = events.length + 1;
    const event = runEventSchema.parse({
      id: `${prefix}-e${seq}`,
      runId: `${prefix}-run`,
      branchId: `${prefix}-branch`,
      seq,
      schemaVersion: 1,
      occurredAt: new Date(start + seq * 350).toISOString(),
      causedBy,
      type,
      data,
    });
    events.push(event);
    return event;
  };
  const call = (role: "actor" | "reflector", trial: number, step: number | null, prompt: string, outputText: string): { callId: string; eventId: string } => {
    const callId = `${prefix}-call-${events.length + 1}`;
    const event = add("model-call-end", {
      callId,
      role,
      trial,
      step,
      settings: { modelId: DEMO_MODEL_ID, temperature: 0, maxOutputTokens: role === "actor" ? 256 : 250 },
      requestHash: `${prefix}-hash-${events.length + 1}`,
      messages: [{ role: "user", content: prompt }],
      outputText,
      usage: { inputTokens: estimateTokens(prompt), outputTokens: Math.max(1, estimateTokens(outputText)) },
      costUsd: 0,
      latencyMs: 4,
      finishReason: "stop",
      source: "live",
    });
    return { callId, eventId: event.id };
  };

  const config = runConfig(options.family, trials);
  add("run-start", { config });
  const memory: MemoryItem[] = [];
  const window = config.memoryWindow ?? memory.length;
  for (let trial = 1; trial <= trials; trial += 1) {
    const succeeds = trial === trials && options.lastTrialSucceeds !== false;
    const inContext = memory.slice(-window);
    add("trial-start", { trial, memory: inContext, evicted: memory.slice(0, memory.length - inContext.length) });
    const memoryText = inContext.map((item) => `- ${item.text}`).join("\n");
    let trajectory = "";
    const steps = household ? householdTrajectory(random, succeeds) : qaTrajectory(random, succeeds);
    steps.forEach((step, index) => {
      const number = index + 1;
      const prompt = household
        ? `${HOUSEHOLD_PREAMBLE}${memoryText ? `Your memory:\n${memoryText}\n` : ""}Your task is to: examine the mug with the desklamp.\n${trajectory}>`
        : `Solve the question.\n${memoryText}\n${trajectory}Thought ${number}:`;
      const output = household ? ` ${step.action}` : `${step.thought}\nAction ${number}: ${step.action}`;
      const { callId, eventId } = call("actor", trial, number, prompt, output);
      add("step-thought", { trial, step: number, text: step.thought, callId }, eventId);
      add("step-action", { trial, step: number, text: step.action, action: { type: step.verb, argument: step.argument }, parseError: null, callId }, eventId);
      add("step-observation", { trial, step: number, text: step.observation, done: step.done, answer: step.answer, state: step.state });
      trajectory += household ? `> ${step.action}\n${step.observation}\n` : `Thought ${number}: ${step.thought}\nAction ${number}: ${step.action}\nObservation ${number}: ${step.observation}\n`;
    });
    const haltReason = 'The same action "use desklamp 1" gave the same observation "Nothing happens." 3 times in a row.';
    add("evaluation-end", {
      trial,
      verdict: succeeds ? "pass" : "fail",
      score: succeeds ? 1 : 0,
      feedback: succeeds ? "Task completed." : household ? `Task not completed: the goal was not reached. ${haltReason}` : "Incorrect answer.",
      evaluatorKind: household ? "environment-success" : "exact-match",
      oracle: !household,
      details: { won: succeeds, steps: steps.length },
    });
    add("trial-end", { trial, outcome: succeeds ? "success" : household ? "halted" : "failure", reason: succeeds ? "goal reached" : household ? haltReason : "wrong answer" });
    add("checkpoint", { trial, digest: `${prefix}-digest-${trial}` });
    if (succeeds || trial === trials) continue;
    const text = household
      ? `In trial ${trial} I took the mug but then kept using a desklamp that was not there. Next time I will look for the desklamp on desk 1 first and use it only where I see it.`
      : `In trial ${trial} I answered ${steps[steps.length - 1]?.argument ?? "too early"} without comparing both start dates. Next time I will search both magazines and compare the years before I finish.`;
    const reflector = call("reflector", trial, null, `${config.templates.reflector.text}\n${trajectory}`, text);
    const reflection = add("reflection-end", { trial, text, callId: reflector.callId }, reflector.eventId);
    memory.push({ id: reflection.id, text, trial });
  }
  add("run-end", { outcome: options.lastTrialSucceeds === false ? "failure" : "success", trials });
  return events;
}
