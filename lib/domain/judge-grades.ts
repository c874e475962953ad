import { z } from "zod";
import { criterionScoreSchema } from "./judge";

/**
 * The judge-agreement API: a person grades judged trials of `open` runs
 * (pass/fail, optionally per criterion), and the view compares the grades with the LLM judge's
 * verdicts (lib/domain/agreement.ts).
 * - `GET  /api/judge-grades` → {@link judgeGradesResponseSchema}: a sample of judged trials with any grade, and the agreement;
 * - `POST /api/judge-grades` {@link gradeRequestSchema} → {@link humanGradeSchema} (grading a trial again replaces its grade).
 */

/** How many graded trials the view asks for before it shows agreement. */
export const AGREEMENT_MIN_GRADES = 10;

const verdict = z.enum(["pass", "fail"]);

/** A person's grade of one judged trial. */
export const gradeRequestSchema = z.object({
  runId: z.string().min(1),
  branchId: z.string().min(1),
  trial: z.number().int().positive(),
  verdict,
  /** Optional per-criterion grades, by criterion id. */
  criteria: z.record(z.string(), verdict).nullable().default(null),
  note: z.string().max(2000).default(""),
});
export type GradeRequest = z.input<typeof gradeRequestSchema>;

/** A stored grade, with the judge's verdict and score as they were when the person graded. */
export const humanGradeSchema = z.object({
  id: z.string(),
  runId: z.string(),
  branchId: z.string(),
  trial: z.number().int().positive(),
  taskId: z.string(),
  verdict,
  criteria: z.record(z.string(), verdict).nullable(),
  note: z.string(),
  judgeVerdict: verdict,
  judgeScore: z.number().min(0).max(1),
  /** ISO-8601. */
  gradedAt: z.string(),
});
export type HumanGrade = z.infer<typeof humanGradeSchema>;

/** One judged trial offered for grading. */
export const judgedTrialSchema = z.object({
  runId: z.string(),
  branchId: z.string(),
  runTitle: z.string(),
  trial: z.number().int().positive(),
  taskId: z.string(),
  taskTitle: z.string(),
  prompt: z.string(),
  answer: z.string(),
  judgeVerdict: verdict,
  weightedScore: z.number(),
  threshold: z.number(),
  judgeModelId: z.string(),
  criteria: z.array(criterionScoreSchema),
  grade: humanGradeSchema.nullable(),
});
export type JudgedTrial = z.infer<typeof judgedTrialSchema>;

const confusionSchema = z.object({ bothPass: z.number(), humanPassJudgeFail: z.number(), humanFailJudgePass: z.number(), bothFail: z.number() });

/** Agreement of the grades with the judge (Cohen's kappa etc., lib/domain/agreement.ts). */
export const agreementSchema = z.object({
  n: z.number().int().nonnegative(),
  confusion: confusionSchema,
  percentAgreement: z.number().nullable(),
  chanceAgreement: z.number().nullable(),
  kappa: z.number().nullable(),
  kappaUndefinedReason: z.string().nullable(),
});

/** `GET /api/judge-grades`. `agreement` is null until {@link AGREEMENT_MIN_GRADES} trials are graded (`needed` says how many more). */
export const judgeGradesResponseSchema = z.object({
  trials: z.array(judgedTrialSchema),
  /** Judged trials in the database (the sample shows at most `limit`). */
  totalJudged: z.number().int().nonnegative(),
  graded: z.number().int().nonnegative(),
  needed: z.number().int().nonnegative(),
  agreement: agreementSchema.nullable(),
  /**
   * Agreement on the criteria people graded one by one: the judge "passes" a criterion when its
   * normalised score reaches the rubric's pass threshold (the verdict's rule, per criterion). Null
   * when no criterion was graded.
   */
  criterionAgreement: agreementSchema.nullable(),
});
export type JudgeGradesResponse = z.infer<typeof judgeGradesResponseSchema>;
