import { describe, expect, it } from "vitest";
import { pairedExactTest } from "@/lib/domain/paired-test";
import { clusteredBootstrap, pairedBootstrap } from "@/lib/domain/stats/bootstrap";
import { signFlipTest } from "@/lib/domain/stats/sign-flip";
import { passAtK, passAtKCurve } from "@/lib/domain/stats/pass-at-k";
import { pValueText } from "@/lib/domain/stats/p-value";
import { seededUnit, stringSeed } from "@/lib/domain/stats/string-seed";
import { wilsonInterval, zQuantile } from "@/lib/domain/stats/wilson";

/** C(n, k) by the multiplicative formula (exact for the small n used here). */
function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let value = 1;
  for (let i = 1; i <= k; i += 1) value = (value * (n - k + i)) / i;
  return value;
}

describe("Wilson score interval", () => {
  it("matches Newcombe (1998), Table II, method 3, to four decimals", () => {
    const cases: Array<[number, number, number, number]> = [
      [81, 263, 0.2553, 0.3662],
      [15, 148, 0.0624, 0.1605],
      [0, 20, 0, 0.1611],
      [1, 29, 0.0061, 0.1718],
    ];
    for (const [x, n, lo, hi] of cases) {
      const [a, b] = wilsonInterval(x, n);
      expect(a).toBeCloseTo(lo, 4);
      expect(b).toBeCloseTo(hi, 4);
    }
  });

  it("uses z = 1.959964 for 95 %, contains the estimate, and says nothing without data", () => {
    expect(zQuantile(0.95)).toBeCloseTo(1.959964, 5);
    for (let x = 0; x <= 12; x += 1) {
      const [lo, hi] = wilsonInterval(x, 12);
      expect(lo).toBeLessThanOrEqual(x / 12);
      expect(hi).toBeGreaterThanOrEqual(x / 12);
    }
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
  });
});

describe("exact McNemar", () => {
  it("matches Armitage & Berry (1994, p. 127)'s worked example: two culture media on 50 specimens, 12 vs 2 discordant → exact two-sided P = 0.0129", () => {
    // As worked in the StatsDirect manual (exact test after Liddell 1983): 2 · (C(14,0) + C(14,1) + C(14,2)) / 2^14 = 212/16384.
    const test = pairedExactTest(50, 12, 2);
    expect(test.pValue).toBeCloseTo(212 / 16384, 12);
    expect(Number(test.pValue.toFixed(4))).toBe(0.0129);
  });
});

describe("pass@k (Chen et al. 2021)", () => {
  it("equals the closed form 1 − C(n−c, k)/C(n, k) for every small n, c, k", () => {
    for (let n = 1; n <= 8; n += 1) {
      for (let c = 0; c <= n; c += 1) {
        for (let k = 1; k <= n; k += 1) expect(passAtK(n, c, k)).toBeCloseTo(1 - choose(n - c, k) / choose(n, k), 12);
      }
    }
    expect(passAtK(5, 2, 2)).toBeCloseTo(0.7, 12);
    expect(passAtK(10, 3, 1)).toBeCloseTo(0.3, 12);
    expect(passAtK(3, 1, 3)).toBe(1);
  });

  it("averages over tasks and refuses impossible arguments", () => {
    expect(passAtKCurve([0, 3], 3)).toEqual([
      { k: 1, value: 0.5 },
      { k: 2, value: 0.5 },
      { k: 3, value: 0.5 },
    ]);
    expect(passAtKCurve([1], 2).map((entry) => entry.value)).toEqual([0.5, 1]);
    expect(() => passAtK(3, 4, 1)).toThrow(RangeError);
    expect(() => passAtK(3, 1, 4)).toThrow(RangeError);
  });
});

describe("p-values in words", () => {
  it("never prints 'p = < 0.001'", () => {
    expect(pValueText(7e-9)).toBe("p < 0.001");
    expect(pValueText(0.0312)).toBe("p = 0.031");
    expect(pValueText(1)).toBe("p = 1");
    expect(pValueText(0.62)).toBe("p = 0.62");
  });
});

describe("bootstrap", () => {
  it("is seeded: the same data give the same interval; another seed may not", () => {
    const clusters = Array.from({ length: 20 }, (_, i) => [[i % 3 === 0 ? 1 : 0]]);
    const a = clusteredBootstrap(clusters, { seed: 1 });
    expect(clusteredBootstrap(clusters, { seed: 1 })).toEqual(a);
    expect(a.estimate[0]).toBeCloseTo(7 / 20, 12);
    expect(a.ci[0]![0]).toBeLessThan(7 / 20);
    expect(a.ci[0]![1]).toBeGreaterThan(7 / 20);
  });

  it("agrees with the normal approximation for a large sample of a proportion", () => {
    // 400 tasks, 120 solved: the standard error is √(0.3 · 0.7 / 400) ≈ 0.0229, so the 95 % interval ≈ 0.3 ± 0.045.
    const clusters = Array.from({ length: 400 }, (_, i) => [[i < 120 ? 1 : 0]]);
    const [lo, hi] = clusteredBootstrap(clusters, { seed: 3 }).ci[0]!;
    expect(lo).toBeGreaterThan(0.25);
    expect(lo).toBeLessThan(0.265);
    expect(hi).toBeGreaterThan(0.335);
    expect(hi).toBeLessThan(0.35);
  });

  it("paired: identical arms give effect 0, interval [0, 0] and p = 1; a consistent gap gives a small p", () => {
    expect(pairedBootstrap([[0, 0], [0, 0], [0, 0]])).toMatchObject({ effect: 0, ci: [0, 0], p: 1, n: 6 });
    const gap = pairedBootstrap(Array.from({ length: 15 }, (_, i) => [i < 12 ? -1 : 0, -1]));
    expect(gap.effect).toBeCloseTo(-27 / 30, 12);
    expect(gap.ci[1]).toBeLessThan(0);
    expect(gap.p).toBeLessThan(0.01);
    expect(pairedBootstrap([])).toMatchObject({ n: 0, p: 1 });
  });
});

describe("seeded draws", () => {
  it("are fixed by seed and key, in [0, 1), and spread", () => {
    expect(stringSeed("abc")).toBe(stringSeed("abc"));
    expect(seededUnit(1, "x")).toBe(seededUnit(1, "x"));
    const draws = Array.from({ length: 3000 }, (_, i) => seededUnit(i, "task"));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    const share = draws.filter((value) => value < 1 / 3).length / draws.length;
    expect(share).toBeGreaterThan(0.3);
    expect(share).toBeLessThan(0.37);
  });
});

describe("paired sign-flip test", () => {
  it("three tasks that all differ by the same amount: exact p = 2/8, not the degenerate bootstrap's p < 0.001", () => {
    const differences = [[-2 / 3], [-2 / 3], [-2 / 3]];
    expect(signFlipTest(differences)).toEqual({ p: 0.25, exact: true, tasks: 3 });
    expect(pairedBootstrap(differences).p).toBeLessThan(0.001);
  });

  it("identical arms give p = 1; a task's repetitions flip together; zero-total tasks drop out", () => {
    expect(signFlipTest([[0, 0], [0, 0]])).toEqual({ p: 1, exact: true, tasks: 0 });
    // Task totals 2, 2, 0 (the third task's repetitions cancel): 2 of 4 patterns reach |4|.
    expect(signFlipTest([[1, 1], [1, 1], [1, -1]])).toEqual({ p: 0.5, exact: true, tasks: 2 });
  });

  it("a consistent gap over many tasks is significant; above 16 tasks the p is a seeded Monte Carlo estimate", () => {
    const twelve = signFlipTest(Array.from({ length: 12 }, () => [-1]));
    expect(twelve.p).toBeCloseTo(2 / 4096, 12);
    const many = signFlipTest(Array.from({ length: 40 }, (_, i) => [i % 5 === 0 ? 1 : -1]));
    expect(many.exact).toBe(false);
    expect(many.p).toBeLessThan(0.01);
    expect(signFlipTest(Array.from({ length: 40 }, (_, i) => [i % 5 === 0 ? 1 : -1])).p).toBe(many.p);
  });
});
