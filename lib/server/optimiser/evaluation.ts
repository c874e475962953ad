import type { Arm, ExperimentRecord, ExperimentSummary } from "@/lib/domain/experiment";
import type { OptimisedRole } from "@/lib/domain/optimiser/types";
import type { LineageRate } from "@/lib/domain/template-lineage";
import type { ExperimentService } from "@/lib/server/experiment-service";

/**
 * The optimiser's measurements, all as experiments (lib/domain/experiment.ts) so they reuse its
 * repeats, intervals and paired tests: a candidate on the train tasks is a one-arm experiment; a
 * candidate against its parent on the held-out tasks is a two-arm one (arms {@link PARENT_ARM} and
 * {@link CANDIDATE_ARM}) whose exact paired test (McNemar on final success) gives `p`.
 */

export const CANDIDATE_ARM = "candidate";
export const PARENT_ARM = "parent";

/** The source arm with `role`'s template set to `versionId` (a text override for the role is dropped: it would win over the version). */
export function armWithVersion(base: Arm, role: OptimisedRole, versionId: string, label: string): Arm {
  const { [role]: _dropped, ...otherTexts } = base.templates ?? {};
  return {
    ...base,
    label,
    templates: Object.keys(otherTexts).length > 0 ? otherTexts : undefined,
    templateVersions: { ...base.templateVersions, [role]: versionId },
  };
}

/** What an evaluation experiment runs: the source's family, task set, trial budget and arm, on `taskIds`. */
export interface EvaluationPlan {
  /** The optimisation the evaluation belongs to (`opt-…`): recorded as the experiment's origin, so lists leave it out. */
  optimisationId: string;
  source: ExperimentRecord;
  arm: Arm;
  role: OptimisedRole;
  taskIds: readonly string[];
  repeats: number;
  maxTrials: number;
}

/** Starts (queues) an evaluation experiment of `versions` (label → version id); resolves with its id. */
export async function startEvaluation(experiments: ExperimentService, plan: EvaluationPlan, name: string, versions: ReadonlyArray<{ label: string; versionId: string }>): Promise<string> {
  const { definition } = plan.source;
  const record = await experiments.start(
    {
      name: name.length <= 120 ? name : `${name.slice(0, 119)}…`,
      environment: definition.environment,
      taskSet: definition.taskSet,
      taskIds: [...plan.taskIds],
      maxTrials: plan.maxTrials,
      concurrency: definition.concurrency,
      repeats: plan.repeats > 1 ? plan.repeats : undefined,
      arms: versions.map(({ label, versionId }) => armWithVersion(plan.arm, plan.role, versionId, label)),
      origin: { kind: "optimisation", id: plan.optimisationId },
    },
    { start: true },
  );
  return record.id;
}

/**
 * An arm's final success as a {@link LineageRate}: the share of (task, repetition) runs solved
 * within the trial budget, with the summary's own 95 % interval at the last trial (Wilson for one
 * repetition, the clustered bootstrap with more; docs/statistics.md).
 * @throws Error when the summary has no such arm.
 */
export function rateOf(summary: ExperimentSummary, label: string): LineageRate {
  const arm = summary.arms.find((candidate) => candidate.label === label);
  if (!arm) throw new Error(`Experiment ${summary.experiment.id} has no arm "${label}".`);
  const tasks = Math.max(1, arm.tasks);
  const clamp = (value: number) => Math.min(1, Math.max(0, value / tasks));
  const solved = arm.successByTrial.at(-1) ?? 0;
  const ci = arm.successByTrialCI?.at(-1) ?? [solved, solved];
  return { rate: clamp(solved), interval: [clamp(ci[0]), clamp(ci[1])], n: arm.tasks, repeats: arm.repeats ?? 1 };
}

/** Per task, the share of an arm's repetitions solved within the trial budget (the Pareto front's objectives). */
export function scoresByTask(summary: ExperimentSummary, label: string): Record<string, number> {
  const totals = new Map<string, { solved: number; runs: number }>();
  for (const cell of summary.cells) {
    if (cell.arm !== label) continue;
    const entry = totals.get(cell.taskId) ?? { solved: 0, runs: 0 };
    entry.runs += 1;
    if (cell.solvedAtTrial !== null) entry.solved += 1;
    totals.set(cell.taskId, entry);
  }
  return Object.fromEntries([...totals].map(([taskId, { solved, runs }]) => [taskId, solved / runs]));
}

/** What an experiment spent on live calls: tokens (input + output) and USD (unpriced calls count 0). */
export function spendOf(summary: ExperimentSummary): { tokens: number; usd: number } {
  return summary.arms.reduce((total, arm) => ({ tokens: total.tokens + arm.tokens.input + arm.tokens.output, usd: total.usd + (arm.costUsd ?? 0) }), { tokens: 0, usd: 0 });
}

/** The two-sided p of the exact paired test (final success) between the parent and the candidate arm. */
export async function pAgainstParent(experiments: ExperimentService, experimentId: string): Promise<number> {
  const tests = await experiments.compare(experimentId, PARENT_ARM, CANDIDATE_ARM);
  const finalSuccess = tests.find((test) => test.metric === "final-success");
  if (!finalSuccess) throw new Error(`Experiment ${experimentId} has no final-success test between its arms.`);
  return finalSuccess.p;
}
