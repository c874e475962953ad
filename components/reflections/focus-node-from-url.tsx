"use client";

import { useEffect, useRef } from "react";
import type { RunState } from "@/lib/domain/fold-run";
import { useRunUiStore } from "@/lib/store";

/** The URL parameter naming the graph node to open: `/runs/:id?node=<event id>` (e.g. a reflection from /reflections). */
export const NODE_PARAM = "node";

/** The link to a run with one node (a reflection, an evaluation, a trial) selected and its inspector open. */
export function runNodeHref(runId: string, nodeId: string): string {
  return `/runs/${encodeURIComponent(runId)}?${NODE_PARAM}=${encodeURIComponent(nodeId)}`;
}

/** Event ids of a run's trial, evaluation and reflection nodes, the nodes a link may name. */
function linkableNodeIds(state: Pick<RunState, "trials">): Set<string> {
  const ids = new Set<string>();
  for (const trial of state.trials) {
    ids.add(trial.startEventId);
    if (trial.evaluation) ids.add(trial.evaluation.eventId);
    if (trial.reflection) ids.add(trial.reflection.eventId);
  }
  return ids;
}

/**
 * Selects the node named by `?node=` once the run's events contain it, so a
 * link from the reflections list opens the run at that reflection (inspector
 * open, its trial expanded). Once per node id; renders nothing.
 */
export function FocusNodeFromUrl({ state }: { state: Pick<RunState, "trials"> }) {
  const selectNode = useRunUiStore((store) => store.selectNode);
  const done = useRef<string | null>(null);
  const ids = linkableNodeIds(state);
  const key = [...ids].join(" ");
  useEffect(() => {
    // Read in the browser only (the page URL; no router context needed, so the header renders anywhere).
    const nodeId = new URLSearchParams(window.location.search).get(NODE_PARAM);
    if (nodeId === null || done.current === nodeId || !key.split(" ").includes(nodeId)) return;
    done.current = nodeId;
    selectNode(nodeId);
  }, [key, selectNode]);
  return null;
}
