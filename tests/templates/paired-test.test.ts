import { describe, expect, it } from "vitest";
import { pairedExactTest } from "@/lib/domain/paired-test";

describe("pairedExactTest (exact McNemar)", () => {
  it("matches binomial tail values computed by hand", () => {
    // 2 * C(10,0..2)/2^10 = 2 * (1 + 10 + 45) / 1024
    expect(pairedExactTest(20, 8, 2).pValue).toBeCloseTo((2 * 56) / 1024, 12);
    // 2 * (1 + 12 + 66) / 4096
    expect(pairedExactTest(30, 10, 2).pValue).toBeCloseTo((2 * 79) / 4096, 12);
    expect(pairedExactTest(6, 6, 0).pValue).toBeCloseTo(0.03125, 12);
    expect(pairedExactTest(5, 0, 5).pValue).toBeCloseTo(0.0625, 12);
  });

  it("a one-task difference is no evidence: p = 1", () => {
    expect(pairedExactTest(1, 1, 0)).toMatchObject({ n: 1, aOnly: 1, bOnly: 0, pValue: 1 });
    expect(pairedExactTest(10, 0, 0).pValue).toBe(1);
    expect(pairedExactTest(10, 3, 3).pValue).toBe(1);
  });

  it("is symmetric in the arms and stays a probability for large samples", () => {
    expect(pairedExactTest(100, 30, 12).pValue).toBeCloseTo(pairedExactTest(100, 12, 30).pValue, 12);
    const large = pairedExactTest(2000, 700, 600).pValue;
    expect(large).toBeGreaterThan(0);
    expect(large).toBeLessThan(0.01);
  });
});
