import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ArmResult } from "@/lib/domain/experiment";
import { armRates, coincideText, coincidentArms, finalReachedAtTrial } from "@/lib/graph/compare-arms";
import { finalBars } from "@/lib/query/overlay-series";
import { SuccessCurves } from "@/components/experiments/success-curves";

const arm = (label: string, successByTrial: number[], tasks = 12): ArmResult =>
  ({ label, strategy: "reflexion", modelId: "demo", tasks, trials: 3, successByTrial, finished: tasks }) as ArmResult;

describe("'by trial' names the trial by which the final count was reached", () => {
  it("12/12 solved at trial 2 of 3 reads 'by trial 2'", () => {
    expect(finalReachedAtTrial([8, 12, 12])).toBe(2);
    expect(finalReachedAtTrial([5, 7, 9])).toBe(3);
    expect(finalReachedAtTrial([12, 12, 12])).toBe(1);
    expect(finalReachedAtTrial([])).toBe(0);
    expect(finalReachedAtTrial([0, 0, 0])).toBe(3); // "0/3 by trial 3": nothing solved in the whole budget
    expect(armRates(arm("A", [8, 12, 12]))).toMatchObject({ lastTrial: 3, reachedAtTrial: 2 });
    const html = renderToStaticMarkup(createElement(SuccessCurves, { arms: [arm("A", [8, 12, 12])], environment: "qa" }));
    expect(html).toContain("12/12 (100%) by trial 2");
    expect(html).not.toContain("by trial 3");
  });

  it("the final bars say the same", () => {
    const bars = finalBars([{ label: "A", arm: arm("A", [8, 12, 12]), recorded: true } as Parameters<typeof finalBars>[0][number]]);
    expect(bars[0]).toMatchObject({ trials: 3, reachedAtTrial: 2 });
  });
});

describe("coinciding curves stay visible", () => {
  it("finds arms whose curves are identical and names them in the legend", () => {
    const arms = [arm("A", [6, 9, 10]), arm("B", [6, 9, 10]), arm("C", [4, 8, 10])];
    expect(coincidentArms(arms)).toEqual([[0, 1]]);
    expect(coincidentArms([arm("A", [6, 9]), arm("B", [6, 10])])).toEqual([]);
    expect(coincideText(["A", "B"])).toBe("A and B coincide");
    expect(coincideText(["A", "B", "C"])).toBe("A, B and C coincide");
    const html = renderToStaticMarkup(createElement(SuccessCurves, { arms, environment: "qa" }));
    expect(html).toMatch(/data-testid="curve-coincide-note"[^>]*>.*A and B coincide/);
    const none = renderToStaticMarkup(createElement(SuccessCurves, { arms: [arms[0]!, arms[2]!], environment: "qa" }));
    expect(none).not.toContain("curve-coincide-note");
  });
});
