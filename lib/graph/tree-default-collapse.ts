import type { TreeSearchView } from "@/lib/domain/tree-search";

/**
 * Which subtrees of a large LATS search tree start collapsed (decision 0042), as decision 0013
 * does for a long run's old trials: collapsing, not rendering only what is in view, is what
 * keeps a 25,000-node tree as quick as a small one. A tree of at most `budget` nodes starts with
 * nothing collapsed. A larger one is drawn down to the deepest level D whose nodes, with every
 * level above, number at most `budget`: each node at depth D that has children starts collapsed
 * (showing how many it hides), except along `keepOpen` (the latest iteration's path), which stays
 * open to its end with its side branches collapsed where they leave it. Pure.
 */

/** Nodes a search tree draws at most when it opens (the rest in collapsed subtrees). */
export const TREE_OPEN_BUDGET = 1500;

/**
 * The ids to start collapsed (see above): empty when `tree` has at most `budget` nodes.
 * `keepOpen`: ids root → node (unknown ids are ignored).
 */
export function defaultCollapsedTreeNodes(tree: TreeSearchView, keepOpen: readonly string[] = [], budget: number = TREE_OPEN_BUDGET): Set<string> {
  const collapsed = new Set<string>();
  if (tree.nodes.size <= budget) return collapsed;
  const perDepth: number[] = [];
  for (const node of tree.nodes.values()) perDepth[node.depth] = (perDepth[node.depth] ?? 0) + 1;
  let depth = 0;
  let drawn = perDepth[0] ?? 0;
  while (depth + 1 < perDepth.length && drawn + (perDepth[depth + 1] ?? 0) <= budget) {
    depth += 1;
    drawn += perDepth[depth] ?? 0;
  }
  // The root always shows its children: at least depth 1 is drawn.
  const limit = Math.max(1, depth);
  const open = new Set(keepOpen);
  for (const node of tree.nodes.values()) {
    if (node.children.length === 0 || open.has(node.id)) continue;
    const onPathEdge = node.parent !== null && open.has(node.parent);
    if (node.depth === limit || (node.depth > limit && onPathEdge)) collapsed.add(node.id);
  }
  return collapsed;
}
