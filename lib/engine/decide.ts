import type { RunState, TrialView } from "@/lib/domain/fold-run";
import { openTrialProgress } from "@/lib/domain/next-step";
import { afterTrial } from "@/lib/domain/next-trial";
import type { StopReason } from "@/lib/domain/adaptive-trials";
import { strategyBehaviour } from "@/lib/domain/strategies";
import { treeActionAfterTrial, treeActionBeforeRollout, treeExhausted, type TreeAction } from "./tree-phase";
import { nextRefineAction, refineRoundsOf } from "@/lib/domain/self-refine";

/**
 * The next thing the engine must do, decided from the folded log alone. Because
 * the decision depends only on recorded events, a run can stop anywhere (pause,
 * crash, provider outage) and continue later from the same log.
 */
export type NextAction =
  | { kind: "idle"; why: "paused" | "ended" | "error" | "no-run-start" }
  | { kind: "start-trial"; trial: number }
  | { kind: "actor-step"; trial: number; step: number }
  | { kind: "evaluate"; trial: number; answer: string | null; halted: boolean; haltReason: string | null }
  | { kind: "reflect"; trial: number }
  /** Self-Refine: the model's feedback on the trial's current answer, round `round` (lib/domain/self-refine.ts). */
  | { kind: "refine-feedback"; trial: number; round: number }
  /** Self-Refine: the answer rewritten with round `round`'s feedback. */
  | { kind: "refine-answer"; trial: number; round: number }
  | { kind: "end-run"; outcome: "success" | "failure"; stopReason?: StopReason; stopDetail?: string }
  | TreeAction;

/** Why a tree search stops before its trial budget. */
export const TREE_EXHAUSTED_DETAIL = "The search tree is exhausted: every path has ended or reached the depth limit.";

/**
 * Decides the next action (paper §3 control flow): run trials until the first
 * success or the trial budget; reflect only after a failed trial (a halted trial
 * counts as failed) and only when the strategy reflects; no reflection after the
 * last trial, since nothing would read it. When the Evaluator reports hidden
 * tests (code), the run's outcome is the last trial's hidden verdict.
 */
export function decideNext(
  state: RunState,
  options: { earlyStop?: (trial: TrialView) => string | null } = {},
): NextAction {
  const config = state.config;
  if (!config) return { kind: "idle", why: "no-run-start" };
  if (state.status === "ended") return { kind: "idle", why: "ended" };
  if (state.status === "error") return { kind: "idle", why: "error" };
  if (state.status === "paused") return { kind: "idle", why: "paused" };

  const last = state.trials.at(-1);
  if (!last) return { kind: "start-trial", trial: 1 };

  const treeSearch = strategyBehaviour(config.strategy).treeSearch;
  if (last.outcome === null) {
    // A tree-search trial (LATS) first selects, expands, values and follows (./tree-phase.ts).
    if (treeSearch) {
      const tree = treeActionBeforeRollout(state, last);
      if (tree !== null && "exhausted" in tree) return { kind: "evaluate", trial: last.trial, answer: null, halted: true, haltReason: TREE_EXHAUSTED_DETAIL };
      if (tree !== null) return tree;
    }
    // Where the open trial stands: the Actor's steps and their budget (lib/domain/next-step.ts).
    const progress = openTrialProgress(last, config);
    if (progress.kind === "finished") {
      // A refining method (Self-Refine) first critiques and rewrites the answer; the Evaluator judges the last one.
      const refine = nextRefineAction(last, progress.answer, refineRoundsOf(config));
      if (refine.kind === "feedback") return { kind: "refine-feedback", trial: last.trial, round: refine.round };
      if (refine.kind === "refine") return { kind: "refine-answer", trial: last.trial, round: refine.round };
      return { kind: "evaluate", trial: last.trial, answer: refine.answer, halted: false, haltReason: null };
    }
    // The family's early stop (a loop) is asked before the step budget: when both hold at
    // the same step, the loop is the one reason recorded, as the families' Evaluators
    // also name it first in their feedback (docs/decisions/0014-action-readers-and-loops.md).
    const completed = progress.kind === "out-of-steps" ? progress.budget : progress.completed;
    const early = completed > 0 ? (options.earlyStop?.(last) ?? null) : null;
    if (early !== null) return { kind: "evaluate", trial: last.trial, answer: null, halted: true, haltReason: early };
    if (progress.kind === "out-of-steps") {
      const { budget } = progress;
      const haltReason = `Step limit reached (${budget} ${budget === 1 ? "step" : "steps"}) without finishing.`;
      return { kind: "evaluate", trial: last.trial, answer: null, halted: true, haltReason };
    }
    return { kind: "actor-step", trial: last.trial, step: progress.step };
  }

  // After a judged trial (lib/domain/next-trial.ts). Code tasks: the loop stops on the
  // internal tests, but the run counts as solved only when the last trial's hidden tests
  // passed (pass@1, reference §4.1).
  const backprop = treeSearch ? treeActionAfterTrial(state, last) : null;
  if (backprop) return backprop;
  const next = afterTrial(config, {
    trial: last.trial,
    passed: last.outcome === "success",
    hiddenVerdict: last.evaluation?.hiddenTests?.verdict ?? null,
    reflected: last.reflection !== null,
  });
  if (next.kind === "end-run") return { kind: "end-run", outcome: next.outcome };
  // A search with nothing left to expand ends here, before a reflection no later trial would read.
  if (treeSearch && treeExhausted(state)) return { kind: "end-run", outcome: "failure", stopReason: "tree-exhausted", stopDetail: TREE_EXHAUSTED_DETAIL };
  return next;
}
