import { describe, expect, it } from "vitest";
import { agreementOf, type VerdictPair } from "@/lib/domain/agreement";

function pairs(table: { pp: number; pf: number; fp: number; ff: number }): VerdictPair[] {
  const make = (count: number, human: VerdictPair["human"], judge: VerdictPair["judge"]) => Array.from({ length: count }, () => ({ human, judge }));
  return [...make(table.pp, "pass", "pass"), ...make(table.pf, "pass", "fail"), ...make(table.fp, "fail", "pass"), ...make(table.ff, "fail", "fail")];
}

describe("agreementOf (Cohen's kappa)", () => {
  it("matches the textbook example: 20/5/10/15 → p_o 0.7, p_e 0.5, κ 0.4", () => {
    // Wikipedia "Cohen's kappa", simple example: 50 proposals, A yes/B yes 20, A yes/B no 5, A no/B yes 10, both no 15.
    const result = agreementOf(pairs({ pp: 20, pf: 5, fp: 10, ff: 15 }));
    expect(result.n).toBe(50);
    expect(result.percentAgreement).toBeCloseTo(0.7, 12);
    expect(result.chanceAgreement).toBeCloseTo(0.5, 12);
    expect(result.kappa).toBeCloseTo(0.4, 12);
    expect(result.confusion).toEqual({ bothPass: 20, humanPassJudgeFail: 5, humanFailJudgePass: 10, bothFail: 15 });
  });

  it("second textbook table: 45/15/25/15 → p_o 0.6, p_e 0.54, κ ≈ 0.1304", () => {
    const result = agreementOf(pairs({ pp: 45, pf: 15, fp: 25, ff: 15 }));
    expect(result.percentAgreement).toBeCloseTo(0.6, 12);
    expect(result.chanceAgreement).toBeCloseTo(0.54, 12);
    expect(result.kappa).toBeCloseTo(0.06 / 0.46, 12);
  });

  it("perfect agreement is κ = 1; systematic disagreement is negative", () => {
    expect(agreementOf(pairs({ pp: 4, pf: 0, fp: 0, ff: 6 })).kappa).toBeCloseTo(1, 12);
    expect(agreementOf(pairs({ pp: 0, pf: 5, fp: 5, ff: 0 })).kappa).toBeCloseTo(-1, 12);
  });

  it("κ is undefined (null, with a reason) when both raters used one verdict only, and for no pairs", () => {
    const same = agreementOf(pairs({ pp: 7, pf: 0, fp: 0, ff: 0 }));
    expect(same.percentAgreement).toBe(1);
    expect(same.kappa).toBeNull();
    expect(same.kappaUndefinedReason).toMatch(/same verdict/);
    expect(agreementOf([])).toMatchObject({ n: 0, percentAgreement: null, kappa: null });
  });
});
