/**
 * Agreement between two raters on nominal labels: percent agreement and Cohen's kappa (Cohen 1960,
 * "A coefficient of agreement for nominal scales", Educational and Psychological Measurement 20(1)).
 * One implementation, {@link nominalAgreement}, serves every view: the judge-agreement view
 * ({@link agreementOf}: a person against the LLM judge on pass/fail, with its 2 × 2 confusion
 * table) and review queues (two reviewers on a rubric's labels, lib/domain/review-queue.ts).
 * A small function instead of a stats library: it is k² counts and two ratios.
 */

/** Two raters' labels of one item. */
export interface RatedPair<L extends string = string> {
  a: L;
  b: L;
}

/** {@link nominalAgreement}'s result. */
export interface NominalAgreement {
  n: number;
  /** Observed agreement p_o = Σ_k n_kk / n, 0–1; null when n = 0. */
  percentAgreement: number | null;
  /** Agreement expected by chance from the two raters' marginals, p_e = Σ_k (n_k· / n)(n_·k / n), 0–1; null when n = 0. */
  chanceAgreement: number | null;
  /** Cohen's κ = (p_o − p_e) / (1 − p_e), −1…1; null when n = 0 or p_e = 1 (see `kappaUndefinedReason`). */
  kappa: number | null;
  kappaUndefinedReason: string | null;
}

/**
 * Percent agreement and Cohen's κ of two raters over any k nominal categories (the labels seen in
 * `pairs`; a category neither rater used adds nothing to p_o or p_e). `unit` names what was rated in
 * the undefined reasons ("trials", "items").
 */
export function nominalAgreement(pairs: readonly RatedPair[], unit = "items"): NominalAgreement {
  const n = pairs.length;
  if (n === 0) return { n, percentAgreement: null, chanceAgreement: null, kappa: null, kappaUndefinedReason: `no rated ${unit}` };
  const marginalA = new Map<string, number>();
  const marginalB = new Map<string, number>();
  let agreed = 0;
  for (const pair of pairs) {
    if (pair.a === pair.b) agreed += 1;
    marginalA.set(pair.a, (marginalA.get(pair.a) ?? 0) + 1);
    marginalB.set(pair.b, (marginalB.get(pair.b) ?? 0) + 1);
  }
  const observed = agreed / n;
  let chance = 0;
  for (const [label, countA] of marginalA) chance += (countA / n) * ((marginalB.get(label) ?? 0) / n);
  if (Math.abs(1 - chance) < 1e-12) {
    return { n, percentAgreement: observed, chanceAgreement: chance, kappa: null, kappaUndefinedReason: `both gave every one of the ${unit} the same single label, so agreement by chance is 1 and κ is undefined` };
  }
  return { n, percentAgreement: observed, chanceAgreement: chance, kappa: (observed - chance) / (1 - chance), kappaUndefinedReason: null };
}

/** One graded trial: the person's verdict and the judge's. */
export interface VerdictPair {
  human: "pass" | "fail";
  judge: "pass" | "fail";
}

/** Counts by (person, judge). */
export interface ConfusionTable {
  bothPass: number;
  /** The person passed, the judge failed. */
  humanPassJudgeFail: number;
  /** The person failed, the judge passed. */
  humanFailJudgePass: number;
  bothFail: number;
}

/** {@link agreementOf}'s result. */
export interface Agreement {
  n: number;
  confusion: ConfusionTable;
  /** Observed agreement p_o, 0–1; null when n = 0. */
  percentAgreement: number | null;
  /** Agreement expected by chance from the two marginals, p_e, 0–1; null when n = 0. */
  chanceAgreement: number | null;
  /**
   * Cohen's κ = (p_o − p_e) / (1 − p_e), −1…1; null when n = 0 or p_e = 1 (both raters gave
   * every trial the same single verdict: κ is undefined, see `kappaUndefinedReason`).
   */
  kappa: number | null;
  kappaUndefinedReason: string | null;
}

/**
 * Percent agreement, Cohen's kappa and the confusion table of `pairs` (a person's verdict against
 * the judge's): {@link nominalAgreement} over the two labels pass and fail, plus the 2 × 2 table.
 */
export function agreementOf(pairs: readonly VerdictPair[]): Agreement {
  const confusion: ConfusionTable = { bothPass: 0, humanPassJudgeFail: 0, humanFailJudgePass: 0, bothFail: 0 };
  for (const pair of pairs) {
    if (pair.human === "pass") {
      if (pair.judge === "pass") confusion.bothPass += 1;
      else confusion.humanPassJudgeFail += 1;
    } else if (pair.judge === "pass") confusion.humanFailJudgePass += 1;
    else confusion.bothFail += 1;
  }
  const nominal = nominalAgreement(pairs.map((pair) => ({ a: pair.human, b: pair.judge })));
  if (nominal.n === 0) return { ...nominal, confusion, kappaUndefinedReason: "no graded trials" };
  const kappaUndefinedReason = nominal.kappa === null ? "both gave every trial the same verdict, so agreement by chance is 1 and κ is undefined" : null;
  return { n: nominal.n, confusion, percentAgreement: nominal.percentAgreement, chanceAgreement: nominal.chanceAgreement, kappa: nominal.kappa, kappaUndefinedReason };
}
