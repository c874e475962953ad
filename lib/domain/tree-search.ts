/**
 * The search tree of a Language Agent Tree Search run (LATS: Zhou et al., ICML 2024, §4) as a
 * read model, and the pure rules the engine applies to it: UCT selection (paper eq. 1) and
 * backpropagation (paper §4, "Backpropagation"). No model, no I/O: the engine
 * (lib/engine/tree-phase.ts) records what it decides as `tree-*` events, and the fold rebuilds this
 * tree from them, so replay and the tree view see exactly what the engine saw.
 *
 * Shape of a LATS run in this app (docs/decisions/0036-lats-as-trials.md): iteration k of the
 * search is trial k. Its trajectory is the path root → terminal: the selected path, the child chosen
 * after expansion, then the greedy rollout (plain Actor steps). So Evaluator, Self-Reflection,
 * episodic memory, the lanes graph and the experiment tables all work on LATS runs unchanged; the
 * tree adds the siblings that were sampled but not followed, their values and the visit counts.
 */

/** Where a tree node came from. */
export type TreeNodeOrigin = "root" | "expansion" | "rollout";

/** The verdict of a trajectory that ended at a node (the family's Evaluator, on the trial's answer). */
export interface TreeTerminal {
  /** `success`: the Evaluator passed the trial; `failure`/`halted`: it did not (halted: out of steps or a loop). */
  outcome: "success" | "failure" | "halted";
  /** The trial whose trajectory ended here. */
  trial: number;
  /** The answer the trajectory submitted, if any. */
  answer: string | null;
}

/** One node of the search tree: one Thought → Action → Observation step (the root is the task itself). */
export interface TreeNodeView {
  /** `root`, `t<trial>.e<k>` (the k-th child sampled in trial `trial`'s expansion) or `t<trial>.s<step>` (a rollout step). */
  id: string;
  /** The parent's id; null for the root. */
  parent: string | null;
  /** Distance from the root: the step number of the node's step in any trajectory through it (root 0). */
  depth: number;
  /** The trial (search iteration) that created the node; 0 for the root. */
  iteration: number;
  origin: TreeNodeOrigin;
  thought: string;
  /** The action as the Actor wrote it (`Search[Alan Turing]`). Empty for the root. */
  actionText: string;
  /** The family's reading of it, or null when it did not parse (`parseError` says why). */
  action: { type: string; argument: string } | null;
  parseError: string | null;
  observation: string;
  /** The step ended the episode (a `Finish`, a solved household goal, submitted code). */
  done: boolean;
  /** The answer a final action submitted. */
  answer: string | null;
  /** The world's state after the step, when the family records one (household location, code test report). */
  state: Record<string, unknown> | null;
  /** The model call that wrote the step; null for the root. */
  callId: string | null;
  /** The value model's estimate when the node was expanded, 0–1 (paper §4 "Evaluation"); null if never estimated (rollout steps, the root). */
  estimate: number | null;
  /** The model call of that estimate. */
  estimateCallId: string | null;
  /** V(s): the estimate until the first backpropagation through the node, then the mean reward of the trajectories through it. */
  value: number | null;
  /** N(s): how many trajectories have been backpropagated through the node. */
  visits: number;
  /** Set when a trajectory ended at this node. */
  terminal: TreeTerminal | null;
  /** The reflection written after the failed trajectory that ended here (its trial's `reflection-end`), if any. */
  reflection: { trial: number; text: string } | null;
  /** Children ids in creation order. */
  children: string[];
  /**
   * The event that drew the node: its `tree-node` event for an expansion, the `step-observation` of a
   * rollout step; absent for the root and in synthetic trees. People's notes on the node are keyed by it.
   */
  eventId?: string;
}

/** The folded search tree of one branch. */
export interface TreeSearchView {
  /** Every node by id; `root` is always there once the run has started. */
  nodes: Map<string, TreeNodeView>;
  /** Node ids in creation order (the root first): the order of the replay's "iteration k" view. */
  order: string[];
  /** Per trial (search iteration): the path selection chose (root → leaf), and the whole trajectory's path (root → terminal) once it is known. */
  iterations: Array<{
    trial: number;
    /** Root → the node selection stopped at. */
    selected: string[];
    /** Root → the trajectory's last node so far: `selected` until `tree-follow`, then the followed child and the rollout. */
    path: string[];
    /** The trial has followed a path (`tree-follow`): its tree phase is over and the rollout runs. */
    followed: boolean;
    /** The backpropagated reward, once known. */
    reward: number | null;
  }>;
  /**
   * Set by a fork from a tree node (`tree-focus`): selection starts at this node instead of the
   * root, so the branch searches only its subtree. Null: the whole tree.
   */
  focus: string | null;
}

/** The root's id. */
export const TREE_ROOT_ID = "root";

/** An empty tree: only the root. */
export function emptyTree(): TreeSearchView {
  const root: TreeNodeView = {
    id: TREE_ROOT_ID,
    parent: null,
    depth: 0,
    iteration: 0,
    origin: "root",
    thought: "",
    actionText: "",
    action: null,
    parseError: null,
    observation: "",
    done: false,
    answer: null,
    state: null,
    callId: null,
    estimate: null,
    estimateCallId: null,
    value: null,
    visits: 0,
    terminal: null,
    reflection: null,
    children: [],
  };
  return { nodes: new Map([[TREE_ROOT_ID, root]]), order: [TREE_ROOT_ID], iterations: [], focus: null };
}

/** The id of the k-th (1-based) child sampled by trial `trial`'s expansion. */
export function expansionNodeId(trial: number, k: number): string {
  return `t${trial}.e${k}`;
}

/** The id of the rollout node of trial `trial` at step `step`. */
export function rolloutNodeId(trial: number, step: number): string {
  return `t${trial}.s${step}`;
}

/**
 * UCT (paper eq. 1, after Kocsis & Szepesvári 2006): V(s) + w · √(ln N(p) / N(s)).
 * A child never visited scores its value estimate alone (0 without one), as the LATS reference
 * code's `Node.uct` does; so an unvisited child with a good estimate competes with visited ones
 * instead of always winning.
 * @param child the child's value V and visits N.
 * @param parentVisits N(p), the parent's visits.
 * @param exploration w, the exploration weight (the paper uses 1 for HotpotQA).
 */
export function uctScore(child: { value: number | null; visits: number }, parentVisits: number, exploration: number): number {
  const value = child.value ?? 0;
  if (child.visits === 0) return value;
  const bonus = parentVisits > 0 ? Math.sqrt(Math.log(parentVisits) / child.visits) : 0;
  return value + exploration * bonus;
}

/**
 * Whether a node can be expanded: it ended no trajectory, is not a final step, and is above the
 * depth limit (`maxDepth`: the run's steps per trial).
 */
export function isExpandable(node: TreeNodeView, maxDepth: number): boolean {
  return node.terminal === null && !node.done && node.depth < maxDepth;
}

/**
 * Whether an expansion has sampled children at the node. A rollout step's node has at most the
 * rollout's next step under it and is not expanded until selection stops there: simulation nodes
 * belong to the tree but their siblings have not been sampled yet.
 */
export function isExpanded(tree: TreeSearchView, node: TreeNodeView): boolean {
  return node.children.some((id) => tree.nodes.get(id)?.origin === "expansion");
}

/**
 * Whether selection may stop at the node: it has not been expanded and can be (the trial expands
 * it), or it is a final step no trajectory has ended at yet (an answer sampled by an expansion but
 * not followed: the trial follows it and the Evaluator judges it, as LATS evaluates terminal children).
 */
export function isOpen(tree: TreeSearchView, node: TreeNodeView, maxDepth: number): boolean {
  if (node.done) return node.terminal === null && node.origin !== "root";
  return !isExpanded(tree, node) && isExpandable(node, maxDepth);
}

/**
 * Whether the subtree at `id` still has an open node ({@link isOpen}); a subtree without one is
 * exhausted and selection skips it.
 */
export function hasOpenLeaf(tree: TreeSearchView, id: string, maxDepth: number): boolean {
  const node = tree.nodes.get(id);
  if (!node) return false;
  if (isOpen(tree, node, maxDepth)) return true;
  return node.children.some((child) => hasOpenLeaf(tree, child, maxDepth));
}

/**
 * Selection (paper §4): from the root — or from the tree's {@link TreeSearchView.focus} on a branch
 * forked from a node — until the node is open ({@link isOpen}), step to the child with the highest
 * UCT among the children whose subtree is not exhausted (ties: the earlier child). Returns the path
 * root → the open node, or null when the (focused) tree is exhausted: the search has nothing left
 * to try.
 */
export function selectPath(tree: TreeSearchView, exploration: number, maxDepth: number): string[] | null {
  const start = tree.focus !== null && tree.nodes.has(tree.focus) ? tree.focus : TREE_ROOT_ID;
  if (!hasOpenLeaf(tree, start, maxDepth)) return null;
  const path = pathTo(tree, start);
  let node = tree.nodes.get(start)!;
  while (!isOpen(tree, node, maxDepth)) {
    let best: TreeNodeView | null = null;
    let bestScore = -Infinity;
    for (const id of node.children) {
      if (!hasOpenLeaf(tree, id, maxDepth)) continue;
      const child = tree.nodes.get(id)!;
      const score = uctScore(child, node.visits, exploration);
      if (score > bestScore) {
        best = child;
        bestScore = score;
      }
    }
    if (!best) return null;
    path.push(best.id);
    node = best;
  }
  return path;
}

/**
 * Backpropagation (paper §4): every node on `path` gets one more visit and its value becomes the
 * running mean of the rewards through it, V ← (V·(N−1) + r) / N with N already incremented. Mutates
 * the tree (the fold's own copy). Unknown ids are skipped.
 * @param reward the trajectory's reward: 1 when the Evaluator passed it, 0 otherwise.
 */
export function backpropagate(tree: TreeSearchView, path: readonly string[], reward: number): void {
  for (const id of path) {
    const node = tree.nodes.get(id);
    if (!node) continue;
    node.visits += 1;
    const previous = node.visits === 1 ? 0 : (node.value ?? 0);
    node.value = (previous * (node.visits - 1) + reward) / node.visits;
  }
}

/** The path root → `id` (ids), or [] for an unknown id. */
export function pathTo(tree: TreeSearchView, id: string): string[] {
  const path: string[] = [];
  let node = tree.nodes.get(id);
  while (node) {
    path.unshift(node.id);
    node = node.parent === null ? undefined : tree.nodes.get(node.parent);
  }
  return path;
}
