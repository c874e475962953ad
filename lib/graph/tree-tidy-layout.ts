import type { TreeSearchView } from "@/lib/domain/tree-search";

/**
 * A closed-form layout of a large LATS search tree (decision 0042): parents above children, one
 * row per depth, siblings left to right in creation order, each parent centred over the span of
 * its children, every subtree in its own column band (never overlapping another's). O(n): two
 * passes over the drawn nodes. dagre (lib/graph/tree-layout.ts) packs a tree tighter but takes
 * ~0.5 s for 1,000 nodes on a 2-core machine and minutes for 25,000; the tree view switches to
 * this layout above {@link TREE_DAGRE_MAX_NODES} drawn nodes.
 */

/** Up to this many drawn nodes the tree view keeps dagre's tighter layout; above it, {@link tidyTreePositions}. */
export const TREE_DAGRE_MAX_NODES = 500;

/** A placed box: top-left corner and size, px (React Flow's convention). */
export interface TidyBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Positions of the `drawn` nodes of `tree` (ids in creation order, parents before children, as
 * tree-layout's `drawnIds` gives them), each with its size from `sizeOf`; rows `rankGap` apart,
 * siblings and neighbouring subtrees `nodeGap` apart. Nodes of one depth share a centre line, as
 * in dagre's top-aligned ranks. Whole pixels. A drawn node whose parent is not drawn is a root of
 * its own (placed to the right of the previous one).
 */
export function tidyTreePositions(
  tree: TreeSearchView,
  drawn: readonly string[],
  sizeOf: (id: string) => { width: number; height: number },
  gaps: { rankGap: number; nodeGap: number },
): { positions: Map<string, TidyBox>; width: number; height: number } {
  const drawnSet = new Set(drawn);
  const sizes = new Map<string, { width: number; height: number }>();
  const depth = new Map<string, number>();
  const rowHeights: number[] = [];
  for (const id of drawn) {
    const size = sizeOf(id);
    sizes.set(id, size);
    const parent = tree.nodes.get(id)?.parent ?? null;
    const level = parent !== null && drawnSet.has(parent) ? (depth.get(parent) ?? 0) + 1 : 0;
    depth.set(id, level);
    rowHeights[level] = Math.max(rowHeights[level] ?? 0, size.height);
  }
  const childrenOf = (id: string) => (tree.nodes.get(id)?.children ?? []).filter((child) => drawnSet.has(child));

  // Pass 1, children before parents: the width of each subtree's column band.
  const band = new Map<string, number>();
  for (let at = drawn.length - 1; at >= 0; at -= 1) {
    const id = drawn[at]!;
    const children = childrenOf(id);
    let span = 0;
    for (const child of children) span += band.get(child)!;
    span += Math.max(0, children.length - 1) * gaps.nodeGap;
    band.set(id, Math.max(sizes.get(id)!.width, span));
  }

  // Row tops: each row as tall as its tallest node.
  const rowTop: number[] = [];
  let top = 0;
  for (let level = 0; level < rowHeights.length; level += 1) {
    rowTop[level] = top;
    top += (rowHeights[level] ?? 0) + gaps.rankGap;
  }

  // Pass 2, parents before children: each band's left edge, its node centred in it, children packed in it.
  const left = new Map<string, number>();
  const positions = new Map<string, TidyBox>();
  let nextRoot = 0;
  let width = 0;
  let height = 0;
  for (const id of drawn) {
    if (!left.has(id)) {
      left.set(id, nextRoot);
      nextRoot += band.get(id)! + gaps.nodeGap;
    }
    const bandLeft = left.get(id)!;
    const bandWidth = band.get(id)!;
    const size = sizes.get(id)!;
    const level = depth.get(id)!;
    const box = {
      x: Math.round(bandLeft + (bandWidth - size.width) / 2),
      y: Math.round(rowTop[level]! + ((rowHeights[level] ?? size.height) - size.height) / 2),
      width: size.width,
      height: size.height,
    };
    positions.set(id, box);
    width = Math.max(width, box.x + box.width);
    height = Math.max(height, box.y + box.height);
    const children = childrenOf(id);
    let span = 0;
    for (const child of children) span += band.get(child)!;
    span += Math.max(0, children.length - 1) * gaps.nodeGap;
    let cursor = bandLeft + (bandWidth - span) / 2;
    for (const child of children) {
      left.set(child, cursor);
      cursor += band.get(child)! + gaps.nodeGap;
    }
  }
  return { positions, width, height };
}
