"use client";

import { useEffect, useMemo, useState, useSyncExternalStore } from "react";
import { stressTree } from "@/lib/graph/stress-tree";
import { SearchTreePanel } from "@/components/tree-search";

const subscribeNever = () => () => {};

/** Builds the tree once, on the client, timing it. */
function buildTree(nodes: number, seed: number) {
  const started = performance.now();
  const tree = stressTree({ nodes, seed });
  return { tree, ms: Math.round(performance.now() - started) };
}

/**
 * The stress page's tree mode (`/stress?tree=N`): a synthetic LATS search tree of N nodes
 * (lib/graph/stress-tree.ts) in the search tree view, built on the client (no server, no
 * database). It publishes its figures as `window.__stressGraph` (the run-graph mode's shape: one
 * "run" with the tree's node and edge counts; building the tree counts as the logs, and there is
 * no fold: `graphMs` is NaN, printed "–") for bench/graph.bench.ts.
 */
export function StressTreeView({ nodes, seed }: { nodes: number; seed: number }) {
  const onClient = useSyncExternalStore(subscribeNever, () => true, () => false);
  const built = useMemo(() => (onClient ? buildTree(nodes, seed) : null), [onClient, nodes, seed]);
  const [selected, setSelected] = useState<string | null>(null);
  useEffect(() => {
    if (built) window.__stressGraph = { runs: [{ events: 0, nodes: built.tree.nodes.size, edges: built.tree.nodes.size - 1 }], eventsMs: built.ms, graphMs: Number.NaN };
  }, [built]);
  if (!built) return <p className="p-4 text-sm text-slate-600">Building the synthetic search tree…</p>;
  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="stress-page" data-view="tree">
      <p className="flex-none border-b border-slate-200 bg-amber-50 px-4 py-1.5 text-xs text-amber-950">
        Stress page (a synthetic LATS search tree, no server): {built.tree.nodes.size} nodes · seed {seed} · built in {built.ms} ms
      </p>
      <SearchTreePanel tree={built.tree} selectedNodeId={selected} onSelectNode={setSelected} />
    </div>
  );
}
