import type { RunState, TrialView } from "@/lib/domain/fold-run";

/**
 * The trajectory an MCP client reads (`get_trajectory`): a branch's folded state (lib/domain/fold-run.ts)
 * reduced to what a reader of the run needs — per trial the episodic memory it started with, its steps
 * (thought, action, observation), the answer, the Evaluator's verdict, the outcome and the
 * Self-Reflection written after it — plus the memory carried in from a store. Long texts are cut to
 * `maxChars` characters with a marker saying how much was left out, so one large observation does not
 * fill a client's context.
 */

/** One step of a trial. */
export interface TrajectoryStep {
  step: number;
  thought: string | null;
  action: string | null;
  /** Why the action line did not parse, when it did not. */
  actionError: string | null;
  observation: string | null;
}

/** One trial of the trajectory. */
export interface TrajectoryTrial {
  trial: number;
  /** The episodic memory (reflections, carried-in entries, insights) the trial started with, oldest first. */
  memory: string[];
  steps: TrajectoryStep[];
  answer: string | null;
  /** The Evaluator's verdict, or null before the trial was evaluated. */
  verdict: { verdict: "pass" | "fail"; score: number; feedback: string; evaluator: string } | null;
  /** success, failure or halted; "cancelled" when a cancel cut the trial short; null while it runs. */
  outcome: string | null;
  endReason: string | null;
  /** The Self-Reflection written after the trial (as edited, if a person edited it), or null. */
  reflection: { text: string; edited: boolean; warning: string | null } | null;
}

/** The whole trajectory of a branch (or of one trial of it). */
export interface Trajectory {
  status: string;
  outcome: string | null;
  /** Reflections carried in from a memory store before trial 1 (warm start), newest first. */
  memoryCarriedIn: { store: string; entries: Array<{ text: string; source: { runId: string; branchId: string; trial: number } }> } | null;
  /** ExpeL insights carried in before trial 1. */
  insightsCarriedIn: { store: string | null; entries: string[] } | null;
  trials: TrajectoryTrial[];
  totals: RunState["totals"];
}

/** `text` cut to `maxChars` characters, with `… [N more characters]` when cut. */
export function clip(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}… [${text.length - maxChars} more characters]`;
}

function trialOf(view: TrialView, maxChars: number): TrajectoryTrial {
  const cut = (text: string | null | undefined) => (text == null ? null : clip(text, maxChars));
  return {
    trial: view.trial,
    memory: view.memory.map((item) => clip(item.text, maxChars)),
    steps: [...view.steps]
      .sort((a, b) => a.step - b.step)
      .map((step) => ({
        step: step.step,
        thought: cut(step.thought?.text),
        action: cut(step.action?.text),
        actionError: step.action?.parseError ?? null,
        observation: cut(step.observation?.text),
      })),
    answer: cut(view.answer),
    verdict: view.evaluation
      ? { verdict: view.evaluation.verdict, score: view.evaluation.score, feedback: clip(view.evaluation.feedback, maxChars), evaluator: view.evaluation.evaluatorKind }
      : null,
    outcome: view.outcome ?? (view.cancelled ? "cancelled" : null),
    endReason: view.endReason,
    reflection: view.reflection ? { text: clip(view.reflection.text, maxChars), edited: view.reflection.edits > 0, warning: view.reflection.warning } : null,
  };
}

/**
 * The trajectory of a folded branch; with `trial`, only that trial (an empty list when the branch has
 * no such trial — the caller says so).
 */
export function trajectoryOf(state: RunState, options: { trial?: number; maxChars: number }): Trajectory {
  const trials = state.trials.filter((view) => options.trial === undefined || view.trial === options.trial);
  return {
    status: state.status,
    outcome: state.outcome,
    memoryCarriedIn: state.carriedIn
      ? {
          store: state.carriedIn.store,
          entries: state.carriedIn.entries.map((entry) => ({
            text: clip(entry.text, options.maxChars),
            source: { runId: entry.source.runId, branchId: entry.source.branchId, trial: entry.source.trial },
          })),
        }
      : null,
    insightsCarriedIn: state.insightsCarriedIn ? { store: state.insightsCarriedIn.store, entries: state.insightsCarriedIn.entries.map((entry) => clip(entry.text, options.maxChars)) } : null,
    trials: trials.map((view) => trialOf(view, options.maxChars)),
    totals: state.totals,
  };
}
