import type { RunConfig } from "@/lib/domain/config";
import type { EventData } from "@/lib/domain/events";

/**
 * One step of a synthetic trial: what the Actor wrote (thought and action, the action parsed into
 * `verb` and `argument`) and what the world answered (observation, its state snapshot, and whether
 * the episode ended with an answer).
 */
export interface SyntheticStep {
  /** The step's thought; empty when the family's Actor writes none (household commands). */
  thought: string;
  /** The action as the Actor wrote it: `Search[x]`, `go to desk 1`, `think: …`. */
  action: string;
  verb: string;
  argument: string;
  observation: string;
  /** The world's snapshot after the step, or null when the family has none. */
  state: Record<string, unknown> | null;
  done: boolean;
  answer: string | null;
}

/**
 * How one family's synthetic Reflexion run reads, for the stress page (`/stress`), the graph bench
 * and tests (lib/graph/stress-run.ts draws the run's events from it). A family that has one sets
 * it as its descriptor's `stressRun` (lib/environments/<family>/client/stress-run.ts). Pure: no
 * Node, no React; `random` is the generator's seeded PRNG, uniform in [0, 1).
 */
export interface StressRunScript {
  /** The stress page draws this family when its URL names none (one family sets it). */
  pageDefault: boolean;
  /** The built-in task every synthetic run is on: the run config's `taskId` is its `id`. */
  task: RunConfig["task"] & { id: string };
  /** The run config's step limit per trial. */
  maxStepsPerTrial: number;
  /** The Actor's prompt template, as a run config stores it. */
  actorTemplate: string;
  /** The steps of one trial: it ends with the task solved when `succeeds`, else it fails the family's way. */
  trajectory(random: () => number, succeeds: boolean): SyntheticStep[];
  /** The Actor's prompt for step `number` (1-based), after the memory text and the trajectory so far. */
  actorPrompt(memoryText: string, trajectory: string, number: number): string;
  /** What the model answered for `step`. */
  actorOutput(step: SyntheticStep, number: number): string;
  /** `step` as the trajectory text of the next prompts shows it (ends with a newline). */
  trajectoryText(step: SyntheticStep, number: number): string;
  /** The family's Evaluator: its kind, and whether it reads the gold answer (an oracle signal). */
  evaluator: { kind: EventData<"evaluation-end">["evaluatorKind"]; oracle: boolean };
  /** A failed trial: the Evaluator's feedback, and the trial's outcome and reason. */
  failure: { feedback: string; outcome: Exclude<EventData<"trial-end">["outcome"], "success">; reason: string };
  /** The reflection written after failed trial `trial`, whose steps were `steps`. */
  reflection(trial: number, steps: readonly SyntheticStep[]): string;
}
