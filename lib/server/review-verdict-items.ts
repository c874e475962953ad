import type { RunStore } from "@/lib/db/store";
import { AppError } from "@/lib/domain/errors";
import { parseCellArmKey } from "@/lib/domain/experiment-cells";
import { asRunId } from "@/lib/domain/ids";
import type { ReviewItem } from "@/lib/domain/review-queue";
import type { FoundJudgedTrial, JudgeGradeService } from "./judge-grade-service";

/**
 * Items of a single queue of the LLM judge's verdicts (docs/review-queues.md, "Calibrating the
 * judge"): one per judged trial of the chosen arms' runs (root branches), found by the judge page's
 * own code ({@link JudgeGradeService.judgedTrialsOfRun}), in task order, then arm, repetition and
 * trial. Each item shows the judged answer as its node (`kind: "evaluation"`, the `evaluation-end`
 * event) and the task in `judged`; the judge's verdict is left out so reviewing is blind.
 * @throws AppError("invalid-input") when the chosen arms have no judged trial.
 */
export async function verdictItems(
  deps: { runs: RunStore; judgeGrades: JudgeGradeService },
  experiment: { id: string; labels: readonly string[]; arms: readonly string[]; taskOrder: readonly string[] },
): Promise<Array<Omit<ReviewItem, "id" | "queueId" | "position">>> {
  const found: Array<{ arm: string; repetition: number; trial: FoundJudgedTrial }> = [];
  for (const link of await deps.runs.experiments.listExperimentRuns(experiment.id)) {
    const { arm, repetition } = parseCellArmKey(link.arm, experiment.labels);
    if (!experiment.arms.includes(arm)) continue;
    const run = await deps.runs.getRun(asRunId(link.runId));
    if (!run) continue;
    for (const trial of await deps.judgeGrades.judgedTrialsOfRun(run, [run.rootBranchId])) found.push({ arm, repetition, trial });
  }
  if (found.length === 0) {
    throw new AppError(
      "invalid-input",
      `Experiment ${experiment.id} has no judged trials in ${experiment.arms.join(", ")}: only open tasks are judged by a model: run an experiment of the open family (--env open) and build the queue from it.`,
    );
  }
  const task = (id: string) => experiment.taskOrder.indexOf(id) + 1 || Number.MAX_SAFE_INTEGER;
  found.sort((a, b) => task(a.trial.taskId) - task(b.trial.taskId) || experiment.arms.indexOf(a.arm) - experiment.arms.indexOf(b.arm) || a.repetition - b.repetition || a.trial.trial - b.trial.trial);
  return found.map(({ arm, trial }) => ({
    taskId: trial.taskId,
    left: { runId: trial.runId, branchId: trial.branchId, eventId: trial.eventId, kind: "evaluation", trial: trial.trial, step: null, arm, text: trial.answer, followedBySuccess: null },
    right: null,
    leftArm: null,
    judged: { taskTitle: trial.taskTitle, prompt: trial.prompt, threshold: trial.threshold, judgeModelId: trial.judgeModelId },
  }));
}
