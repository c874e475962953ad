import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CarriedInsights } from "@/components/memory/carried-insights";
import { emptyRunState, type RunState } from "@/lib/domain/fold-run";

function stateWith(insights: RunState["insightsCarriedIn"]): RunState {
  return { ...emptyRunState(), insightsCarriedIn: insights };
}

describe("the memory panel's ExpeL insights", () => {
  it("lists each carried insight with its experiment, model and template version", () => {
    const html = renderToStaticMarkup(
      createElement(CarriedInsights, {
        state: stateWith({
          store: "insights-qa",
          entries: [
            { itemId: "insight:a", entryId: "a", text: "Search exact page titles.", provenance: { experimentId: "exp-12345678", runIds: ["r1", "r2"], template: { id: "expel/insights", version: 1 }, model: "demo" }, createdAt: "2026-12-05T06:00:00.000Z" },
          ],
        }),
      }),
    );
    expect(html).toContain('data-count="1"');
    expect(html).toContain("insights-qa");
    expect(html).toContain("Search exact page titles.");
    expect(html).toContain('href="/experiments/exp-12345678"');
    expect(html).toContain("(2 runs)");
    expect(html).toContain("demo · expel/insights v1");
  });

  it("shows the recorded note when none was carried in, and nothing for a run that is not ExpeL", () => {
    const note = "memory store 'x' has no insights for the qa family; extract them with `cli insights extract --experiment <id> --store x`";
    const html = renderToStaticMarkup(createElement(CarriedInsights, { state: stateWith({ store: "x", entries: [], note }) }));
    expect(html).toContain("has no insights for the qa family");
    expect(html).toContain("The run goes on as Reflexion.");
    expect(renderToStaticMarkup(createElement(CarriedInsights, { state: stateWith(null) }))).toBe("");
  });
});
