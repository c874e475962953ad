import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { humanGradeSchema, judgeGradesResponseSchema } from "@/lib/domain/judge-grades";
import { builtinOpenTasks } from "@/lib/environments/open";
import { agreementOf, type ConfusionTable, type VerdictPair } from "@/lib/domain/agreement";

/** The pairs behind a confusion table. */
function grades(c: ConfusionTable): VerdictPair[] {
  const make = (n: number, human: VerdictPair["human"], judge: VerdictPair["judge"]) => Array.from({ length: n }, () => ({ human, judge }));
  return [...make(c.bothPass, "pass", "pass"), ...make(c.humanPassJudgeFail, "pass", "fail"), ...make(c.humanFailJudgePass, "fail", "pass"), ...make(c.bothFail, "fail", "fail")];
}

// The route uses the process-wide context: point it at a private database before importing it.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-judge-grades-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "grades.sqlite");

let route: typeof import("@/app/api/judge-grades/route");

/**
 * The judge-agreement API over real open-task runs made with the demo model (a scripted stand-in:
 * each run has a judged failure in trial 1 and a judged pass in trial 2), on the SQLite database:
 * empty state, grading (and re-grading) round trips, refusals, and the agreement after 10 grades.
 */
beforeAll(async () => {
  route = await import("@/app/api/judge-grades/route");
  const { getServerContext } = await import("@/lib/server/app-context");
  const context = getServerContext();
  for (const task of builtinOpenTasks.slice(0, 6)) {
    const run = await context.service.createRun({ environment: "open", taskSet: "builtin", taskId: task.id, strategy: "reflexion", modelId: "demo", maxTrials: 3 });
    await context.workers.untilSettled(run.rootBranchId);
  }
}, 60_000);

async function get() {
  const response = await route.GET();
  return judgeGradesResponseSchema.parse(await response.json());
}

async function post(body: unknown) {
  const response = await route.POST(new NextRequest("http://127.0.0.1/api/judge-grades", { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } }));
  return { status: response.status, body: (await response.json()) as unknown };
}

describe("/api/judge-grades", () => {
  it("lists the judged trials, none graded yet, and says how many grades agreement needs", async () => {
    const overview = await get();
    expect(overview.totalJudged).toBe(12);
    expect(overview.trials).toHaveLength(12);
    expect(overview).toMatchObject({ graded: 0, needed: 10, agreement: null, criterionAgreement: null });
    const trial = overview.trials[0]!;
    expect(trial.criteria.length).toBeGreaterThan(0);
    expect(trial.answer).not.toBe("");
    expect(trial.judgeModelId).toBe("demo");
  });

  it("grades round-trip with the judge's recorded verdict (never the client's); grading again replaces", async () => {
    const target = (await get()).trials.find((t) => t.judgeVerdict === "fail")!;
    const first = await post({ runId: target.runId, branchId: target.branchId, trial: target.trial, verdict: "pass", judgeVerdict: "pass", note: "reads fine to me" });
    expect(first.status).toBe(201);
    const grade = humanGradeSchema.parse(first.body);
    expect(grade).toMatchObject({ verdict: "pass", judgeVerdict: "fail", judgeScore: target.weightedScore, note: "reads fine to me", taskId: target.taskId });
    const criterion = target.criteria[0]!.id;
    const again = humanGradeSchema.parse((await post({ runId: target.runId, branchId: target.branchId, trial: target.trial, verdict: "fail", criteria: { [criterion]: "fail" } })).body);
    expect(again).toMatchObject({ verdict: "fail", criteria: { [criterion]: "fail" } });
    // The per-criterion agreement compares it with the judge's score on that criterion (met = score ≥ threshold).
    const judgeMet = target.criteria[0]!.score >= target.threshold ? "pass" : "fail";
    expect((await get()).criterionAgreement).toMatchObject({ n: 1, percentAgreement: judgeMet === "fail" ? 1 : 0 });
    const overview = await get();
    expect(overview.graded).toBe(1);
    expect(overview.trials.find((t) => t.runId === target.runId && t.trial === target.trial)?.grade).toMatchObject({ verdict: "fail" });
  });

  it("refuses an unknown run, an unjudged trial and unknown criteria with 4xx and a message", async () => {
    const target = (await get()).trials[0]!;
    expect((await post({ runId: "nope", branchId: target.branchId, trial: 1, verdict: "pass" })).status).toBe(404);
    const unjudged = await post({ runId: target.runId, branchId: target.branchId, trial: 9, verdict: "pass" });
    expect(unjudged.status).toBe(400);
    expect(JSON.stringify(unjudged.body)).toMatch(/no LLM judge verdict/);
    const badCriterion = await post({ runId: target.runId, branchId: target.branchId, trial: target.trial, verdict: "pass", criteria: { made_up: "pass" } });
    expect(badCriterion.status).toBe(400);
    expect((await post({ runId: target.runId, verdict: "maybe" })).status).toBe(400);
  });

  it("after 10 grades shows percent agreement, Cohen's kappa and the confusion table", async () => {
    const trials = (await get()).trials;
    // Nine more grades: the first disagrees with the judge, the rest agree (the trial graded above agrees: fail and fail).
    for (const [index, trial] of trials.filter((t) => t.grade === null).slice(0, 9).entries()) {
      const verdict = index === 0 ? (trial.judgeVerdict === "pass" ? "fail" : "pass") : trial.judgeVerdict;
      expect((await post({ runId: trial.runId, branchId: trial.branchId, trial: trial.trial, verdict })).status).toBe(201);
    }
    const overview = await get();
    expect(overview.graded).toBe(10);
    expect(overview.needed).toBe(0);
    const { agreement } = overview;
    expect(agreement).not.toBeNull();
    expect(agreement!.n).toBe(10);
    expect(agreement!.percentAgreement).toBeCloseTo(0.9, 12);
    const c = agreement!.confusion;
    expect(c.bothPass + c.bothFail).toBe(9);
    expect(c.bothPass + c.bothFail + c.humanFailJudgePass + c.humanPassJudgeFail).toBe(10);
    expect(agreementOf(grades(c))).toEqual(agreement);
  });
});
