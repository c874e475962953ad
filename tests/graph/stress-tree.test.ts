import { describe, expect, it } from "vitest";
import { TREE_ROOT_ID } from "@/lib/domain/tree-search";
import { STRESS_TREE_MAX_DEPTH, stressTree } from "@/lib/graph/stress-tree";
import { parseStressParams, STRESS_TREE_LIMIT } from "@/app/stress/stress-params";

describe("stressTree", () => {
  it("has exactly the nodes asked for, each known to its parent, parents created first", () => {
    for (const size of [1, 2, 30, 300]) {
      const tree = stressTree({ nodes: size, seed: 2 });
      expect(tree.nodes.size).toBe(size);
      expect(tree.order).toHaveLength(size);
      expect(tree.order[0]).toBe(TREE_ROOT_ID);
      const seen = new Set<string>();
      for (const id of tree.order) {
        const node = tree.nodes.get(id)!;
        if (node.parent !== null) {
          expect(seen.has(node.parent)).toBe(true);
          expect(tree.nodes.get(node.parent)!.children).toContain(id);
          expect(node.depth).toBe(tree.nodes.get(node.parent)!.depth + 1);
        }
        seen.add(id);
      }
    }
  });

  it("is the same tree for the same seed and another for another seed", () => {
    const a = stressTree({ nodes: 200, seed: 5 });
    const b = stressTree({ nodes: 200, seed: 5 });
    const c = stressTree({ nodes: 200, seed: 6 });
    const shape = (tree: typeof a) => tree.order.map((id) => `${id}<${tree.nodes.get(id)!.parent}:${tree.nodes.get(id)!.value}`).join();
    expect(shape(a)).toBe(shape(b));
    expect(shape(a)).not.toBe(shape(c));
  });

  it("expands 2–5 children at a time, stays within the depth limit, and has values in 0–1, terminals and reflections", () => {
    const tree = stressTree({ nodes: 1000, seed: 1 });
    const nodes = [...tree.nodes.values()];
    const expansions = new Map<string, number>();
    for (const node of nodes) if (node.origin === "expansion") expansions.set(`${node.parent}@${node.iteration}`, (expansions.get(`${node.parent}@${node.iteration}`) ?? 0) + 1);
    // The last expansion may be cut short by the node budget.
    const counts = [...expansions.values()].slice(0, -1);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(2);
    expect(Math.max(...counts)).toBeLessThanOrEqual(5);
    expect(new Set(counts).size).toBeGreaterThan(2);
    expect(Math.max(...nodes.map((node) => node.depth))).toBe(STRESS_TREE_MAX_DEPTH);
    const values = nodes.flatMap((node) => (node.value === null ? [] : [node.value]));
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThanOrEqual(1);
    expect(new Set(values).size).toBeGreaterThan(20);
    const outcomes = new Set(nodes.flatMap((node) => (node.terminal ? [node.terminal.outcome] : [])));
    expect(outcomes).toEqual(new Set(["success", "failure", "halted"]));
    expect(nodes.some((node) => node.reflection !== null)).toBe(true);
    expect(nodes.every((node) => node.reflection === null || (node.terminal !== null && node.terminal.outcome !== "success"))).toBe(true);
    // The root is visited once per finished iteration (backpropagation).
    expect(tree.nodes.get(TREE_ROOT_ID)!.visits).toBe(tree.iterations.filter((iteration) => iteration.reward !== null).length);
  });
});

describe("the stress page's tree parameter", () => {
  it("reads tree=N as the node count, bounded, and anything else as no tree", () => {
    expect(parseStressParams({ tree: "300" }).tree).toBe(300);
    expect(parseStressParams({ tree: ["1000", "5"] }).tree).toBe(1000);
    expect(parseStressParams({ tree: "0" }).tree).toBe(1);
    expect(parseStressParams({ tree: "999999" }).tree).toBe(STRESS_TREE_LIMIT);
    expect(parseStressParams({ tree: "many" }).tree).toBeNull();
    expect(parseStressParams({ trials: "3" }).tree).toBeNull();
  });
});
