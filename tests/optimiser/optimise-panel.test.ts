import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { OptimisationView, OptimisePanel } from "@/components/experiments/optimise-panel";
import { optimisationKeys } from "@/lib/query/optimisation-queries";
import { makeOptimisationRecord } from "./optimisation-store-contract";

const textOf = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&").replace(/\s+/g, " ");
const render = (client: QueryClient, element: ReactElement) => renderToStaticMarkup(createElement(QueryClientProvider, { client }, element));

describe("the optimise panel", () => {
  const record = makeOptimisationRecord({ status: "budget-spent", detail: "Budget exhausted: 6,000 tokens used of 5,000." });
  const start = record.candidates[0]!;
  const withCandidates = {
    ...record,
    candidates: [
      { ...start, heldOut: { rate: 0, interval: [0, 0.49] as [number, number], n: 4, repeats: 1 } },
      { ...start, key: "1:0", round: 1, versionId: "tv-00000000000000a1", parentId: start.versionId, train: { rate: 1, interval: [0.51, 1] as [number, number], n: 4, repeats: 1 }, heldOut: { rate: 1, interval: [0.51, 1] as [number, number], n: 4, repeats: 1 }, parentHeldOut: { rate: 0, interval: [0, 0.49] as [number, number], n: 4, repeats: 1 }, pVsParent: 0.125 },
      { ...start, key: "1:1", round: 1, index: 1, versionId: null, parentId: start.versionId, status: "failed" as const, error: "The model's reply has no template between <template> and </template>.", train: null, onFront: false },
    ],
  };

  it("lists each candidate with its parent, train and held-out scores with intervals and p, a failed one with its reason, and Resume when the budget stopped it", () => {
    const html = render(new QueryClient(), createElement(OptimisationView, { record: withCandidates }));
    const text = textOf(html);
    expect(html).toContain('data-status="budget-spent"');
    expect(text).toContain("tv-00000000000000a1 ← tv-0000000000000001");
    expect(text).toContain("100 % [51 %, 100 %] vs 0 % [0 %, 49 %], p = 0.13");
    expect(text).toContain("no template between <template> and </template>");
    expect(html).toContain('data-testid="optimisation-resume"');
    expect(html).toContain(`href="/templates/${encodeURIComponent(record.request.targetTemplateId)}"`);
  });

  it("on an experiment's page shows that experiment's newest optimisation and labels the demo a scripted stand-in", () => {
    const client = new QueryClient();
    client.setQueryData(optimisationKeys.list(), [withCandidates, { ...withCandidates, id: "opt-other", request: { ...withCandidates.request, experimentId: "exp-other" } }]);
    const html = render(client, createElement(OptimisePanel, { experimentId: record.request.experimentId, usesDemo: true }));
    expect(html).toContain('data-testid="optimise-demo-notice"');
    expect(textOf(html)).toContain("scripted stand-in");
    expect(html).toContain(record.id);
    expect(html).not.toContain("opt-other");
    const none = render(new QueryClient(), createElement(OptimisePanel, { experimentId: "exp-none", usesDemo: false }));
    expect(none).not.toContain('data-testid="optimisation"');
    expect(none).not.toContain("optimise-demo-notice");
  });
});
