import { comparedRole } from "@/lib/domain/ab-experiment";
import type { Arm, ExperimentDefinitionInput, ExperimentRecord, ExperimentSummary } from "@/lib/domain/experiment";
import { AppError } from "@/lib/domain/errors";
import type { RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { pairedExactTest } from "@/lib/domain/paired-test";
import type { AbRequest, AbResult } from "@/lib/domain/template-library";
import { abRequestSchema } from "@/lib/domain/template-library";
import type { TemplateService } from "./template-service";

/**
 * "Compare versions": a two-arm experiment whose arms differ
 * only in one role's template version, and its read-out: the tasks where the
 * arms differ with both arms' reflections, and an exact paired test over the
 * tasks (lib/domain/paired-test.ts) with its sample size.
 */

/**
 * The experiment definition of an A/B request, with both references resolved
 * to version ids of `family` templates for `role`.
 * @throws AppError("invalid-input") for versions of another family or role, or the same version twice.
 */
export async function abDefinition(templates: TemplateService, input: AbRequest): Promise<ExperimentDefinitionInput> {
  const request = abRequestSchema.parse(input);
  const a = await templates.resolve(request.versionA);
  const b = await templates.resolve(request.versionB);
  for (const [name, found] of [["versionA", a], ["versionB", b]] as const) {
    if (found.template.family !== request.family || found.template.role !== request.role) {
      throw new AppError("invalid-input", `${name} (${found.version.id}) is a ${found.template.family} ${found.template.role} template; this comparison needs ${request.family} ${request.role} templates.`);
    }
  }
  if (a.version.id === b.version.id) throw new AppError("invalid-input", `versionA and versionB are the same version (${a.version.id}); pick two different versions.`);
  const labelA = request.labelA ?? "A";
  const labelB = request.labelB ?? "B";
  const strategy = request.strategy ?? "reflexion";
  const arm = (label: string, versionId: string): Arm => ({ label, strategy, modelId: request.modelId as Arm["modelId"], templateVersions: { [request.role]: versionId } });
  return {
    name: request.name ?? `A/B ${request.role}: ${a.template.name} v${a.version.number} vs ${b.template.name === a.template.name ? "" : `${b.template.name} `}v${b.version.number}`,
    environment: request.family,
    taskSet: request.taskSet,
    taskIds: request.taskIds,
    maxTrials: request.maxTrials,
    ...(request.concurrency ? { concurrency: request.concurrency } : {}),
    arms: [arm(labelA, a.version.id), arm(labelB, b.version.id)],
  };
}

export { comparedRole };

/**
 * The A/B read-out of an experiment from its summary: tasks with both arms ended
 * are the sample (`n`); the discordant ones (solved within the budget by one arm
 * only) go into the paired exact test; every task whose first-success trial
 * differs is listed with both runs' reflections (from their root branches).
 * @throws AppError("not-found") when the experiment is not an A/B comparison.
 */
export async function abResult(record: ExperimentRecord, summary: ExperimentSummary, eventsOf: (runId: string) => Promise<RunEvent[]>): Promise<AbResult> {
  const role = comparedRole(record);
  if (role === null) throw new AppError("not-found", `Experiment ${record.id} is not a template comparison (two arms differing only in one role's template version); its results are at /experiments/${record.id}.`);
  const [armA, armB] = record.definition.arms as [Arm, Arm];
  const cellOf = (taskId: string, arm: string) => summary.cells.find((cell) => cell.taskId === taskId && cell.arm === arm);
  const reflectionsOf = async (runId: string) =>
    foldRun(await eventsOf(runId))
      .trials.map((trial) => trial.reflection?.text)
      .filter((text): text is string => text !== undefined);
  let n = 0;
  let aOnly = 0;
  let bOnly = 0;
  const differingTasks: AbResult["differingTasks"] = [];
  for (const taskId of record.definition.taskIds) {
    const a = cellOf(taskId, armA.label);
    const b = cellOf(taskId, armB.label);
    if (!a || !b || a.outcome === null || b.outcome === null) continue;
    n += 1;
    if (a.solvedAtTrial !== null && b.solvedAtTrial === null) aOnly += 1;
    if (a.solvedAtTrial === null && b.solvedAtTrial !== null) bOnly += 1;
    if (a.solvedAtTrial === b.solvedAtTrial) continue;
    differingTasks.push({
      taskId,
      a: { solvedAtTrial: a.solvedAtTrial, reflections: await reflectionsOf(a.runId), runId: a.runId },
      b: { solvedAtTrial: b.solvedAtTrial, reflections: await reflectionsOf(b.runId), runId: b.runId },
    });
  }
  return {
    role,
    armA: { label: armA.label, versionId: armA.templateVersions![role]! },
    armB: { label: armB.label, versionId: armB.templateVersions![role]! },
    differingTasks,
    pairedTest: pairedExactTest(n, aOnly, bOnly),
  };
}
