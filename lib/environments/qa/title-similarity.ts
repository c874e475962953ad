/**
 * Ranks page titles by how close they are to a failed `Search[...]` query, for the
 * `Could not find [x]. Similar: [...]` observation. The reference got this list
 * from Wikipedia's search API; offline we rank the task's own titles.
 *
 * Ranking, most important first: token overlap (Jaccard index of the word sets),
 * then normalised edit-distance similarity of the whole strings, then the
 * title's original position (so equal scores keep paragraph order: deterministic).
 * Both strings are compared case-folded and without diacritics.
 */
import { editDistance } from "@/lib/domain/edit-distance";

/** Lowercases, strips diacritics (NFD + combining marks removed) and collapses whitespace. */
export function foldForComparison(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/\s+/gu, " ")
    .trim();
}

function tokens(folded: string): Set<string> {
  return new Set(folded.split(/[^\p{L}\p{N}]+/u).filter((token) => token !== ""));
}

/** Jaccard index |A ∩ B| / |A ∪ B| of two token sets; 0 when both are empty. */
function jaccard(left: Set<string>, right: Set<string>): number {
  let shared = 0;
  for (const token of left) if (right.has(token)) shared += 1;
  const union = left.size + right.size - shared;
  return union === 0 ? 0 : shared / union;
}

export { editDistance };

/** 1 − distance / longer length, in [0, 1]; 1 for two empty strings. */
export function editSimilarity(left: string, right: string): number {
  const longer = Math.max(left.length, right.length);
  return longer === 0 ? 1 : 1 - editDistance(left, right) / longer;
}

/**
 * The `limit` titles closest to `query` (see the module comment for the order).
 * Every title is a candidate, so the list is only shorter than `limit` when
 * there are fewer titles.
 */
export function rankSimilarTitles(query: string, titles: readonly string[], limit = 5): string[] {
  const foldedQuery = foldForComparison(query);
  const queryTokens = tokens(foldedQuery);
  return titles
    .map((title, index) => {
      const folded = foldForComparison(title);
      return {
        title,
        index,
        overlap: jaccard(queryTokens, tokens(folded)),
        similarity: editSimilarity(foldedQuery, folded),
      };
    })
    .sort((a, b) => b.overlap - a.overlap || b.similarity - a.similarity || a.index - b.index)
    .slice(0, Math.max(0, limit))
    .map((entry) => entry.title);
}
