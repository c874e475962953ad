import { ReactFlowProvider } from "@xyflow/react";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { LineageNode } from "@/lib/domain/template-lineage";
import { LineageActionsContext, LineageVersionNode, type LineageActions } from "@/components/templates/lineage-node";
import { staticNodeProps } from "../helpers/render-node";

const version = (extra: Partial<LineageNode> = {}): LineageNode => ({
  versionId: "tv-0000000000000003",
  parentId: "tv-0000000000000001",
  number: 3,
  message: "name the failing step",
  createdAt: "2026-12-01T12:00:00.000Z",
  labels: ["accepted"],
  score: null,
  ...extra,
});

function render(node: LineageNode, actions: Partial<LineageActions> = {}): string {
  const props: Parameters<typeof LineageVersionNode>[0] = staticNodeProps({
    id: node.versionId,
    type: "version" as const,
    data: { version: node, versionId: node.versionId, hasParent: node.parentId !== null, isRoot: false },
  });
  const value: LineageActions = { diff: () => {}, accept: () => {}, acceptLabel: "accepted", accepting: null, ...actions };
  return renderToStaticMarkup(createElement(ReactFlowProvider, null, createElement(LineageActionsContext.Provider, { value }, createElement(LineageVersionNode, props))));
}

describe("a lineage node", () => {
  it("shows the held-out score with its interval, p against the parent, cost, and the Pareto-front marker", () => {
    const html = render(
      version({
        labels: [],
        score: { optimisationId: "opt-1", round: 2, train: null, heldOut: { rate: 0.75, interval: [0.53, 0.89], n: 20, repeats: 1 }, pVsParent: 0.031, onFront: true, costUsd: 0.0123, tokens: 45_210, failuresRead: ["run-1#1"] },
      }),
    );
    expect(html).toContain("v3");
    expect(html).toContain("name the failing step");
    expect(html).toContain("75 % [53–89 %] held-out, n = 20");
    expect(html).toContain("p = 0.031 vs parent");
    expect(html).toContain("$0.0123 · 45,210 tokens");
    expect(html).toContain('data-testid="lineage-front"');
    expect(html).toContain('data-on-front="true"');
    expect(html).toContain("Diff against parent");
    expect(html).toMatch(/data-testid="lineage-accept"[^>]*>Accept</);
  });

  it("says 'not measured' without a score, marks the accepted label and disables Accept on the accepted version", () => {
    const html = render(version());
    expect(html).toContain(">not measured<");
    expect(html).not.toContain("lineage-front");
    expect(html).toMatch(/data-testid="lineage-label"[^>]*>accepted</);
    expect(html).toMatch(/disabled=""[^>]*data-testid="lineage-accept"|data-testid="lineage-accept"[^>]*disabled=""/);
    expect(html).toContain(">Accepted<");
  });
});
