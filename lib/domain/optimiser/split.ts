import { seededUnit } from "@/lib/domain/stats/string-seed";

/**
 * The train / held-out split of an optimisation's tasks, deterministic by seed: every task gets
 * the number {@link seededUnit}(seed, task id), tasks are sorted by it and the first
 * round(fraction · n) (at least 1, and at least 1 left held out when there are 2 or more tasks) train.
 * The same tasks and seed always give the same split, in any order given; each split keeps the
 * order the tasks were given in.
 * @param trainFraction in (0, 1).
 * @throws Error for an empty task list or a fraction outside (0, 1).
 */
export function splitTasks(taskIds: readonly string[], trainFraction: number, seed: number): { train: string[]; heldOut: string[] } {
  if (taskIds.length === 0) throw new Error("There are no tasks to split.");
  if (!(trainFraction > 0 && trainFraction < 1)) throw new Error(`The train fraction must be between 0 and 1 (exclusive), not ${trainFraction}.`);
  const unique = [...new Set(taskIds)];
  const wanted = unique.length === 1 ? 1 : Math.min(unique.length - 1, Math.max(1, Math.round(trainFraction * unique.length)));
  const ranked = [...unique].sort((a, b) => seededUnit(seed, a) - seededUnit(seed, b) || a.localeCompare(b));
  const train = new Set(ranked.slice(0, wanted));
  return { train: unique.filter((id) => train.has(id)), heldOut: unique.filter((id) => !train.has(id)) };
}
