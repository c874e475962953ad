import { xoroshiro128plus } from "pure-rand";

/**
 * The paired sign-flip (randomisation) test of a mean difference (R. A. Fisher, "The Design of
 * Experiments", 1935, §21; P. Good, "Permutation, Parametric and Bootstrap Tests of Hypotheses",
 * Springer 2005, §3.1). Under the null hypothesis that the two arms are exchangeable, each task's
 * difference is as likely to have either sign, so the observed total is compared with the totals of
 * every sign pattern. A task's repetitions are flipped together (the task is the unit of exchange),
 * which keeps the pairing and the within-task dependence.
 *
 * Why not the bootstrap's own p: a percentile bootstrap over 3 tasks that all differ by the same
 * amount gives an interval of width 0 and p < 0.001, while only 2 of the 8 sign patterns are as
 * extreme — the test's exact p is 0.25. The sign-flip p never claims more than the number of tasks
 * allows (the smallest two-sided p over k tasks is 2 / 2^k).
 */

/** Tasks up to which every sign pattern is enumerated (2^16 = 65,536 patterns); above it, seeded Monte Carlo. */
export const EXACT_SIGN_FLIP_TASKS = 16;

/** Options of {@link signFlipTest}. */
export interface SignFlipOptions {
  /** Random sign patterns drawn above {@link EXACT_SIGN_FLIP_TASKS} tasks (default 2000). */
  resamples?: number;
  /** Seed of pure-rand's xoroshiro128+ for those draws (default 0x5eed). */
  seed?: number;
}

/** The test's read-out. */
export interface SignFlipResult {
  /** Two-sided p: the share of sign patterns whose |total| is at least the observed |total|; 1 when nothing differs. */
  p: number;
  /** True when every pattern was enumerated; false for the Monte Carlo estimate ((hits + 1) / (B + 1), never 0). */
  exact: boolean;
  /** Tasks with a non-zero total difference (tasks whose total is 0 contribute nothing to any pattern). */
  tasks: number;
}

/**
 * Two-sided paired sign-flip test.
 * @param differences `differences[task][repetition]` = a − b for that unit (as the paired bootstrap takes them).
 */
export function signFlipTest(differences: ReadonlyArray<readonly number[]>, options: SignFlipOptions = {}): SignFlipResult {
  const totals = differences.map((group) => group.reduce((sum, value) => sum + value, 0)).filter((total) => Math.abs(total) > 1e-12);
  if (totals.length === 0) return { p: 1, exact: true, tasks: 0 };
  const observed = Math.abs(totals.reduce((sum, value) => sum + value, 0));
  // Patterns at least as extreme: |Σ s_i t_i| ≥ |Σ t_i|, with a tolerance for float sums.
  const atLeast = (total: number) => Math.abs(total) >= observed - 1e-9 * Math.max(1, observed);
  if (totals.length <= EXACT_SIGN_FLIP_TASKS) {
    const patterns = 2 ** totals.length;
    let hits = 0;
    for (let pattern = 0; pattern < patterns; pattern += 1) {
      let total = 0;
      for (let i = 0; i < totals.length; i += 1) total += pattern & (1 << i) ? -totals[i]! : totals[i]!;
      if (atLeast(total)) hits += 1;
    }
    return { p: Math.min(1, hits / patterns), exact: true, tasks: totals.length };
  }
  const resamples = Math.max(1, Math.floor(options.resamples ?? 2000));
  const rng = xoroshiro128plus(options.seed ?? 0x5eed);
  let hits = 0;
  for (let draw = 0; draw < resamples; draw += 1) {
    let total = 0;
    for (let i = 0; i < totals.length; i += 1) total += (rng.unsafeNext() & 1) === 1 ? -totals[i]! : totals[i]!;
    if (atLeast(total)) hits += 1;
  }
  return { p: Math.min(1, (hits + 1) / (resamples + 1)), exact: false, tasks: totals.length };
}
