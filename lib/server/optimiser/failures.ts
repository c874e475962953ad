import type { ExperimentSummary } from "@/lib/domain/experiment";
import { foldRun, type TrialView } from "@/lib/domain/fold-run";
import type { FailedTrialExcerpt } from "@/lib/domain/optimiser/meta-prompt";
import type { RunEvent } from "@/lib/domain/events";

/**
 * The failed trials an experiment's arm recorded on some tasks, as the meta-prompt shows them
 * (lib/domain/optimiser/meta-prompt.ts): every trial whose outcome was not a success, with the
 * memory the Actor had, its steps, the Evaluator's feedback and the reflection written after it.
 * Ordered by task (in `taskIds` order), repetition and trial, so the same experiment always gives
 * the same list.
 */
export async function failedTrials(
  summary: ExperimentSummary,
  arm: string,
  taskIds: readonly string[],
  eventsOf: (runId: string) => Promise<RunEvent[]>,
): Promise<FailedTrialExcerpt[]> {
  const order = new Map(taskIds.map((id, index) => [id, index]));
  const cells = summary.cells
    .filter((cell) => cell.arm === arm && order.has(cell.taskId))
    .sort((a, b) => order.get(a.taskId)! - order.get(b.taskId)! || (a.repetition ?? 1) - (b.repetition ?? 1));
  const failures: FailedTrialExcerpt[] = [];
  for (const cell of cells) {
    const state = foldRun(await eventsOf(cell.runId));
    const strategy = state.config?.strategy ?? "reflexion";
    for (const trial of state.trials) {
      if (trial.outcome === null || trial.outcome === "success") continue;
      failures.push({
        id: `${cell.runId}#${trial.trial}`,
        family: summary.experiment.definition.environment,
        taskId: cell.taskId,
        strategy,
        trial: trial.trial,
        memory: trial.memory.map((item) => item.text),
        trajectory: trajectoryText(trial),
        feedback: trial.evaluation?.feedback ?? "",
        reflection: trial.reflection?.text ?? null,
      });
    }
  }
  return failures;
}

/** A trial's steps as `Thought n: …` / `Action n: …` / `Observation n: …` lines. */
function trajectoryText(trial: TrialView): string {
  const lines: string[] = [];
  for (const step of trial.steps) {
    if (step.thought) lines.push(`Thought ${step.step}: ${step.thought.text}`);
    if (step.action) lines.push(`Action ${step.step}: ${step.action.text}`);
    if (step.observation) lines.push(`Observation ${step.step}: ${step.observation.text}`);
  }
  return lines.join("\n");
}

/**
 * The failures one proposal reads: `perProposal` of them starting at `index · perProposal`
 * (wrapping; `index` counts the optimisation's proposals), so proposals see different failures
 * when there are enough (GEPA's minibatches).
 */
export function failureSlice<T>(failures: readonly T[], index: number, perProposal: number): T[] {
  if (failures.length <= perProposal) return [...failures];
  const start = (index * perProposal) % failures.length;
  return Array.from({ length: perProposal }, (_, offset) => failures[(start + offset) % failures.length]!);
}
