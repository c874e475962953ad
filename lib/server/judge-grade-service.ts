import { randomUUID } from "node:crypto";
import { agreementOf } from "@/lib/domain/agreement";
import { AppError } from "@/lib/domain/errors";
import type { RunEventOf } from "@/lib/domain/events";
import { asBranchId, asRunId } from "@/lib/domain/ids";
import { AGREEMENT_MIN_GRADES, gradeRequestSchema, type GradeRequest, type HumanGrade, type JudgedTrial, type JudgeGradesResponse } from "@/lib/domain/judge-grades";
import type { GradeStore } from "@/lib/db/grade-store";
import type { RunRecord, RunStore } from "@/lib/db/store";
import { environmentEntry } from "@/lib/environments/registry";

/** How many recent runs are searched for judged trials. */
const RUNS_SCANNED = 500;
/** The most judged trials one response lists. */
export const JUDGED_TRIALS_LIMIT = 60;

/**
 * The judge-agreement view's server side: lists judged trials of `open` runs
 * (every branch, newest runs first) with any grade a person gave, stores grades (the judge's
 * verdict and score are read from the trial's recorded `evaluation-end`, never taken from the
 * client), and computes agreement (percent, Cohen's kappa, confusion table) once
 * {@link AGREEMENT_MIN_GRADES} trials are graded.
 */
export class JudgeGradeService {
  constructor(
    private readonly runs: RunStore,
    private readonly grades: GradeStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Judged trials (newest runs first, at most `limit`), grades, and the agreement when there are enough grades. */
  async overview(limit = JUDGED_TRIALS_LIMIT): Promise<JudgeGradesResponse> {
    const grades = await this.grades.listGrades();
    const byTrial = new Map(grades.map((grade) => [keyOf(grade), grade]));
    const judged = await this.judgedTrials();
    const trials = judged.map(({ eventId: _eventId, ...trial }) => ({ ...trial, grade: byTrial.get(keyOf(trial)) ?? null }));
    // Per-criterion grades against the judge's per-criterion scores (met = score ≥ the rubric's threshold).
    const criterionPairs = trials.flatMap((trial) =>
      Object.entries(trial.grade?.criteria ?? {}).flatMap(([id, human]) => {
        const judged = trial.criteria.find((criterion) => criterion.id === id);
        return judged ? [{ human, judge: judged.score + 1e-9 >= trial.threshold ? ("pass" as const) : ("fail" as const) }] : [];
      }),
    );
    // Ungraded trials first (what is left to do), then the graded ones, each newest first.
    trials.sort((a, b) => Number(a.grade !== null) - Number(b.grade !== null));
    const graded = grades.length;
    const needed = Math.max(0, AGREEMENT_MIN_GRADES - graded);
    return {
      trials: trials.slice(0, limit),
      totalJudged: judged.length,
      graded,
      needed,
      agreement: needed > 0 ? null : agreementOf(grades.map((grade) => ({ human: grade.verdict, judge: grade.judgeVerdict }))),
      criterionAgreement: criterionPairs.length === 0 ? null : agreementOf(criterionPairs),
    };
  }

  /**
   * Stores a person's grade of a judged trial, replacing an earlier one.
   * @throws AppError("not-found") for an unknown run or branch, AppError("invalid-input") for a trial the judge has not judged.
   */
  async grade(input: GradeRequest): Promise<HumanGrade> {
    const request = gradeRequestSchema.parse(input);
    const run = await this.runs.getRun(asRunId(request.runId));
    if (!run) throw new AppError("not-found", `Run ${request.runId} not found: pick a trial from the judge-agreement list.`);
    const branch = await this.runs.getBranch(asBranchId(request.branchId));
    if (!branch || branch.runId !== run.id) throw new AppError("not-found", `Branch ${request.branchId} is not a branch of run ${request.runId}.`);
    const events = await this.runs.list(run.id, branch.id);
    const evaluation = events.find((e): e is RunEventOf<"evaluation-end"> => e.type === "evaluation-end" && e.data.trial === request.trial);
    const judge = evaluation?.data.judge;
    if (!evaluation || !judge) throw new AppError("invalid-input", `Trial ${request.trial} of run ${request.runId} has no LLM judge verdict to compare with; grade a judged trial of an open task.`);
    const known = new Set(judge.criteria.map((criterion) => criterion.id));
    const unknown = Object.keys(request.criteria ?? {}).filter((id) => !known.has(id));
    if (unknown.length > 0) throw new AppError("invalid-input", `Unknown criteria ${unknown.join(", ")}: this trial's rubric has ${[...known].join(", ")}.`);
    return this.grades.saveGrade({
      id: randomUUID(),
      runId: run.id,
      branchId: branch.id,
      trial: request.trial,
      taskId: run.config.taskId,
      verdict: request.verdict,
      criteria: request.criteria,
      note: request.note,
      judgeVerdict: evaluation.data.verdict,
      judgeScore: judge.weightedScore,
      gradedAt: this.now().toISOString(),
    });
  }

  private async judgedTrials(): Promise<FoundJudgedTrial[]> {
    const out: FoundJudgedTrial[] = [];
    for (const run of await this.runs.listRuns(RUNS_SCANNED)) out.push(...(await this.judgedTrialsOfRun(run)));
    return out;
  }

  /**
   * The judged trials of one run, in branch then event order: every branch's (each trial listed
   * once, on the branch that recorded it), or only those of `branchIds`. Empty for a run of a family
   * whose Evaluator is not a model. Review queues of verdicts build their items from this.
   */
  async judgedTrialsOfRun(run: RunRecord, branchIds?: readonly string[]): Promise<FoundJudgedTrial[]> {
    const family = environmentEntry(run.config.environment).family;
    // Only a family whose Evaluator is a model (an LLM judge) records verdicts a person can grade.
    if (!family.evaluatorUsesModel) return [];
    const summary = family.summarize(family.parseTask(run.config.task));
    const prompt = typeof run.config.task.prompt === "string" ? run.config.task.prompt : "";
    const out: FoundJudgedTrial[] = [];
    for (const branch of await this.runs.listBranches(run.id)) {
      if (branchIds && !branchIds.includes(branch.id)) continue;
      const events = await this.runs.list(run.id, branch.id);
      const answers = new Map<number, string>();
      for (const event of events) {
        if (event.type === "step-observation" && event.data.answer !== null) answers.set(event.data.trial, event.data.answer);
        if (event.type !== "evaluation-end" || !event.data.judge) continue;
        // A fork sees its parent's trials before the fork point: list each judged trial once, on the branch that recorded it.
        if (event.branchId !== branch.id) continue;
        out.push({
          runId: run.id,
          branchId: branch.id,
          eventId: event.id,
          runTitle: run.title,
          trial: event.data.trial,
          taskId: run.config.taskId,
          taskTitle: summary.title,
          prompt,
          answer: answers.get(event.data.trial) ?? "",
          judgeVerdict: event.data.verdict,
          weightedScore: event.data.judge.weightedScore,
          threshold: event.data.judge.threshold,
          judgeModelId: event.data.judge.modelId,
          criteria: event.data.judge.criteria,
        });
      }
    }
    return out;
  }
}

/** A judged trial as found in a run: what the judge page lists (without a grade), plus the `evaluation-end` event's id. */
export type FoundJudgedTrial = Omit<JudgedTrial, "grade"> & { eventId: string };

function keyOf(item: { runId: string; branchId: string; trial: number }): string {
  return `${item.runId}\0${item.branchId}\0${item.trial}`;
}
