import type { PairedTest } from "./template-library";

/** Name of the test {@link pairedExactTest} computes, shown next to its p-value. */
export const PAIRED_TEST_METHOD = "exact McNemar (two-sided sign test on discordant tasks)";

/**
 * log C(n, k) by summing logs (exact enough for n up to a few thousand tasks; no
 * factorial overflow).
 */
function logChoose(n: number, k: number): number {
  let sum = 0;
  for (let i = 1; i <= k; i += 1) sum += Math.log(n - k + i) - Math.log(i);
  return sum;
}

/**
 * The exact McNemar test over paired tasks (McNemar 1947; exact form: a binomial
 * sign test on the discordant pairs, e.g. Fagerland, Lydersen & Laake 2013,
 * "The McNemar test for binary matched-pairs data", BMC Med Res Methodol 13:91).
 * Under H0 (the two arms solve tasks equally often) each of the `b + c`
 * discordant tasks is solved by A only with probability ½, so
 * p = min(1, 2 · Σ_{k=0}^{min(b,c)} C(b+c, k) / 2^{b+c}). No discordant task gives p = 1.
 *
 * Published worked value (tests/domain/stats.test.ts): Armitage & Berry 1994, p. 127, b=12, c=2 →
 * P = 0.0129. Known values (tests/templates/paired-test.test.ts): b=1, c=0 → 1; b=5, c=0 → 0.0625;
 * b=6, c=0 → 0.03125; b=8, c=2 → 0.109375; b=10, c=2 → 0.0385742…
 *
 * @param n tasks with both arms ended (the sample size, reported as is).
 * @param aOnly tasks solved by A but not B (b); @param bOnly tasks solved by B but not A (c).
 */
export function pairedExactTest(n: number, aOnly: number, bOnly: number): PairedTest {
  const discordant = aOnly + bOnly;
  if (discordant === 0) return { n, aOnly, bOnly, pValue: 1, method: PAIRED_TEST_METHOD };
  const low = Math.min(aOnly, bOnly);
  let tail = 0;
  if (discordant <= 1000) {
    // P(k) by the recurrence P(k+1) = P(k)·(n−k)/(k+1) from P(0) = 2^−n: exact for small n (2^−1000 is still a normal double).
    let term = 2 ** -discordant;
    for (let k = 0; k <= low; k += 1) {
      tail += term;
      term = (term * (discordant - k)) / (k + 1);
    }
  } else {
    for (let k = 0; k <= low; k += 1) tail += Math.exp(logChoose(discordant, k) - discordant * Math.LN2);
  }
  return { n, aOnly, bOnly, pValue: Math.min(1, 2 * tail), method: PAIRED_TEST_METHOD };
}
