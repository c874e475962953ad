import { errorFunction, probit } from "simple-statistics";

/**
 * The Wilson score interval for a binomial proportion (E. B. Wilson, "Probable inference, the law of
 * succession, and statistical inference", JASA 22:209–212, 1927; without continuity correction, as in
 * R. G. Newcombe, "Two-sided confidence intervals for the single proportion: comparison of seven
 * methods", Statistics in Medicine 17:857–872, 1998, method 3):
 *
 *   centre = (p̂ + z²/2n) / (1 + z²/n),  half = z/(1 + z²/n) · √(p̂(1 − p̂)/n + z²/4n²),
 *
 * with p̂ = successes / n and z the standard normal's 1 − (1 − confidence)/2 quantile (1.95996… for 95 %).
 * Unlike the Wald interval it stays inside [0, 1] and is not empty at 0 or n successes.
 *
 * Newcombe's worked values (Table II, method 3): 81/263 → [0.2553, 0.3662]; 15/148 → [0.0624, 0.1605];
 * 0/20 → [0, 0.1611]; 1/29 → [0.0061, 0.1718] (tests/domain/stats.test.ts).
 *
 * @param successes whole number, 0 ≤ successes ≤ n.
 * @param n trials (tasks); 0 gives the uninformative [0, 1].
 * @param confidence in (0, 1), default 0.95.
 * @returns [lo, hi] as proportions in [0, 1].
 * @throws RangeError for successes outside [0, n] or a confidence outside (0, 1).
 */
export function wilsonInterval(successes: number, n: number, confidence = 0.95): [number, number] {
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1), not ${confidence}`);
  if (n < 0 || successes < 0 || successes > n) throw new RangeError(`successes must be in [0, n]: ${successes} of ${n}`);
  if (n === 0) return [0, 1];
  const z = zQuantile(confidence);
  const p = successes / n;
  const z2n = (z * z) / n;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z / (1 + z2n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  // At 0 and n successes the bounds are exactly 0 and 1; rounding must not move them inside.
  return [successes === 0 ? 0 : Math.max(0, centre - half), successes === n ? 1 : Math.min(1, centre + half)];
}

/**
 * The two-sided standard normal quantile for `confidence` (1.959964 for 0.95): simple-statistics'
 * `probit` (a table-based start, off by ~3e-3) refined by three Newton steps on Φ(z) = ½(1 + erf(z/√2))
 * with its `errorFunction` (accurate to ~1e-7), which brings it to ~1e-7.
 */
export function zQuantile(confidence: number): number {
  const target = 1 - (1 - confidence) / 2;
  let z = probit(target);
  for (let step = 0; step < 3; step += 1) {
    const cdf = 0.5 * (1 + errorFunction(z / Math.SQRT2));
    const density = Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI);
    z -= (cdf - target) / density;
  }
  return z;
}
