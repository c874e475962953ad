import { describe, expect, it } from "vitest";
import { backpropagate, emptyTree, hasOpenLeaf, isOpen, pathTo, selectPath, TREE_ROOT_ID, uctScore, type TreeNodeView, type TreeSearchView } from "@/lib/domain/tree-search";

/** Adds a node under `parent` with the given fields (an expansion child unless said otherwise). */
function add(tree: TreeSearchView, id: string, parent: string, fields: Partial<TreeNodeView> = {}): TreeNodeView {
  const up = tree.nodes.get(parent)!;
  const node: TreeNodeView = {
    id,
    parent,
    depth: up.depth + 1,
    iteration: 1,
    origin: "expansion",
    thought: "",
    actionText: `act ${id}`,
    action: null,
    parseError: null,
    state: null,
    observation: "",
    done: false,
    answer: null,
    callId: `call-${id}`,
    estimate: null,
    estimateCallId: null,
    value: null,
    visits: 0,
    terminal: null,
    reflection: null,
    children: [],
    ...fields,
  };
  tree.nodes.set(id, node);
  tree.order.push(id);
  up.children.push(id);
  return node;
}

describe("UCT (LATS eq. 1)", () => {
  it("is V + w·√(ln N(p) / N(s)) for a visited child (worked example)", () => {
    // V = 0.5, N(s) = 2, N(p) = 8, w = 1: 0.5 + √(ln 8 / 2) = 0.5 + √(2.0794 / 2) = 0.5 + 1.01966 = 1.51966
    expect(uctScore({ value: 0.5, visits: 2 }, 8, 1)).toBeCloseTo(1.51966, 4);
    // w = 0: pure exploitation.
    expect(uctScore({ value: 0.5, visits: 2 }, 8, 0)).toBe(0.5);
    // w = 2 doubles the bonus: 0.25 + 2·√(ln 4 / 1) = 0.25 + 2·1.17741 = 2.60482
    expect(uctScore({ value: 0.25, visits: 1 }, 4, 2)).toBeCloseTo(2.60482, 4);
  });

  it("scores an unvisited child by its value estimate alone (0 without one)", () => {
    expect(uctScore({ value: 0.7, visits: 0 }, 10, 1)).toBe(0.7);
    expect(uctScore({ value: null, visits: 0 }, 10, 1)).toBe(0);
  });
});

describe("backpropagation", () => {
  it("adds a visit to every node on the path and keeps the running mean of rewards", () => {
    const tree = emptyTree();
    add(tree, "a", TREE_ROOT_ID, { estimate: 0.8, value: 0.8 });
    add(tree, "b", "a", { origin: "rollout" });
    backpropagate(tree, [TREE_ROOT_ID, "a", "b"], 0);
    // The first visit replaces the estimate by the reward.
    expect(tree.nodes.get("a")).toMatchObject({ visits: 1, value: 0 });
    backpropagate(tree, [TREE_ROOT_ID, "a"], 1);
    expect(tree.nodes.get("a")).toMatchObject({ visits: 2, value: 0.5 });
    backpropagate(tree, [TREE_ROOT_ID, "a"], 1);
    // (0.5·2 + 1) / 3 = 2/3
    expect(tree.nodes.get("a")!.value).toBeCloseTo(2 / 3, 10);
    expect(tree.nodes.get(TREE_ROOT_ID)).toMatchObject({ visits: 3 });
    expect(tree.nodes.get("b")).toMatchObject({ visits: 1, value: 0 });
  });

  it("skips ids the tree does not have", () => {
    const tree = emptyTree();
    backpropagate(tree, [TREE_ROOT_ID, "missing"], 1);
    expect(tree.nodes.get(TREE_ROOT_ID)).toMatchObject({ visits: 1, value: 1 });
  });
});

describe("selection", () => {
  it("stops at the root of an empty tree", () => {
    expect(selectPath(emptyTree(), 1, 6)).toEqual([TREE_ROOT_ID]);
  });

  it("descends by UCT to the first node not expanded yet (worked example)", () => {
    const tree = emptyTree();
    tree.nodes.get(TREE_ROOT_ID)!.visits = 3;
    // a: V 0.2, N 2 → 0.2 + √(ln 3 / 2) = 0.2 + 0.74115 = 0.94115; b: V 0.9, N 1 → 0.9 + √(ln 3) = 1.94815; c: unvisited, estimate 0.95.
    const a = add(tree, "a", TREE_ROOT_ID, { value: 0.2, visits: 2 });
    add(tree, "b", TREE_ROOT_ID, { value: 0.9, visits: 1 });
    add(tree, "c", TREE_ROOT_ID, { value: 0.95, estimate: 0.95 });
    expect(a).toBeDefined();
    expect(selectPath(tree, 1, 6)).toEqual([TREE_ROOT_ID, "b"]);
    // Without exploration the best value wins: c (0.95) over b (0.9).
    expect(selectPath(tree, 0, 6)).toEqual([TREE_ROOT_ID, "c"]);
  });

  it("stops at a rollout node (its siblings were never sampled) and continues below expanded nodes", () => {
    const tree = emptyTree();
    tree.nodes.get(TREE_ROOT_ID)!.visits = 1;
    add(tree, "e1", TREE_ROOT_ID, { value: 0, visits: 1 });
    add(tree, "s2", "e1", { origin: "rollout", value: 0, visits: 1 });
    add(tree, "s3", "s2", { origin: "rollout", value: 0, visits: 1, done: true, terminal: { outcome: "failure", trial: 1, answer: "x" } });
    // e1 has only a rollout child: it is not expanded, so selection stops there.
    expect(selectPath(tree, 1, 6)).toEqual([TREE_ROOT_ID, "e1"]);
    add(tree, "e2", "e1", { iteration: 2, estimate: 0.4, value: 0.4 });
    // e1 is expanded now; below it, s2 (visited) scores 0 + √(ln N(e1)=ln 1 = 0) = 0 and e2 (unvisited) its estimate 0.4.
    expect(selectPath(tree, 1, 6)).toEqual([TREE_ROOT_ID, "e1", "e2"]);
  });

  it("may stop at a final answer nobody followed, never at one already judged", () => {
    const tree = emptyTree();
    const answered = add(tree, "e1", TREE_ROOT_ID, { done: true, answer: "x", estimate: 0.3, value: 0.3 });
    add(tree, "e2", TREE_ROOT_ID, { done: true, answer: "y", estimate: 0.6, value: 0.6, visits: 1, terminal: { outcome: "failure", trial: 1, answer: "y" } });
    expect(isOpen(tree, answered, 6)).toBe(true);
    expect(selectPath(tree, 1, 6)).toEqual([TREE_ROOT_ID, "e1"]);
    answered.terminal = { outcome: "success", trial: 2, answer: "x" };
    expect(selectPath(tree, 1, 6)).toBeNull();
  });

  it("treats nodes at the depth limit as ended", () => {
    const tree = emptyTree();
    add(tree, "e1", TREE_ROOT_ID);
    add(tree, "e2", "e1");
    expect(hasOpenLeaf(tree, TREE_ROOT_ID, 2)).toBe(false);
    expect(selectPath(tree, 1, 2)).toBeNull();
    expect(selectPath(tree, 1, 3)).toEqual([TREE_ROOT_ID, "e1", "e2"]);
  });

  it("skips an exhausted subtree even when its UCT is higher", () => {
    const tree = emptyTree();
    tree.nodes.get(TREE_ROOT_ID)!.visits = 2;
    add(tree, "good", TREE_ROOT_ID, { value: 1, visits: 1, done: true, terminal: { outcome: "failure", trial: 1, answer: null } });
    add(tree, "open", TREE_ROOT_ID, { value: 0.1, estimate: 0.1 });
    expect(selectPath(tree, 1, 6)).toEqual([TREE_ROOT_ID, "open"]);
  });
});

describe("paths", () => {
  it("walks from a node up to the root", () => {
    const tree = emptyTree();
    add(tree, "a", TREE_ROOT_ID);
    add(tree, "b", "a");
    expect(pathTo(tree, "b")).toEqual([TREE_ROOT_ID, "a", "b"]);
    expect(pathTo(tree, "nope")).toEqual([]);
  });
});
