"use client";

import { useCallback, useMemo, useRef, useState, type ReactNode } from "react";
import { pathTo, type TreeNodeView, type TreeSearchView } from "@/lib/domain/tree-search";
import { defaultCollapsedTreeNodes } from "@/lib/graph/tree-default-collapse";
import { createTreeLayouter, treeIsEmpty } from "@/lib/graph/tree-layout";
import { Button } from "@/components/ui/button";
import { SearchTree } from "./search-tree";
import { TreeLegend } from "./tree-legend";
import { TreeNodeDetails } from "./tree-node-details";

/** Props of {@link SearchTreePanel}. */
export interface SearchTreePanelProps {
  /** The folded search tree (lib/domain/tree-search.ts). */
  tree: TreeSearchView;
  /** Ids root → node to highlight (the latest iteration's path, or the best path). Default: the selected node's path, else the latest iteration's. */
  highlightPath?: string[];
  /** The selected node (controlled). Leave undefined to let the panel keep its own selection. */
  selectedNodeId?: string | null;
  /** Called with a node's id when it is clicked, or focused and Enter/Space pressed. */
  onSelectNode?: (id: string) => void;
  /** What can be done with the selected node, shown under its details (the run page: fork from it). */
  nodeActions?: (node: TreeNodeView) => ReactNode;
}

/**
 * The search tree view of a LATS run (Zhou et al., ICML 2024): the tree (colour = value, size =
 * visits, the highlighted path outlined, subtrees collapsible), a legend, and the selected node's
 * details beside it. With only the root it says the search has not expanded the root yet. A
 * collapsed node that hides the selected node is drawn expanded so the selection stays in view.
 * A tree of more than 1,500 nodes opens with its deep subtrees collapsed
 * (lib/graph/tree-default-collapse.ts); *Expand all* draws everything.
 */
export function SearchTreePanel({ tree, highlightPath, selectedNodeId, onSelectNode, nodeActions }: SearchTreePanelProps) {
  const [ownSelection, setOwnSelection] = useState<string | null>(null);
  const selected = selectedNodeId === undefined ? ownSelection : selectedNodeId;
  // null: the default (a large tree opens with its deep subtrees collapsed); a set once the reader toggles one.
  const [chosen, setChosen] = useState<ReadonlySet<string> | null>(null);
  const latestPath = tree.iterations.at(-1)?.path;
  const defaultCollapsed = useMemo(
    () => defaultCollapsedTreeNodes(tree, latestPath ?? []),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the tree grows in place: its size stands for it
    [tree, tree.order.length, latestPath],
  );
  const collapsed = chosen ?? defaultCollapsed;
  const layouterRef = useRef<ReturnType<typeof createTreeLayouter> | null>(null);
  const layouter = (layouterRef.current ??= createTreeLayouter());

  const selectedNode = selected === null ? null : (tree.nodes.get(selected) ?? null);
  const highlight = useMemo(() => {
    if (highlightPath) return highlightPath;
    if (selectedNode) return pathTo(tree, selectedNode.id);
    return tree.iterations.at(-1)?.path ?? [];
  }, [highlightPath, selectedNode, tree]);
  // The selected node's ancestors are never collapsed in the drawing.
  const effectiveCollapsed = useMemo(() => {
    if (!selectedNode) return collapsed;
    const ancestors = pathTo(tree, selectedNode.id).slice(0, -1);
    if (!ancestors.some((id) => collapsed.has(id))) return collapsed;
    return new Set([...collapsed].filter((id) => !ancestors.includes(id)));
  }, [collapsed, selectedNode, tree]);
  const collapsedKey = [...effectiveCollapsed].sort().join("\n");
  const highlightKey = highlight.join("\n");
  // The layouter keeps its positions while only values or the highlight change; the tree's
  // identity is not enough to know it changed (the fold may grow it in place), so `tree.order.length` is a dependency too.
  const layout = useMemo(
    () => layouter(tree, { collapsed: effectiveCollapsed, highlight }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keys stand for the set and the path
    [layouter, tree, tree.order.length, collapsedKey, highlightKey],
  );

  const select = useCallback(
    (id: string) => {
      setOwnSelection(id);
      onSelectNode?.(id);
    },
    [onSelectNode],
  );
  const toggleCollapse = useCallback((id: string) => {
    setChosen((current) => {
      const next = new Set(current ?? defaultCollapsed);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, [defaultCollapsed]);

  const empty = treeIsEmpty(tree);
  const hidden = layout.total - layout.nodes.length;
  return (
    <div data-testid="search-tree-panel" className="flex min-h-0 flex-1 flex-col lg:flex-row">
      <div className="flex min-h-0 min-w-0 flex-1 flex-col">
        <div className="flex flex-none flex-wrap items-center gap-2 border-b border-slate-200 px-3 py-1.5 text-xs text-slate-700">
          <span data-testid="tree-status" data-shown={layout.nodes.length} data-total={layout.total}>
            {layout.total} {layout.total === 1 ? "node" : "nodes"} · {tree.iterations.length} {tree.iterations.length === 1 ? "trial" : "trials"}
            {hidden > 0 ? ` · ${hidden} hidden in ${effectiveCollapsed.size} collapsed ${effectiveCollapsed.size === 1 ? "subtree" : "subtrees"}` : ""}
          </span>
          {collapsed.size > 0 ? (
            <Button size="sm" variant="ghost" onClick={() => setChosen(new Set())}>
              Expand all
            </Button>
          ) : null}
        </div>
        <div className="relative min-h-0 flex-1" data-testid="search-tree">
          {empty ? (
            <p data-testid="tree-empty" className="p-6 text-sm text-slate-600">
              The search has not expanded the root yet.
            </p>
          ) : (
            <>
              <SearchTree layout={layout} selectedNodeId={selected} onSelectNode={select} onToggleCollapse={toggleCollapse} />
              {/* Folded by default: open over a small tree it would cover the root. */}
              <details className="absolute left-2 top-2 z-10 max-w-[calc(100%-1rem)]" data-testid="tree-legend-toggle">
                <summary className="cursor-pointer rounded-md border border-slate-200 bg-white/95 px-2 py-1 text-[11px] font-medium text-slate-700 shadow-sm">Legend</summary>
                <div className="mt-1">
                  <TreeLegend />
                </div>
              </details>
            </>
          )}
        </div>
      </div>
      <aside aria-label="Selected node" className="max-h-[45%] flex-none overflow-y-auto border-t border-slate-200 lg:max-h-none lg:w-80 lg:border-l lg:border-t-0">
        <TreeNodeDetails node={selectedNode} />
        {selectedNode && nodeActions ? nodeActions(selectedNode) : null}
      </aside>
    </div>
  );
}
