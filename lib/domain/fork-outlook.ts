import type { Strategy } from "./config";
import type { RunState } from "./fold-run";
import { afterTrial } from "./next-trial";
import { strategyBehaviour } from "./strategies";

/**
 * What a branch forked right after trial `trial`'s evaluation would do next,
 * by the loop's own rule ({@link afterTrial}, as lib/engine/decide.ts applies
 * it) with no reflection written yet on the new branch:
 * - `ends`: the run ends there, exactly as on this branch — the trial passed
 *   (`passed`; `false-positive` when the internal tests passed but the hidden
 *   tests failed: the run ends failed) or it was the last trial (`last-trial`).
 *   Nothing is left to replay. `reflects`: whether the strategy writes
 *   reflections at all (so an earlier one could be forked from).
 * - `reflects`: it writes trial `trial`'s Self-Reflection (again).
 * - `next-trial`: its strategy writes no reflection; it starts the next trial.
 */
export type ForkOutlook =
  | { kind: "ends"; reason: "passed" | "false-positive" | "last-trial"; reflects: boolean }
  | { kind: "reflects" }
  | { kind: "next-trial"; strategy: Strategy };

/** See {@link ForkOutlook}. Null while the trial has no evaluation (or before `run-start`). */
export function forkOutlookAfterEvaluation(state: Pick<RunState, "config" | "trials">, trial: number): ForkOutlook | null {
  const evaluation = state.trials.find((candidate) => candidate.trial === trial)?.evaluation;
  const config = state.config;
  if (!evaluation || !config) return null;
  const next = afterTrial(config, {
    trial,
    passed: evaluation.verdict === "pass",
    hiddenVerdict: evaluation.hiddenTests?.verdict ?? null,
    reflected: false,
  });
  switch (next.kind) {
    case "end-run":
      return { kind: "ends", reason: next.reason, reflects: strategyBehaviour(config.strategy).reflectsAfterFailure };
    case "reflect":
      return { kind: "reflects" };
    case "start-trial":
      return { kind: "next-trial", strategy: config.strategy };
  }
}
