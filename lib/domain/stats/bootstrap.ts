import { quantileSorted } from "simple-statistics";
import { xoroshiro128plus } from "pure-rand";

/**
 * A seeded percentile bootstrap over clustered samples (B. Efron & R. J. Tibshirani, "An Introduction
 * to the Bootstrap", Chapman & Hall 1993, ch. 13, the percentile interval; two-stage resampling of
 * clusters then of units within them, A. C. Davison & D. V. Hinkley, "Bootstrap Methods and their
 * Application", CUP 1997, §3.8). Here a cluster is a task and its units are the task's repetitions,
 * so the interval reflects both the spread over tasks and the spread of a task's repetitions; with one
 * repetition per task it is the ordinary bootstrap over tasks.
 *
 * The generator is pure-rand's xoroshiro128+ from a fixed seed: the same data give the same interval
 * on every read, so a summary polled twice does not jitter.
 */

/** Resampling settings. */
export interface BootstrapOptions {
  /** Bootstrap replicates B (default {@link DEFAULT_RESAMPLES}). */
  resamples?: number;
  /** Two-sided level, in (0, 1); default 0.95. */
  confidence?: number;
  /** Seed of the generator (default {@link BOOTSTRAP_SEED}). */
  seed?: number;
}

/**
 * The seed every summary statistic uses: one constant, so the same runs give the same interval in any
 * arm or experiment (two arms with identical trial-1 results get identical trial-1 bands), and
 * `compare a b` mirrors `compare b a` exactly.
 */
export const BOOTSTRAP_SEED = 0x5eed;

/** Replicates used unless a caller says otherwise: a p-value's resolution is 1 / (B + 1) ≈ 0.0005. */
export const DEFAULT_RESAMPLES = 2000;

/**
 * Replicates of the preview a running experiment's summary shows (it is read every second while runs go
 * on; a quarter of the work). Once no run is running, the summary uses {@link DEFAULT_RESAMPLES}.
 */
export const PREVIEW_RESAMPLES = 500;

/** Per dimension: the mean over all units, and the percentile interval of the resampled means. */
export interface BootstrapResult {
  estimate: number[];
  ci: Array<[number, number]>;
  /** Units (repetitions of tasks) the estimate averages. */
  n: number;
}

/**
 * The percentile bootstrap interval of the mean of vector-valued units, clustered by task.
 * @param clusters `clusters[task][repetition]` = the unit's values (every unit the same length D); empty clusters are ignored.
 * @returns estimate and [lo, hi] per dimension; with no unit, estimates 0 and intervals [0, 0] (n = 0).
 * @throws RangeError when units differ in length.
 */
export function clusteredBootstrap(clusters: ReadonlyArray<ReadonlyArray<readonly number[]>>, options: BootstrapOptions = {}): BootstrapResult {
  const groups = clusters.filter((cluster) => cluster.length > 0);
  const dims = groups[0]?.[0]?.length ?? 0;
  for (const group of groups) for (const unit of group) if (unit.length !== dims) throw new RangeError(`every unit must have ${dims} values, one has ${unit.length}`);
  const n = groups.reduce((sum, group) => sum + group.length, 0);
  if (n === 0) return { estimate: [], ci: [], n: 0 };
  const estimate = Array.from({ length: dims }, (_, d) => groups.reduce((sum, group) => sum + group.reduce((s, unit) => s + unit[d]!, 0), 0) / n);
  const replicates = resampledMeans(groups, dims, options);
  const confidence = options.confidence ?? 0.95;
  const ci = replicates.map((values): [number, number] => {
    values.sort((a, b) => a - b);
    return [quantileSorted(values, (1 - confidence) / 2), quantileSorted(values, 1 - (1 - confidence) / 2)];
  });
  return { estimate, ci, n };
}

/** `means[d][b]`: dimension d's mean in replicate b (two-stage: tasks with replacement, then each task's repetitions). */
function resampledMeans(groups: ReadonlyArray<ReadonlyArray<readonly number[]>>, dims: number, options: BootstrapOptions): number[][] {
  const resamples = Math.max(1, Math.floor(options.resamples ?? DEFAULT_RESAMPLES));
  const rng = xoroshiro128plus(options.seed ?? BOOTSTRAP_SEED);
  // An index in [0, n): the generator's 32 bits scaled (bias below n / 2^32, nil for a few thousand tasks);
  // a summary draws millions of these on every read, so the distribution helpers' rejection loop is skipped.
  const pick = (n: number) => Math.floor(((rng.unsafeNext() >>> 0) / 4294967296) * n);
  // Each unit's values in one flat array, so the inner loop reads numbers, not nested arrays.
  const flat = groups.map((group) => Float64Array.from(group.flat()));
  const means = Array.from({ length: dims }, () => new Array<number>(resamples));
  const sums = new Float64Array(dims);
  for (let b = 0; b < resamples; b += 1) {
    sums.fill(0);
    let count = 0;
    for (let t = 0; t < groups.length; t += 1) {
      const chosen = pick(groups.length);
      const size = groups[chosen]!.length;
      const values = flat[chosen]!;
      for (let r = 0; r < size; r += 1) {
        const offset = (size === 1 ? 0 : pick(size)) * dims;
        for (let d = 0; d < dims; d += 1) sums[d]! += values[offset + d]!;
      }
      count += size;
    }
    for (let d = 0; d < dims; d += 1) means[d]![b] = sums[d]! / count;
  }
  return means;
}

/** A paired bootstrap's read-out on the mean difference A − B. */
export interface PairedBootstrapResult {
  /** Mean of the per-unit differences. */
  effect: number;
  ci: [number, number];
  /**
   * Two-sided bootstrap p-value: 2 · min(share of replicates ≤ 0, share ≥ 0), each share counted as
   * (k + 1) / (B + 1) so it is never 0, capped at 1. Identical arms (every difference 0) give 1.
   */
  p: number;
  /** Paired units (task × repetition). */
  n: number;
}

/**
 * The paired bootstrap of a mean difference: each unit is one (task, repetition) both arms ran, its
 * value `a − b`; units are resampled by task, then by repetition ({@link clusteredBootstrap}), so the
 * pairing is kept. The interval is the percentile interval of the resampled mean differences.
 * @param differences `differences[task][repetition]` = a − b for that unit.
 */
export function pairedBootstrap(differences: ReadonlyArray<readonly number[]>, options: BootstrapOptions = {}): PairedBootstrapResult {
  const groups = differences.filter((group) => group.length > 0).map((group) => group.map((value) => [value]));
  const n = groups.reduce((sum, group) => sum + group.length, 0);
  if (n === 0) return { effect: 0, ci: [0, 0], p: 1, n: 0 };
  const effect = groups.reduce((sum, group) => sum + group.reduce((s, unit) => s + unit[0]!, 0), 0) / n;
  const replicates = resampledMeans(groups, 1, options)[0]!;
  const resamples = replicates.length;
  const atMostZero = replicates.filter((value) => value <= 0).length;
  const atLeastZero = replicates.filter((value) => value >= 0).length;
  const p = Math.min(1, (2 * (Math.min(atMostZero, atLeastZero) + 1)) / (resamples + 1));
  replicates.sort((a, b) => a - b);
  const confidence = options.confidence ?? 0.95;
  const ci: [number, number] = [quantileSorted(replicates, (1 - confidence) / 2), quantileSorted(replicates, 1 - (1 - confidence) / 2)];
  return { effect, ci, p, n };
}
