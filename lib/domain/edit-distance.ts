/**
 * Edit distance between two strings over UTF-16 code units: the fewest single-character
 * insertions, deletions and substitutions (cost 1 each) that turn `a` into `b` — Levenshtein
 * (1966) — and, with `swaps`, also swaps of two adjacent characters (cost 1): the optimal string
 * alignment distance (restricted Damerau–Levenshtein; a swapped pair is not edited again).
 *
 * A count, not a similarity score: callers compare it with a number of edits ("at most two
 * typos") or normalise it themselves. `string-similarity-js` (Dice coefficient of character
 * bigrams) answers a different question and scores a swapped pair ("memroy") far from its word.
 *
 * @example editDistance("kitten", "sitting") === 3
 * @example editDistance("memroy", "memory") === 2; editDistance("memroy", "memory", { swaps: true }) === 1
 */
export function editDistance(a: string, b: string, options: { swaps?: boolean } = {}): number {
  if (a === b) return 0;
  const swaps = options.swaps ?? false;
  // Three rows of the (|a|+1)×(|b|+1) table: two back for a swap, one back for the rest.
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (swaps && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, beforePrevious[j - 2]! + 1);
      current.push(best);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length]!;
}
