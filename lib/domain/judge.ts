import { z } from "zod";

/**
 * The LLM-judge Evaluator's vocabulary (docs/decisions/0025-llm-judge-open-tasks.md):
 * a rubric of weighted criteria with a pass threshold, the judge's per-criterion scores, and the
 * weighted verdict. The Reflexion paper names an LLM Evaluator as its third kind (§3, "Evaluator")
 * without fixing a format; the rubric, the 0–5 scale and the JSON reply are ours.
 */

/** The judge's score scale: every criterion is scored 0 … {@link JUDGE_SCALE_MAX} (integers or halves), normalised to 0–1. */
export const JUDGE_SCALE_MAX = 5;

/** One criterion of a rubric: a stable id (used in the judge's reply), what it asks, and its weight (> 0). */
export const rubricCriterionSchema = z.object({
  id: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, { message: "criterion id: 1–40 lowercase letters, digits, - or _" }),
  description: z.string().trim().min(1, { message: "criterion description is empty" }).max(500),
  weight: z.number().positive({ message: "criterion weight must be > 0" }).max(100),
});
export type RubricCriterion = z.infer<typeof rubricCriterionSchema>;

/** A rubric: 1–12 criteria with distinct ids, and the pass threshold on the weighted score (0–1). */
export const rubricSchema = z
  .object({
    criteria: z.array(rubricCriterionSchema).min(1, { message: "a rubric needs at least one criterion" }).max(12),
    passThreshold: z.number().min(0).max(1),
  })
  .superRefine((rubric, ctx) => {
    const seen = new Set<string>();
    for (const criterion of rubric.criteria) {
      if (seen.has(criterion.id)) ctx.addIssue({ code: "custom", message: `criterion id "${criterion.id}" appears twice` });
      seen.add(criterion.id);
    }
  });
export type Rubric = z.infer<typeof rubricSchema>;

/** One criterion as judged: the rubric's fields, the judge's raw score (0–5), its normalised score (0–1) and its one-line justification. */
export const criterionScoreSchema = z.object({
  id: z.string(),
  description: z.string(),
  weight: z.number().positive(),
  /** The judge's score on 0 … {@link JUDGE_SCALE_MAX}. */
  rawScore: z.number().min(0).max(JUDGE_SCALE_MAX),
  /** `rawScore / JUDGE_SCALE_MAX`. */
  score: z.number().min(0).max(1),
  justification: z.string(),
});
export type CriterionScore = z.infer<typeof criterionScoreSchema>;

/**
 * What `evaluation-end.judge` records for a judged trial: per-criterion scores, the weighted score
 * against the threshold, and which model call was the judge (its prompt and raw answer are that
 * `model-call-end`). `attempts`: 1, or 2 when the first answer could not be read and it was asked again.
 */
export const judgeVerdictSchema = z.object({
  criteria: z.array(criterionScoreSchema),
  /** Σ weight·score / Σ weight, 0–1. */
  weightedScore: z.number().min(0).max(1),
  /** The rubric's pass threshold, 0–1. */
  threshold: z.number().min(0).max(1),
  /** The `model-call-end` whose answer was read (the last attempt). */
  callId: z.string(),
  /** Every judge call of this evaluation, in order (two when the first answer was unreadable). */
  callIds: z.array(z.string()),
  /** The judge model, `provider:model` or `demo`. */
  modelId: z.string(),
  templateId: z.string(),
  attempts: z.number().int().positive(),
  /** Why the first answer was asked again; null when it was read at once. */
  firstProblem: z.string().nullable(),
});
export type JudgeVerdict = z.infer<typeof judgeVerdictSchema>;

/**
 * The weighted score of per-criterion scores (each 0–1): Σ wᵢ·sᵢ / Σ wᵢ. Returns 0 for no criteria.
 * Rounded to 4 decimals so a recorded score reads the same everywhere.
 */
export function weightedScore(scores: ReadonlyArray<{ weight: number; score: number }>): number {
  const total = scores.reduce((sum, item) => sum + item.weight, 0);
  if (total <= 0) return 0;
  const value = scores.reduce((sum, item) => sum + item.weight * item.score, 0) / total;
  return Math.round(value * 10_000) / 10_000;
}

/** The verdict of a weighted score: `pass` when it reaches the threshold (≥), else `fail`. */
export function judgeVerdictOf(score: number, threshold: number): "pass" | "fail" {
  // A tolerance of 1e-9 so 0.7 reached by floating-point sums still passes a 0.7 threshold.
  return score + 1e-9 >= threshold ? "pass" : "fail";
}

/**
 * The judge's answer could not be read, even after it was asked again once. The engine records
 * the judge calls, a `model-call-error` (code {@link JUDGE_UNREADABLE_CODE}) and pauses the run:
 * the Actor's trial is not failed for the judge's fault (docs/decisions/0025).
 */
export class JudgeUnreadableError extends Error {
  /** Why each answer could not be read, in order. */
  readonly problems: string[];
  /** The judge calls made, in order. */
  readonly callIds: string[];

  constructor(problems: string[], callIds: string[]) {
    super(
      `Judge answer unreadable (asked twice): ${problems.at(-1) ?? "no JSON"}. The run paused: check the Evaluator model and the judge template (it must ask for the JSON shape), then resume to ask the judge again.`,
    );
    this.name = "JudgeUnreadableError";
    this.problems = problems;
    this.callIds = callIds;
  }
}

/** `model-call-error.code` of a judge answer that could not be read twice. */
export const JUDGE_UNREADABLE_CODE = "judge-unreadable";
