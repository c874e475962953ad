"use client";

import { createContext, useContext } from "react";

/**
 * What node components may ask of the graph around them, without callbacks in
 * node data (DESIGN.md §5): collapse or expand a trial. The functions are
 * stable for the life of the graph, so memoised nodes never re-render for them.
 */
export interface RunGraphActions {
  collapseTrial: (trial: number) => void;
  expandTrial: (trial: number) => void;
}

const NO_ACTIONS: RunGraphActions = { collapseTrial: () => {}, expandTrial: () => {} };

/** Provided by RunGraph; a node rendered elsewhere (a test) gets inert actions. */
export const RunGraphActionsContext = createContext<RunGraphActions>(NO_ACTIONS);

/** The collapse / expand actions of the enclosing run graph. */
export function useRunGraphActions(): RunGraphActions {
  return useContext(RunGraphActionsContext);
}

/**
 * How nodes render in this graph. `animateEntry`: play the appear animation when a node
 * mounts — on for small graphs (a new step fades in), off when only visible nodes are
 * rendered (nodes mount while panning, and should not fade in each time).
 */
export interface RenderMode {
  animateEntry: boolean;
}

/** Provided by RunGraph; outside one (a test), nodes animate in as they always did. */
export const RenderModeContext = createContext<RenderMode>({ animateEntry: true });

/** The enclosing graph's {@link RenderMode}. */
export function useRenderMode(): RenderMode {
  return useContext(RenderModeContext);
}

/**
 * How many notes people left on each node (lib/query/annotation-queries.ts `annotationCounts`), by
 * node id (= event id). One map for the graph, fetched once by the page: no node asks the server.
 */
export const AnnotationCountsContext = createContext<ReadonlyMap<string, number>>(new Map());

/** The number of notes on node `id` (0 when none, or outside a graph). */
export function useAnnotationCount(id: string): number {
  return useContext(AnnotationCountsContext).get(id) ?? 0;
}
