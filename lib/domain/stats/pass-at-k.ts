/**
 * The unbiased pass@k estimator of M. Chen et al., "Evaluating Large Language Models Trained on Code"
 * (the HumanEval paper, arXiv:2107.03374, 2021, §2.1, eq. 1): with n samples of a task of which c are
 * correct,
 *
 *   pass@k = 1 − C(n − c, k) / C(n, k),
 *
 * the probability that at least one of k samples drawn without replacement from the n is correct. The
 * benchmark's pass@k is its mean over tasks. Computed as the paper's numerically stable product
 * 1 − ∏_{i = n − c + 1}^{n} (1 − k / i) (their Figure 3), so no binomial coefficient overflows.
 *
 * Closed-form checks (tests/domain/stats.test.ts): pass@1 = c / n; n = 5, c = 2, k = 2 → 1 − 3/10 = 0.7;
 * n − c < k → 1.
 *
 * @param n samples of the task (here: repetitions of a (task, arm)), n ≥ 1.
 * @param c correct samples, 0 ≤ c ≤ n. @param k 1 ≤ k ≤ n.
 * @returns a probability in [0, 1].
 * @throws RangeError for arguments outside those ranges.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k) || n < 1 || c < 0 || c > n || k < 1 || k > n) {
    throw new RangeError(`pass@k needs whole numbers 0 ≤ c ≤ n and 1 ≤ k ≤ n (got n = ${n}, c = ${c}, k = ${k})`);
  }
  if (n - c < k) return 1;
  let product = 1;
  for (let i = n - c + 1; i <= n; i += 1) product *= 1 - k / i;
  return 1 - product;
}

/**
 * The benchmark's pass@k for each k = 1 … n: the mean of {@link passAtK} over tasks, each task with the same n samples.
 * @param correctByTask c per task; @param n samples per task.
 * @returns `[{k, value}]`, k ascending; empty when there is no task.
 */
export function passAtKCurve(correctByTask: readonly number[], n: number): Array<{ k: number; value: number }> {
  if (correctByTask.length === 0 || n < 1) return [];
  return Array.from({ length: n }, (_, index) => {
    const k = index + 1;
    return { k, value: correctByTask.reduce((sum, c) => sum + passAtK(n, c, k), 0) / correctByTask.length };
  });
}
