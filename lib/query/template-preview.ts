import type { ChatMessage } from "@/lib/domain/events";
import type { RunState } from "@/lib/domain/fold-run";
import type { TemplateRole } from "@/lib/domain/template-library";

/**
 * The live preview's choices and its check against the log: which trials and
 * steps of a recorded run can be previewed for a role, and the prompt the
 * engine actually sent there (to show "identical to the recorded call" when
 * the text is the run's own template). Pure.
 */

/** One trial the preview can use. */
export interface PreviewTrial {
  trial: number;
  outcome: string | null;
  /** Actor steps recorded in the trial (1 when none yet: step 1's prompt can still be built). */
  steps: number;
  reflected: boolean;
}

/** The run's trials that a `role` preview can render: every started trial for the Actor and the summariser, trials with a reflection (or an ended failure) for the Self-Reflection. */
export function previewTrials(state: Pick<RunState, "trials">, role: TemplateRole): PreviewTrial[] {
  return state.trials
    .map((trial) => ({ trial: trial.trial, outcome: trial.outcome, steps: Math.max(1, trial.steps.length), reflected: trial.reflection !== null }))
    .filter((trial) => role !== "reflector" || trial.reflected || (trial.outcome !== null && trial.outcome !== "success"));
}

/** The recorded model call of `role` at `trial` (and `step` for the Actor), or null (not in the log, or the step was written by a person). */
export function recordedCall(state: Pick<RunState, "calls">, role: TemplateRole, trial: number, step: number): RunState["calls"][string] | null {
  const wanted = role === "summarizer" ? null : role;
  for (const call of Object.values(state.calls)) {
    if (wanted === null || call.role !== wanted || call.trial !== trial) continue;
    if (wanted === "actor" && call.step !== step) continue;
    if (wanted === "reflector" && call.step !== null) continue;
    return call;
  }
  return null;
}

/** Whether two prompts are the same messages (role and content, in order). */
export function sameMessages(a: readonly ChatMessage[], b: readonly ChatMessage[]): boolean {
  return a.length === b.length && a.every((message, index) => message.role === b[index]!.role && message.content === b[index]!.content);
}

/**
 * The run the preview opens on when none is chosen: the newest run of the family that has something
 * to preview for `role`. A Self-Reflection preview needs a failed trial, so it skips runs solved at
 * their first trial (one trial, outcome success); other roles take the newest run. Null when none.
 */
export function defaultPreviewRun<T extends { trials: number; outcome: string | null }>(runs: readonly T[], role: TemplateRole): T | null {
  if (role !== "reflector") return runs[0] ?? null;
  return runs.find((run) => run.trials >= 2 || run.outcome === "failure") ?? runs[0] ?? null;
}
