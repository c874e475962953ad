import { createHash } from "node:crypto";
import type { RunState } from "@/lib/domain/fold-run";

/**
 * A digest of the parts of a folded state that later trials depend on: each
 * trial's outcome, answer and reflection, and the episodic memory. Written into
 * `checkpoint` events; folding the log up to a checkpoint must reproduce it.
 *
 * @returns a SHA-256 hex string.
 */
export function digestState(state: RunState): string {
  const summary = {
    trials: state.trials.map((trial) => ({
      trial: trial.trial,
      outcome: trial.outcome,
      answer: trial.answer,
      steps: trial.steps.length,
      reflection: trial.reflection?.text ?? null,
    })),
    memory: state.memory.map((item) => [item.id, item.text]),
  };
  return createHash("sha256").update(JSON.stringify(summary)).digest("hex");
}
