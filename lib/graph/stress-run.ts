import { mulberry32 } from "@/lib/utils/mulberry32";
import { NO_BREAKPOINTS, type EnvironmentId, type RunConfig } from "@/lib/domain/config";
import { runEventSchema, type EventDataInput, type EventType, type MemoryItem, type RunEvent } from "@/lib/domain/events";
import { DEMO_MODEL_ID } from "@/lib/domain/model-id";
import { estimateTokens } from "@/lib/domain/token-estimate";
import { familyDescriptor, FAMILY_DESCRIPTORS, type StressRunScript } from "@/lib/environments/descriptors";

/**
 * A synthetic but realistic run log for the stress page (`/stress`), the graph
 * benchmark (bench/graph.bench.ts) and tests: the shape of a demo run of a task
 * family that has a stress-run script (its descriptor's `stressRun`, e.g. a
 * household run in ALFWorld style or a QA run), with every event the engine
 * writes — model calls whose prompts grow with the trajectory, thoughts,
 * actions, observations with the world snapshot, the Evaluator's verdict, a
 * failed trial's halt or wrong answer, a reflection after each failed trial and
 * the memory window Ω — for any number of trials. Deterministic (seeded); every
 * event is checked against the event schema, as lib/query checks fetched events.
 */

/** A family the stress generator can imitate: one whose descriptor has a `stressRun` script. */
export type StressFamily = EnvironmentId;

/** The families the stress generator can imitate, in family order. */
export function stressFamilies(): StressFamily[] {
  return FAMILY_DESCRIPTORS.filter((descriptor) => descriptor.stressRun !== null).map((descriptor) => descriptor.id);
}

/** The family the stress page draws when its URL names none (the script marked `pageDefault`). */
export function defaultStressFamily(): StressFamily {
  const family = FAMILY_DESCRIPTORS.find((descriptor) => descriptor.stressRun?.pageDefault);
  if (!family) throw new Error("No family's stress-run script is the stress page's default (StressRunScript.pageDefault).");
  return family.id;
}

/** Options of {@link stressRunEvents}. */
export interface StressRunOptions {
  /** Trials, 1–{@link STRESS_MAX_TRIALS} (the run's config still says at most 50, the schema's limit). */
  trials: number;
  /** The family the run imitates; it must have a stress-run script ({@link stressFamilies}). */
  family: StressFamily;
  /** Varies the steps per trial and the texts; runs with different seeds differ. Default 1. */
  seed?: number;
  /** Prefix of every id (event, call, run), so two runs can be shown side by side. Default `stress`. */
  idPrefix?: string;
  /** The last trial succeeds (true, default) or fails like the others. */
  lastTrialSucceeds?: boolean;
}

/** The most trials a synthetic run has: ~2,000 household trials make ~120,000 events (~90,000 graph nodes). */
export const STRESS_MAX_TRIALS = 2000;

const prng = mulberry32;

function runConfig(family: StressFamily, script: StressRunScript, trials: number): RunConfig {
  return {
    environment: family,
    taskSetName: "Built-in",
    taskId: script.task.id,
    task: script.task,
    strategy: "reflexion",
    memoryWindow: 3,
    maxTrials: Math.min(50, Math.max(1, trials)),
    maxStepsPerTrial: script.maxStepsPerTrial,
    models: {
      actor: { modelId: DEMO_MODEL_ID, temperature: 0, maxOutputTokens: 256 },
      reflector: { modelId: DEMO_MODEL_ID, temperature: 0, maxOutputTokens: 250 },
    },
    templates: {
      actor: { id: `${family}/react-actor`, version: 1, text: script.actorTemplate },
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
 * The events of a finished Reflexion run of `trials` trials (at most {@link STRESS_MAX_TRIALS}): every
 * trial but the last fails the family's way (household: halted by a loop; QA: a
 * wrong answer) and is reflected on; the last one succeeds unless
 * `lastTrialSucceeds` is false.
 * @throws Error when `options.family` has no stress-run script.
 */
export function stressRunEvents(options: StressRunOptions): RunEvent[] {
  const trials = Math.min(STRESS_MAX_TRIALS, Math.max(1, Math.floor(options.trials)));
  const prefix = options.idPrefix ?? "stress";
  const random = prng(options.seed ?? 1);
  const script = familyDescriptor(options.family).stressRun;
  if (!script) throw new Error(`The stress generator cannot imitate the "${options.family}" family; it can imitate: ${stressFamilies().join(", ")}.`);
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

  const config = runConfig(options.family, script, trials);
  add("run-start", { config });
  const memory: MemoryItem[] = [];
  const window = config.memoryWindow ?? memory.length;
  for (let trial = 1; trial <= trials; trial += 1) {
    const succeeds = trial === trials && options.lastTrialSucceeds !== false;
    const inContext = memory.slice(-window);
    add("trial-start", { trial, memory: inContext, evicted: memory.slice(0, memory.length - inContext.length) });
    const memoryText = inContext.map((item) => `- ${item.text}`).join("\n");
    let trajectory = "";
    const steps = script.trajectory(random, succeeds);
    steps.forEach((step, index) => {
      const number = index + 1;
      const prompt = script.actorPrompt(memoryText, trajectory, number);
      const output = script.actorOutput(step, number);
      const { callId, eventId } = call("actor", trial, number, prompt, output);
      add("step-thought", { trial, step: number, text: step.thought, callId }, eventId);
      add("step-action", { trial, step: number, text: step.action, action: { type: step.verb, argument: step.argument }, parseError: null, callId }, eventId);
      add("step-observation", { trial, step: number, text: step.observation, done: step.done, answer: step.answer, state: step.state });
      trajectory += script.trajectoryText(step, number);
    });
    add("evaluation-end", {
      trial,
      verdict: succeeds ? "pass" : "fail",
      score: succeeds ? 1 : 0,
      feedback: succeeds ? "Task completed." : script.failure.feedback,
      evaluatorKind: script.evaluator.kind,
      oracle: script.evaluator.oracle,
      details: { won: succeeds, steps: steps.length },
    });
    add("trial-end", { trial, outcome: succeeds ? "success" : script.failure.outcome, reason: succeeds ? "goal reached" : script.failure.reason });
    add("checkpoint", { trial, digest: `${prefix}-digest-${trial}` });
    if (succeeds || trial === trials) continue;
    const text = script.reflection(trial, steps);
    const reflector = call("reflector", trial, null, `${config.templates.reflector.text}\n${trajectory}`, text);
    const reflection = add("reflection-end", { trial, text, callId: reflector.callId }, reflector.eventId);
    memory.push({ id: reflection.id, text, trial });
  }
  add("run-end", { outcome: options.lastTrialSucceeds === false ? "failure" : "success", trials });
  return events;
}
