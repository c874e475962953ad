import type { ModelsResponse } from "@/lib/domain/api";
import { NO_BREAKPOINTS, type RunConfig } from "@/lib/domain/config";
import type { z } from "zod";
import { eventDataSchemas, runEventSchema, type EventType, type MemoryItem, type RunEvent } from "@/lib/domain/events";

/** Event data as written by hand: plain strings where the parsed type has branded ids. */
type EventInput<T extends EventType> = z.input<(typeof eventDataSchemas)[T]>;

/** A valid config for a 2-trial Reflexion run on one QA task. */
export function makeRunConfig(overrides: Partial<RunConfig> = {}): RunConfig {
  return {
    environment: "qa",
    taskSetName: "builtin",
    taskId: "hp-1",
    task: { id: "hp-1", question: "Which magazine was started first, Arthur's Magazine or First for Women?", answer: "Arthur's Magazine" },
    strategy: "reflexion",
    memoryWindow: 3,
    maxTrials: 3,
    maxStepsPerTrial: 6,
    models: {
      actor: { modelId: "demo", temperature: 0, maxOutputTokens: 256 },
      reflector: { modelId: "demo", temperature: 0, maxOutputTokens: 256 },
    },
    templates: {
      actor: { id: "qa/react-actor", version: 1, text: "Solve {question}" },
      reflector: { id: "qa/reflector", version: 1, text: "Reflect on {trajectory}" },
    },
    breakpoints: NO_BREAKPOINTS,
    seed: 0,
    replayMode: "live",
    cacheScope: null,
    provenance: null,
    ...overrides,
  };
}

/** The models list the Steer tab is rendered with: the demo model and one real model. */
export const TWO_MODELS: ModelsResponse = {
  models: [
    { id: "demo", label: "Demo (scripted stand-in, offline)", scripted: true },
    { id: "openai:gpt-4o-mini", label: "GPT-4o mini", scripted: false },
  ],
  defaultModelId: "demo",
  configuredProviders: [],
};

/**
 * Appends schema-checked events with contiguous seqs and ids `e<seq>`, the way
 * the server's store would.
 */
export class EventLog {
  readonly events: RunEvent[] = [];

  add<T extends EventType>(type: T, data: EventInput<T>, causedBy: string | null = null): RunEvent {
    const seq = this.events.length + 1;
    const event = runEventSchema.parse({
      id: `e${seq}`,
      runId: "run-1",
      branchId: "branch-1",
      seq,
      schemaVersion: 1,
      occurredAt: new Date(Date.UTC(2026, 10, 30, 12, 0, seq)).toISOString(),
      causedBy,
      type,
      data,
    });
    this.events.push(event);
    return event;
  }

  /** A model call plus the step events it produced. Returns the call id. */
  call(role: "actor" | "reflector", trial: number, step: number | null, messages: string, outputText: string): string {
    const callId = `call-${this.events.length + 1}`;
    this.add("model-call-end", {
      callId,
      role,
      trial,
      step,
      settings: { modelId: "demo", temperature: 0, maxOutputTokens: 256 },
      requestHash: `hash-${callId}`,
      messages: [
        { role: "system", content: "You are a ReAct agent." },
        { role: "user", content: messages },
      ],
      outputText,
      usage: { inputTokens: 120, outputTokens: 30 },
      costUsd: null,
      latencyMs: 12,
      finishReason: "stop",
      source: "live",
    });
    return callId;
  }

  step(trial: number, step: number, thought: string, action: { text: string; type: string; argument: string } | { text: string; parseError: string }, observation: { text: string; done?: boolean; answer?: string | null }): void {
    const callId = this.call("actor", trial, step, `Question… Thought ${step}:`, `${thought}\nAction ${step}: ${action.text}`);
    this.add("step-thought", { trial, step, text: thought, callId });
    if ("parseError" in action) {
      this.add("step-action", { trial, step, text: action.text, action: null, parseError: action.parseError, callId });
    } else {
      this.add("step-action", { trial, step, text: action.text, action: { type: action.type, argument: action.argument }, parseError: null, callId });
    }
    this.add("step-observation", { trial, step, text: observation.text, done: observation.done ?? false, answer: observation.answer ?? null });
  }
}

export interface TwoTrialRun {
  log: EventLog;
  /** Event count after each milestone, for slicing prefixes. */
  marks: { afterTrial1Steps: number; afterReflection: number; afterTrial2Start: number; end: number };
  reflectionId: string;
  trial1StartId: string;
  trial2StartId: string;
}

/**
 * Trial 1: two steps (the second an invalid action), halted → fail, a reflection.
 * Trial 2: one step that finishes with the right answer → pass.
 */
export function twoTrialReflexionRun(): TwoTrialRun {
  const log = new EventLog();
  log.add("run-start", { config: makeRunConfig() });
  const trial1 = log.add("trial-start", { trial: 1, memory: [], evicted: [] });
  log.step(1, 1, "I need to search both magazines.", { text: "Search[Arthur's Magazine]", type: "Search", argument: "Arthur's Magazine" }, { text: "Arthur's Magazine (1844–1846) was an American literary periodical." });
  log.step(1, 2, "Now the other one.", { text: "Look up First for Women", parseError: "Unknown action `Look up First for Women`: expected Search[...], Lookup[...] or Finish[...]" }, { text: "Invalid Action. Valid Actions are Lookup[<topic>] Search[<topic>] and Finish[<answer>]." });
  const afterTrial1Steps = log.events.length;
  log.add("evaluation-end", { trial: 1, verdict: "fail", score: 0, feedback: "No answer submitted.", evaluatorKind: "exact-match", oracle: true, details: { expected: "Arthur's Magazine", got: null } });
  log.add("trial-end", { trial: 1, outcome: "halted", reason: "step budget" });
  const reflectorCall = log.call("reflector", 1, null, "Reflect on the failed trial", "I wasted a step on an invalid action.");
  const reflection = log.add("reflection-end", { trial: 1, text: "I wasted a step on an invalid action. Use Search[...] for both entities, then Finish.", callId: reflectorCall });
  log.add("checkpoint", { trial: 1, digest: "abc" });
  const afterReflection = log.events.length;
  const memory: MemoryItem[] = [{ id: reflection.id, text: "I wasted a step on an invalid action. Use Search[...] for both entities, then Finish.", trial: 1 }];
  const trial2 = log.add("trial-start", { trial: 2, memory, evicted: [] });
  const afterTrial2Start = log.events.length;
  log.step(2, 1, "Arthur's Magazine started in 1844, First for Women in 1989.", { text: "Finish[Arthur's Magazine]", type: "Finish", argument: "Arthur's Magazine" }, { text: "Episode finished, reward = 1", done: true, answer: "Arthur's Magazine" });
  log.add("evaluation-end", { trial: 2, verdict: "pass", score: 1, feedback: "Exact match.", evaluatorKind: "exact-match", oracle: true, details: { expected: "Arthur's Magazine", got: "Arthur's Magazine" } });
  log.add("trial-end", { trial: 2, outcome: "success", reason: "correct answer" });
  log.add("run-end", { outcome: "success", trials: 2 });
  return {
    log,
    marks: { afterTrial1Steps, afterReflection, afterTrial2Start, end: log.events.length },
    reflectionId: reflection.id,
    trial1StartId: trial1.id,
    trial2StartId: trial2.id,
  };
}
