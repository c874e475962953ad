import { clusteredBootstrap, DEFAULT_RESAMPLES } from "./stats/bootstrap";
import { wilsonInterval } from "./stats/wilson";

/**
 * One run of an arm as the statistics see it: its (task, repetition), the trial of its first success
 * (null: not solved), whether it ended, and its cost in USD (null: a call had no known price).
 */
export interface ArmUnit {
  taskId: string;
  repetition: number;
  solvedAtTrial: number | null;
  ended: boolean;
  costUsd: number | null;
}

/** An arm's success curve with its 95 % intervals, in tasks (the units of `successByTrial`). */
export interface SuccessCurveWithIntervals {
  /** Mean over repetitions of the tasks solved at or before trial k + 1. */
  mean: number[];
  ci: Array<[number, number]>;
  /** `wilson` with one repetition per task, `bootstrap` with more. */
  method: "wilson" | "bootstrap";
}

/** Groups units by task, in first-seen order. */
export function byTask<T extends { taskId: string }>(units: readonly T[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const unit of units) {
    const group = groups.get(unit.taskId);
    if (group) group.push(unit);
    else groups.set(unit.taskId, [unit]);
  }
  return [...groups.values()];
}

/**
 * The cumulative success curve of an arm and a 95 % interval at every trial.
 *
 * - One repetition: `mean[k]` is the count of tasks solved by trial k + 1, and the interval is
 *   Wilson's score interval of that proportion of the `tasks` (lib/domain/stats/wilson.ts), times `tasks`.
 * - Repeats: `mean[k]` is the solved units by trial k + 1 divided by `repeats`, and the interval is
 *   the percentile bootstrap over tasks and, within each, repetitions (lib/domain/stats/bootstrap.ts),
 *   times `tasks`. A percentile interval can in rare lopsided samples miss its own estimate; it is
 *   then widened to reach the estimate, so a band always contains the curve.
 *
 * @param tasks tasks of the arm (distinct task ids); @param repeats R; @param trials T.
 * @param resamples bootstrap replicates (default 2000; fewer for a preview while runs are going on).
 * @param seed the bootstrap's seed (lib/domain/stats/bootstrap.ts `BOOTSTRAP_SEED` in summaries, so the same runs always give the same interval).
 */
export function successCurveWithIntervals(units: readonly ArmUnit[], tasks: number, repeats: number, trials: number, seed: number, resamples = DEFAULT_RESAMPLES): SuccessCurveWithIntervals {
  const solvedBy = (k: number) => units.filter((unit) => unit.solvedAtTrial !== null && unit.solvedAtTrial <= k + 1).length;
  const mean = Array.from({ length: trials }, (_, k) => solvedBy(k) / Math.max(1, repeats));
  if (repeats <= 1) {
    const ci = mean.map((solved): [number, number] => {
      const [lo, hi] = wilsonInterval(Math.min(solved, tasks), tasks);
      // Scaling to tasks must not round the bound past the count itself.
      return [Math.min(lo * tasks, solved), Math.max(hi * tasks, solved)];
    });
    return { mean, ci, method: "wilson" };
  }
  const clusters = byTask(units).map((group) => group.map((unit) => Array.from({ length: trials }, (_, k) => (unit.solvedAtTrial !== null && unit.solvedAtTrial <= k + 1 ? 1 : 0))));
  const boot = clusteredBootstrap(clusters, { seed, resamples });
  const ci = mean.map((value, k): [number, number] => {
    const [lo, hi] = boot.ci[k] ?? [0, 0];
    return [Math.min(lo * tasks, value), Math.max(hi * tasks, value)];
  });
  return { mean, ci, method: "bootstrap" };
}

/**
 * The area under a run's success-by-trial curve over trials 1 … T, as a share of T: (T − s + 1) / T
 * when it first succeeded at trial s ≤ T, else 0. An arm's mean of it is the mean height of its
 * cumulative curve, so it rewards solving earlier, not only solving.
 */
export function runAuc(solvedAtTrial: number | null, trials: number): number {
  if (solvedAtTrial === null || solvedAtTrial > trials || trials < 1) return 0;
  return (trials - solvedAtTrial + 1) / trials;
}
