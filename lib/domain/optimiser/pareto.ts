/**
 * The Pareto front over train tasks (GEPA, Agrawal et al. 2025, §3): a candidate is on the front
 * when no other candidate is at least as good on every task and better on one. Scores are per task
 * (the share of repetitions solved), so a candidate that alone solves some task stays on the front
 * even with a lower mean: the front keeps the lessons of every candidate, not only the best average.
 */

/** A candidate as the front sees it: its key and its score per task (missing tasks count 0). */
export interface FrontEntry {
  key: string;
  scores: Readonly<Record<string, number>>;
}

/** True when `a` dominates `b` on `tasks`: ≥ on every task and > on at least one. */
export function dominates(a: FrontEntry, b: FrontEntry, tasks: readonly string[]): boolean {
  let better = false;
  for (const task of tasks) {
    const x = a.scores[task] ?? 0;
    const y = b.scores[task] ?? 0;
    if (x < y) return false;
    if (x > y) better = true;
  }
  return better;
}

/** The keys of the entries no other entry dominates, in the entries' order. Equal entries are all kept. */
export function paretoFront(entries: readonly FrontEntry[], tasks: readonly string[]): string[] {
  return entries.filter((entry) => !entries.some((other) => other !== entry && dominates(other, entry, tasks))).map((entry) => entry.key);
}

/** Mean score over `tasks` (0 for none). */
export function meanScore(entry: FrontEntry, tasks: readonly string[]): number {
  if (tasks.length === 0) return 0;
  return tasks.reduce((sum, task) => sum + (entry.scores[task] ?? 0), 0) / tasks.length;
}

/**
 * The parent of the `index`-th proposal of a round: the front sorted by mean score (best first,
 * then the later round, then key), taken in turn, so a round of several proposals mutates several
 * front members rather than the same one. Null for an empty front.
 */
export function pickParent(front: readonly FrontEntry[], tasks: readonly string[], index: number, roundOf: (key: string) => number): FrontEntry | null {
  if (front.length === 0) return null;
  const ranked = [...front].sort((a, b) => meanScore(b, tasks) - meanScore(a, tasks) || roundOf(b.key) - roundOf(a.key) || a.key.localeCompare(b.key));
  return ranked[index % ranked.length] ?? null;
}
