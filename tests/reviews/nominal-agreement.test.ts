import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agreementOf, nominalAgreement, type RatedPair, type VerdictPair } from "@/lib/domain/agreement";

/** The pairs behind a k × k table: `table[i][j]` items rated `labels[i]` by A and `labels[j]` by B. */
function pairsOf(labels: readonly string[], table: readonly (readonly number[])[]): RatedPair[] {
  return table.flatMap((row, i) => row.flatMap((count, j) => Array.from({ length: count }, () => ({ a: labels[i]!, b: labels[j]! }))));
}

describe("nominalAgreement (Cohen's κ over k categories)", () => {
  it("k = 3: the two psychiatrists' diagnoses of 100 patients → p_o 0.89, p_e 0.66, κ ≈ 0.68", () => {
    // Fleiss, Levin & Paik, Statistical Methods for Rates and Proportions, 3rd ed. (2003), §18.1, Table 18.1.
    // Rows: rater A; columns: rater B; categories psychotic / neurotic / organic.
    //   75  1  4 | 80
    //    5  4  1 | 10
    //    0  0 10 | 10
    //   80  5 15 | 100
    // By hand: p_o = (75 + 4 + 10) / 100 = 0.89; p_e = 0.80·0.80 + 0.10·0.05 + 0.10·0.15 = 0.66;
    // κ = (0.89 − 0.66) / (1 − 0.66) = 0.23 / 0.34 ≈ 0.6765.
    const result = nominalAgreement(pairsOf(["psychotic", "neurotic", "organic"], [[75, 1, 4], [5, 4, 1], [0, 0, 10]]));
    expect(result.n).toBe(100);
    expect(result.percentAgreement).toBeCloseTo(0.89, 12);
    expect(result.chanceAgreement).toBeCloseTo(0.66, 12);
    expect(result.kappa).toBeCloseTo(0.23 / 0.34, 12);
    expect(result.kappaUndefinedReason).toBeNull();
  });

  it("k = 3 with a label only one rater used: it adds to n and p_o's denominator, nothing to p_e", () => {
    // A: good good vague wrong; B: good vague vague good. p_o = 2/4; p_e = (2/4)(2/4) + (1/4)(2/4) + (1/4)(0) = 0.375.
    const result = nominalAgreement([{ a: "good", b: "good" }, { a: "good", b: "vague" }, { a: "vague", b: "vague" }, { a: "wrong", b: "good" }]);
    expect(result.percentAgreement).toBe(0.5);
    expect(result.chanceAgreement).toBeCloseTo(0.375, 12);
    expect(result.kappa).toBeCloseTo(0.125 / 0.625, 12);
  });

  it("does not depend on the labels' names or the order of the pairs", () => {
    const base = pairsOf(["x", "y", "z"], [[3, 1, 0], [2, 5, 1], [0, 1, 4]]);
    const renamed = base.map((pair) => ({ a: `l-${pair.a}`, b: `l-${pair.b}` })).reverse();
    expect(nominalAgreement(renamed)).toEqual(nominalAgreement(base));
  });

  it("κ is undefined (null, with a reason) when both raters used one label only, and for no pairs", () => {
    const same = nominalAgreement([{ a: "tie", b: "tie" }, { a: "tie", b: "tie" }]);
    expect(same).toMatchObject({ n: 2, percentAgreement: 1, kappa: null });
    expect(same.kappaUndefinedReason).toMatch(/same single label/);
    expect(nominalAgreement([], "items")).toMatchObject({ n: 0, percentAgreement: null, kappa: null, kappaUndefinedReason: "no rated items" });
  });

  it("agreementOf (the judge page's pass/fail) is nominalAgreement over pass/fail, equal to the 2 × 2 closed form", () => {
    const verdict = fc.constantFrom<"pass" | "fail">("pass", "fail");
    fc.assert(
      fc.property(fc.array(fc.record({ human: verdict, judge: verdict }), { maxLength: 60 }), (pairs: VerdictPair[]) => {
        const result = agreementOf(pairs);
        const nominal = nominalAgreement(pairs.map((pair) => ({ a: pair.human, b: pair.judge })));
        expect(result.kappa).toBe(nominal.kappa);
        expect(result.percentAgreement).toBe(nominal.percentAgreement);
        if (pairs.length === 0) return;
        // The 2 × 2 closed form the judge page used before: p_e = h·j + (1 − h)(1 − j).
        const n = pairs.length;
        const h = pairs.filter((pair) => pair.human === "pass").length / n;
        const j = pairs.filter((pair) => pair.judge === "pass").length / n;
        expect(result.chanceAgreement).toBeCloseTo(h * j + (1 - h) * (1 - j), 12);
      }),
    );
  });
});
