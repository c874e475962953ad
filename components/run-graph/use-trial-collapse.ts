"use client";

import { useEffect, useMemo, useRef, useState, type RefObject } from "react";
import { collapsedTrials, COLLAPSE_POLICY, createCollapsedViewDeriver, summarizeTrials, trialGroupNodeId, type RunGraph, type RunGraphView } from "@/lib/graph";
import { useRunUiStore } from "@/lib/store";
import type { RunGraphActions } from "./graph-context";

/** What {@link useTrialCollapse} gives the graph. */
export interface TrialCollapse {
  view: RunGraphView;
  actions: RunGraphActions;
  /** Trials in the run. */
  trialCount: number;
  /** Expand every trial (the reader's choice for each). */
  expandAll: () => void;
  /** Collapse every trial but the newest `COLLAPSE_POLICY.keepRecent` (a trial in progress stays open). */
  collapseOld: () => void;
  /** Finished trials older than the newest `keepRecent` that are expanded (what "Collapse old trials" would fold). */
  expandedOld: number;
  /** Id of the node to focus after the last expand / collapse (its header, or its group), consumed by the caller. */
  focusTargetRef: RefObject<string | null>;
}

/**
 * Collapsed trials of one graph: the default of lib/graph/collapse.ts (old
 * trials of a long run start collapsed) plus the reader's own choices, which
 * this hook keeps; the selected node's trial and the trial in progress always
 * stay expanded. Collapsing the trial of the selected node closes the
 * inspector (the selection would otherwise keep it open).
 */
export function useTrialCollapse(graph: RunGraph, mode: "auto" | "off"): TrialCollapse {
  const selectedNodeId = useRunUiStore((state) => state.selectedNodeId);
  const closeInspector = useRunUiStore((state) => state.closeInspector);
  const [overrides, setOverrides] = useState<ReadonlyMap<number, boolean>>(() => new Map());
  const [deriveView] = useState(createCollapsedViewDeriver);
  const focusTargetRef = useRef<string | null>(null);

  const summaries = useMemo(() => summarizeTrials(graph), [graph]);
  const collapsed = useMemo(() => collapsedTrials({ graph, mode, overrides, selectedNodeId }), [graph, mode, overrides, selectedNodeId]);
  const view = useMemo(() => deriveView(graph, collapsed), [deriveView, graph, collapsed]);

  // Read through refs so the actions stay the same functions for the graph's life (memoised nodes never re-render for them).
  const latest = useRef({ summaries, graph, selectedNodeId, closeInspector });
  useEffect(() => {
    latest.current = { summaries, graph, selectedNodeId, closeInspector };
  }, [summaries, graph, selectedNodeId, closeInspector]);

  const controls = useMemo(
    () => ({
      expandTrial: (trial: number) => {
        const header = latest.current.summaries.get(trial)?.trialNodeId;
        focusTargetRef.current = header ?? null;
        setOverrides((current) => new Map(current).set(trial, false));
      },
      collapseTrial: (trial: number) => {
        const { summaries: known, graph: current, selectedNodeId: selected, closeInspector: close } = latest.current;
        const header = known.get(trial)?.trialNodeId;
        focusTargetRef.current = header ? trialGroupNodeId(header) : null;
        const selectedNode = selected ? current.nodes.find((node) => node.id === selected) : undefined;
        if (selectedNode && selectedNode.type !== "lane" && selectedNode.data.trial === trial) close();
        setOverrides((overridden) => new Map(overridden).set(trial, true));
      },
      expandAll: () => {
        focusTargetRef.current = null;
        setOverrides(new Map([...latest.current.summaries.keys()].map((trial) => [trial, false])));
      },
      collapseOld: () => {
        focusTargetRef.current = null;
        const all = [...latest.current.summaries.keys()];
        setOverrides(new Map(all.map((trial, index) => [trial, index < all.length - COLLAPSE_POLICY.keepRecent])));
      },
    }),
    [],
  );

  const trials = [...summaries.keys()];
  const old = trials.slice(0, Math.max(0, trials.length - COLLAPSE_POLICY.keepRecent));
  const collapsedSet = new Set(view.collapsed);
  const expandedOld = old.filter((trial) => !collapsedSet.has(trial) && summaries.get(trial)?.outcome !== null).length;
  const { expandTrial, collapseTrial, expandAll, collapseOld } = controls;
  const actions = useMemo<RunGraphActions>(() => ({ expandTrial, collapseTrial }), [expandTrial, collapseTrial]);

  return { view, actions, trialCount: trials.length, expandAll, collapseOld, expandedOld, focusTargetRef };
}
