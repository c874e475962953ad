import { describe, expect, it } from "vitest";
import { datasetDifference } from "@/lib/domain/dataset-pin";
import { cellArmKey, parseCellArmKey, repetitionCacheScope, repetitionSeed } from "@/lib/domain/experiment-cells";
import { runAuc, successCurveWithIntervals, type ArmUnit } from "@/lib/domain/experiment-intervals";
import { latexEscape } from "@/lib/domain/experiment-tables";
import { compareArms } from "@/lib/domain/experiment-tests";
import { pairedExactTest } from "@/lib/domain/paired-test";
import { wilsonInterval } from "@/lib/domain/stats/wilson";
import { pairedTestSentence } from "@/lib/query/template-library-view";

const unit = (taskId: string, repetition: number, solvedAtTrial: number | null, costUsd: number | null = 0): ArmUnit => ({ taskId, repetition, solvedAtTrial, ended: true, costUsd });

describe("cells and repetitions", () => {
  it("stores repetition 1 under the bare label (experiments before repeats read unchanged) and reads every key back", () => {
    expect(cellArmKey("reflexion", 1)).toBe("reflexion");
    for (const [label, repetition] of [["reflexion", 1], ["reflexion", 7], ["a\u001f2", 3]] as const) {
      expect(parseCellArmKey(cellArmKey(label, repetition), [label])).toEqual({ arm: label, repetition });
    }
    expect(repetitionCacheScope("e1", 1)).toBe("e1");
    expect(repetitionCacheScope("e1", 2)).toBe("e1/r2");
    expect([repetitionSeed(undefined, 1, 1), repetitionSeed(undefined, 3, 3), repetitionSeed(10, 2, 1)]).toEqual([undefined, 2, 11]);
  });
});

describe("intervals of a curve", () => {
  it("one repetition: Wilson's interval of the solved share, in tasks", () => {
    const units = [unit("a", 1, 1), unit("b", 1, 2), unit("c", 1, null), unit("d", 1, null)];
    const curve = successCurveWithIntervals(units, 4, 1, 3, 1);
    expect(curve.method).toBe("wilson");
    expect(curve.mean).toEqual([1, 2, 2]);
    const [lo, hi] = wilsonInterval(2, 4);
    expect(curve.ci[1]![0]).toBeCloseTo(lo * 4, 12);
    expect(curve.ci[1]![1]).toBeCloseTo(hi * 4, 12);
  });

  it("repeats: the mean over repetitions, inside a bootstrap band", () => {
    const units = ["a", "b", "c"].flatMap((task, i) => [1, 2].map((repetition) => unit(task, repetition, (i + repetition) % 3 === 0 ? null : repetition)));
    const curve = successCurveWithIntervals(units, 3, 2, 2, 5);
    expect(curve.method).toBe("bootstrap");
    expect(curve.mean[1]).toBeCloseTo(units.filter((u) => u.solvedAtTrial !== null).length / 2, 12);
    curve.mean.forEach((mean, k) => {
      expect(curve.ci[k]![0]).toBeLessThanOrEqual(mean);
      expect(curve.ci[k]![1]).toBeGreaterThanOrEqual(mean);
    });
  });

  it("AUC is the mean height of the cumulative curve", () => {
    expect(runAuc(1, 4)).toBe(1);
    expect(runAuc(2, 4)).toBe(0.75);
    expect(runAuc(null, 4)).toBe(0);
    expect(runAuc(5, 4)).toBe(0);
  });
});

describe("paired tests", () => {
  it("counts the discordant pairs per (task, repetition) and reports McNemar's exact p", () => {
    const a = { label: "none", trials: 3, units: ["t1", "t2", "t3", "t4", "t5", "t6"].map((task) => unit(task, 1, task === "t1" ? 1 : null, 0.01)) };
    const b = { label: "reflexion", trials: 3, units: ["t1", "t2", "t3", "t4", "t5", "t6"].map((task) => unit(task, 1, task === "t1" ? 1 : 2, 0.03)) };
    const [success, auc, cost] = compareArms(a, b);
    expect(success).toMatchObject({ metric: "final-success", n: 6, aOnly: 0, bOnly: 5, p: pairedExactTest(6, 0, 5).pValue, differs: false });
    expect(success!.p).toBeCloseTo(0.0625, 12);
    expect(success!.effect).toBeCloseTo(-5 / 6, 12);
    expect(auc!.effect).toBeCloseTo(-((5 * 2) / 3) / 6, 12);
    expect(cost).toMatchObject({ metric: "cost", n: 6, differs: true });
    expect(cost!.effect).toBeCloseTo(-0.02, 12);
  });

  it("leaves unpriced and unfinished runs out of the pairs", () => {
    const a = { label: "a", trials: 2, units: [unit("t1", 1, 1, null), { ...unit("t2", 1, null), ended: false }] };
    const b = { label: "b", trials: 2, units: [unit("t1", 1, 1), unit("t2", 1, 1)] };
    const [success, , cost] = compareArms(a, b);
    expect(success!.n).toBe(1);
    expect(cost).toMatchObject({ n: 0, p: 1, differs: false });
  });

  it("the A/B sentence prints p < 0.001, never p = < 0.001", () => {
    const sentence = pairedTestSentence(pairedExactTest(30, 0, 20));
    expect(sentence).toContain("p < 0.001");
    expect(sentence).not.toContain("p = <");
  });
});

describe("dataset pins and LaTeX", () => {
  it("names the tasks that changed, went missing or are new", () => {
    const pinned = { hash: "a".repeat(64), tasks: 2, taskHashes: { x: "1", y: "2" } };
    expect(datasetDifference(pinned, pinned)).toBeNull();
    expect(datasetDifference(pinned, { hash: "b".repeat(64), tasks: 2, taskHashes: { x: "1", y: "3", z: "4" } })).toBe("tasks 1 changed (y), 1 new (z); pinned aaaaaaaaaaaa, now bbbbbbbbbbbb");
  });

  it("escapes LaTeX's special characters", () => {
    expect(latexEscape("a_b & 50% $x #1 {y} ~ ^ \\")).toBe("a\\_b \\& 50\\% \\$x \\#1 \\{y\\} \\textasciitilde{} \\textasciicircum{} \\textbackslash{}");
  });
});
