/**
 * Agreement between a person and the LLM judge on pass/fail verdicts (the
 * judge-agreement view): percent agreement, Cohen's kappa (Cohen 1960, "A coefficient of
 * agreement for nominal scales") and the 2 × 2 confusion table. A small function instead of a
 * stats library: it is four counts and two ratios.
 */

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

/** Percent agreement, Cohen's kappa and the confusion table of `pairs`. */
export function agreementOf(pairs: readonly VerdictPair[]): Agreement {
  const confusion: ConfusionTable = { bothPass: 0, humanPassJudgeFail: 0, humanFailJudgePass: 0, bothFail: 0 };
  for (const pair of pairs) {
    if (pair.human === "pass") {
      if (pair.judge === "pass") confusion.bothPass += 1;
      else confusion.humanPassJudgeFail += 1;
    } else if (pair.judge === "pass") confusion.humanFailJudgePass += 1;
    else confusion.bothFail += 1;
  }
  const n = pairs.length;
  if (n === 0) return { n, confusion, percentAgreement: null, chanceAgreement: null, kappa: null, kappaUndefinedReason: "no graded trials" };
  const observed = (confusion.bothPass + confusion.bothFail) / n;
  const humanPass = (confusion.bothPass + confusion.humanPassJudgeFail) / n;
  const judgePass = (confusion.bothPass + confusion.humanFailJudgePass) / n;
  const chance = humanPass * judgePass + (1 - humanPass) * (1 - judgePass);
  if (Math.abs(1 - chance) < 1e-12) {
    return { n, confusion, percentAgreement: observed, chanceAgreement: chance, kappa: null, kappaUndefinedReason: "both gave every trial the same verdict, so agreement by chance is 1 and κ is undefined" };
  }
  return { n, confusion, percentAgreement: observed, chanceAgreement: chance, kappa: (observed - chance) / (1 - chance), kappaUndefinedReason: null };
}
