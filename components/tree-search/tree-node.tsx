"use client";

import { Handle, Position, type NodeProps } from "@xyflow/react";
import { memo, type MouseEvent } from "react";
import { cn } from "@/lib/utils/cn";
import { useSearchTreeActions } from "./tree-context";
import { formatValue, TREE_HANDLES, type TreeFlowNode } from "./tree-flow";
import { TerminalMark } from "./terminal-mark";

/**
 * One node of the search tree: the action (truncated; the root shows "Task"), V (2 decimals),
 * N ("N=3"), the verdict of a trajectory that ended here, a badge when a reflection was written
 * after it, and a toggle that collapses or expands the subtree. The left bar's colour is the value
 * (lib/graph/tree-layout.ts `valueColour`); the box's size is the visits. One `div` per node with
 * `data-*` attributes for tests; zoomed far out only the coloured box is painted.
 */
export const SearchTreeNode = memo(function SearchTreeNode({ id, data }: NodeProps<TreeFlowNode>) {
  const { placed, selected } = data;
  const { node } = placed;
  const { toggleCollapse } = useSearchTreeActions();
  const onToggle = (event: MouseEvent<HTMLButtonElement>) => {
    // The node's own click selects it: the toggle only collapses.
    event.stopPropagation();
    toggleCollapse(id);
  };
  const isRoot = node.parent === null;
  return (
    <div
      data-testid="tree-node"
      data-node-id={id}
      data-parent={node.parent ?? undefined}
      data-depth={node.depth}
      data-value={node.value ?? undefined}
      data-visits={node.visits}
      data-outcome={node.terminal?.outcome}
      data-highlighted={placed.highlighted || undefined}
      data-selected={selected || undefined}
      data-collapsed={placed.collapsed || undefined}
      className={cn(
        "flex h-full w-full flex-col justify-between overflow-hidden rounded-lg border border-l-[6px] bg-white px-2 py-1.5 text-left shadow-sm",
        "in-[.search-tree-far]:shadow-none in-[.search-tree-far]:*:invisible",
        placed.highlighted ? "border-sky-500 ring-2 ring-sky-400 ring-offset-1" : "border-slate-200",
        // An outline, not a ring: it stays visible around a highlighted (ringed) node.
        selected && "outline-4 outline-offset-4 outline-sky-800",
      )}
      style={{ borderLeftColor: placed.colour }}
    >
      <Handle type="target" id={TREE_HANDLES.parent} position={Position.Top} isConnectable={false} />
      <div className="flex items-center justify-between gap-1">
        <span className="text-[10px] font-semibold uppercase tracking-wide text-slate-600">{isRoot ? "Task" : `${node.origin} · trial ${node.iteration}`}</span>
        {node.terminal ? <TerminalMark outcome={node.terminal.outcome} /> : null}
      </div>
      <p className="truncate font-mono text-xs text-slate-900" title={node.actionText || undefined}>
        {isRoot ? "root" : node.actionText || <em className="text-slate-500">(no action)</em>}
      </p>
      <div className="flex items-center gap-1.5 text-[11px] text-slate-700">
        <span className="inline-flex items-center gap-1 font-semibold tabular-nums" title="V(s): the node's value, 0–1">
          <span aria-hidden="true" className="inline-block h-2 w-2 rounded-full" style={{ backgroundColor: placed.colour }} />
          {formatValue(node.value)}
        </span>
        <span className="tabular-nums" title="N(s): trajectories backpropagated through the node">
          N={node.visits}
        </span>
        {node.reflection ? (
          <span data-testid="tree-reflection-badge" title={node.reflection.text} className="rounded bg-amber-100 px-1 text-[10px] font-semibold text-amber-900">
            reflection
          </span>
        ) : null}
        {placed.descendants > 0 ? (
          <button
            type="button"
            data-testid="tree-collapse"
            data-descendants={placed.descendants}
            aria-expanded={!placed.collapsed}
            aria-label={placed.collapsed ? `Expand: show the ${placed.hiddenCount} hidden nodes under this one` : `Collapse: hide the ${placed.descendants} nodes under this one`}
            onClick={onToggle}
            className="nodrag nopan ml-auto rounded border border-slate-300 px-1 text-[10px] font-semibold leading-4 text-slate-700 hover:bg-slate-100"
          >
            {placed.collapsed ? <span data-testid="tree-hidden-count">+{placed.hiddenCount} hidden</span> : "−"}
          </button>
        ) : null}
      </div>
      <Handle type="source" id={TREE_HANDLES.children} position={Position.Bottom} isConnectable={false} />
    </div>
  );
});
