import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { editDistance } from "@/lib/domain/edit-distance";
import { likelyMeant } from "@/lib/domain/template-check";

/** The textbook full-table Levenshtein / optimal-string-alignment recurrence, as an oracle. */
function tableDistance(a: string, b: string, swaps: boolean): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (swaps && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

describe("editDistance", () => {
  it("counts insertions, deletions and substitutions (Levenshtein)", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("abc", "")).toBe(3);
    expect(editDistance("Orrel", "Orrel")).toBe(0);
  });

  it("counts a swap of two adjacent characters as one edit only with swaps", () => {
    expect(editDistance("memroy", "memory")).toBe(2);
    expect(editDistance("memroy", "memory", { swaps: true })).toBe(1);
    // Optimal string alignment: a swapped pair is not edited again ("ca" → "ac" → "abc" is not 2).
    expect(editDistance("ca", "abc", { swaps: true })).toBe(3);
  });

  it("agrees with the full-table recurrence on random strings, with and without swaps", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", "c", "é", "\u{1F600}"), maxLength: 9 });
    fc.assert(
      fc.property(text, text, fc.boolean(), (a, b, swaps) => {
        expect(editDistance(a, b, { swaps })).toBe(tableDistance(a, b, swaps));
      }),
    );
  });

  it("is the distance likelyMeant uses: at most two edits, swaps included, case ignored", () => {
    const known = ["memory", "question", "scratchpad"];
    expect(likelyMeant("memroy", known)).toBe("memory");
    expect(likelyMeant("QUESTOIN", known)).toBe("question");
    expect(likelyMeant("scrtchpda", known)).toBe("scratchpad");
    expect(likelyMeant("skrtchpda", known)).toBeNull();
  });
});
