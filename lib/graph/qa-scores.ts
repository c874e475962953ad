import type { RunState } from "@/lib/domain/fold-run";
import { familyDescriptor } from "@/lib/environments/descriptors";

/** F1, precision and recall in [0, 1] (the shape lib/environments/qa/f1.ts records). */
export interface F1Scores {
  f1: number;
  precision: number;
  recall: number;
}

/**
 * The inspector's QA evaluation view: the answer and the gold
 * answer, EM, and F1 / precision / recall as `hotpot_evaluate_v1.py` computes
 * them (lib/environments/qa/f1.ts). Evaluations recorded since decision 0020
 * carry them in `evaluation-end.details`; older runs and runs imported from the
 * paper's logs have none (the UI says so: it never re-scores an answer, the
 * Evaluator is server-side code).
 */
export interface QaEvaluationView {
  /** The `Finish[...]` argument; null when the trial ended without one. */
  prediction: string | null;
  /** The gold answer, from the run's task (or the imported log's key); null when unknown. */
  gold: string | null;
  /** The verdict by exact match. */
  em: boolean;
  /** The recorded scores; null when the evaluation was recorded without them. */
  scores: F1Scores | null;
}

function stringOr(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function recordedScores(details: Record<string, unknown>): F1Scores | null {
  const { f1, precision, recall } = details;
  return typeof f1 === "number" && typeof precision === "number" && typeof recall === "number" ? { f1, precision, recall } : null;
}

/**
 * The view for trial `trial` of a QA run, or null when the run is not QA or the
 * trial has no evaluation yet.
 */
export function qaEvaluationView(state: Pick<RunState, "config" | "trials">, trial: number): QaEvaluationView | null {
  if (!state.config || familyDescriptor(state.config.environment).evaluationView !== "answer-match") return null;
  const evaluation = state.trials.find((view) => view.trial === trial)?.evaluation;
  if (!evaluation) return null;
  const details = evaluation.details;
  const prediction = stringOr(details.prediction) ?? stringOr(details.answer);
  const gold = stringOr(state.config.task.answer) ?? stringOr(details.gold);
  return { prediction, gold, em: evaluation.verdict === "pass", scores: recordedScores(details) };
}

/** A score in [0, 1] as the inspector prints it: three decimals (`0.667`). */
export function formatScore(value: number): string {
  return value.toFixed(3);
}
