import { describe, expect, it } from "vitest";
import type { LineageNode } from "@/lib/domain/template-lineage";
import { LINEAGE_NODE_HEIGHT, layoutLineage, lineageScoreText } from "@/lib/graph/lineage-layout";

const node = (versionId: string, number: number, parentId: string | null, extra: Partial<LineageNode> = {}): LineageNode => ({
  versionId,
  parentId,
  number,
  message: `v${number}`,
  createdAt: "2026-01-01T00:00:00.000Z",
  labels: [],
  score: null,
  ...extra,
});

describe("layoutLineage", () => {
  it("draws parents above their children, siblings side by side, one edge per parent link", () => {
    const layout = layoutLineage([node("c", 3, "a"), node("b", 2, "a"), node("a", 1, null), node("d", 4, "b")]);
    const at = new Map(layout.nodes.map((placed) => [placed.id, placed]));
    expect(layout.edges.map((edge) => `${edge.source}->${edge.target}`).sort()).toEqual(["a->b", "a->c", "b->d"]);
    expect(at.get("b")!.y).toBeGreaterThanOrEqual(at.get("a")!.y + LINEAGE_NODE_HEIGHT);
    expect(at.get("b")!.y).toBe(at.get("c")!.y);
    expect(Math.abs(at.get("b")!.x - at.get("c")!.x)).toBeGreaterThanOrEqual(at.get("b")!.width);
    expect(at.get("d")!.y).toBeGreaterThan(at.get("b")!.y);
    expect(layout.nodes.map((placed) => [placed.id, placed.depth])).toEqual([["a", 0], ["b", 1], ["c", 1], ["d", 2]]);
  });

  it("adds a stand-in for a parent in another template (the built-in edited from) and survives a cycle", () => {
    const layout = layoutLineage([node("mine-1", 1, "tv-builtin"), node("mine-2", 2, "mine-1")]);
    expect(layout.nodes[0]).toMatchObject({ id: "tv-builtin", version: null, depth: 0 });
    expect(layout.edges.map((edge) => edge.id)).toEqual(["tv-builtin->mine-1", "mine-1->mine-2"]);

    const cyclic = layoutLineage([node("x", 1, "y"), node("y", 2, "x")]);
    expect(cyclic.nodes).toHaveLength(2);
    expect(cyclic.edges).toHaveLength(1);
  });

  it("one version: one node, no edge", () => {
    const layout = layoutLineage([node("only", 1, null)]);
    expect(layout.nodes).toHaveLength(1);
    expect(layout.edges).toEqual([]);
  });
});

describe("lineageScoreText", () => {
  it("reads a held-out rate with its interval, and says when nothing was measured", () => {
    const score = { optimisationId: "opt-1", round: 1, train: null, heldOut: { rate: 0.625, interval: [0.47, 0.76] as [number, number], n: 40, repeats: 3 }, pVsParent: 0.04, onFront: true, costUsd: 0, tokens: 10, failuresRead: [] };
    expect(lineageScoreText(node("a", 1, null, { score }))).toBe("63 % [47–76 %] held-out, n = 40 × 3");
    expect(lineageScoreText(node("a", 1, null))).toBe("not measured");
  });
});
