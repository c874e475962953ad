"use client";

import { useCallback, useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from "react";
import type { RunGraph } from "@/lib/graph";
import { transcriptElementId } from "@/lib/graph/transcript";
import { useRunUiStore, type MainView } from "@/lib/store";
import { cn } from "@/lib/utils/cn";
import { RunTranscript } from "./run-transcript";

/** Where the chosen view is remembered between visits (a screen-reader user picks the transcript once). */
const VIEW_KEY = "reflexion-run-view";

const VIEWS: Array<{ id: MainView; label: string }> = [
  { id: "graph", label: "Graph" },
  { id: "transcript", label: "Transcript" },
];
/** The views of a tree-search run (LATS): its search tree first. */
const TREE_VIEWS: Array<{ id: MainView; label: string }> = [{ id: "tree", label: "Search tree" }, ...VIEWS];

/** The element that stands for `nodeId` in `view`, once it is drawn. */
function elementOf(view: MainView, nodeId: string): HTMLElement | null {
  if (view === "transcript") return document.getElementById(transcriptElementId(nodeId));
  return document.querySelector<HTMLElement>(`.run-graph .react-flow__node[data-id="${CSS.escape(nodeId)}"]`);
}

/** Focuses the selected node's place in `view` over the next few frames (React Flow draws a commit or two late). */
function focusSelectedIn(view: MainView, nodeId: string): void {
  let tries = 0;
  const attempt = () => {
    const element = elementOf(view, nodeId);
    if (element) element.focus();
    else if (tries < 20) {
      tries += 1;
      requestAnimationFrame(attempt);
    }
  };
  requestAnimationFrame(attempt);
}

/**
 * The run's main area as two tabs: the graph, and the transcript (its text
 * alternative, components/transcript). The two share the run UI store's
 * selection: choosing a tab with a node selected moves focus to that node's
 * place in the other view. While the graph is shown, a visually hidden copy
 * of the transcript comes before it, so a screen reader reads the run as text
 * by default. ← / → move between the tabs (WAI-ARIA tabs pattern, automatic
 * activation); the choice is remembered in this browser. A tree-search run (LATS) passes its
 * search tree view as `tree`: a "Search tree" tab comes first and is shown unless the transcript
 * was chosen.
 */
export function RunMainViews({
  graph,
  tree,
  openOnTree = true,
  children,
}: {
  graph: RunGraph;
  /** The search tree view of a tree-search run; absent for every other method. */
  tree?: ReactNode;
  /** Open on the tree tab when there is one (false in a lesson, whose spotlights are on the graph's lanes). */
  openOnTree?: boolean;
  /** The graph view (the canvas, or its loading / empty state). */
  children?: ReactNode;
}) {
  const storedView = useRunUiStore((state) => state.mainView);
  const setView = useRunUiStore((state) => state.setMainView);
  const baseId = useId();
  const tabRefs = useRef<Record<MainView, HTMLButtonElement | null>>({ graph: null, transcript: null, tree: null });
  const views = tree ? TREE_VIEWS : VIEWS;
  // A run without a tree never shows the tree tab, whatever was chosen on a LATS run.
  const view: MainView = storedView === "tree" && !tree ? "graph" : storedView;

  useEffect(() => {
    const stored = window.localStorage.getItem(VIEW_KEY);
    if (stored === "transcript" || stored === "graph") setView(stored);
  }, [setView]);
  // A tree-search run opens on its tree, unless the transcript is the reader's choice.
  const hasTree = tree !== undefined;
  useEffect(() => {
    if (hasTree && openOnTree && window.localStorage.getItem(VIEW_KEY) !== "transcript") setView("tree");
  }, [hasTree, openOnTree, setView]);

  // The selection at the moment a tab is chosen.
  const selected = useRunUiStore((state) => state.selectedNodeId);
  const selectedRef = useRef<string | null>(selected);
  useEffect(() => {
    selectedRef.current = selected;
  }, [selected]);

  const choose = useCallback(
    (next: MainView, moveFocus: "tab" | "content") => {
      setView(next);
      // The tree tab exists on tree-search runs only: remembering it would mean nothing elsewhere.
      if (next !== "tree") window.localStorage.setItem(VIEW_KEY, next);
      if (moveFocus === "tab") {
        tabRefs.current[next]?.focus();
        return;
      }
      if (selectedRef.current) focusSelectedIn(next, selectedRef.current);
    },
    [setView],
  );
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      if (event.key !== "ArrowLeft" && event.key !== "ArrowRight" && event.key !== "Home" && event.key !== "End") return;
      if (event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      const index = views.findIndex((entry) => entry.id === view);
      const nextIndex = event.key === "Home" ? 0 : event.key === "End" ? views.length - 1 : (index + (event.key === "ArrowRight" ? 1 : views.length - 1)) % views.length;
      const next = views[nextIndex];
      if (next) choose(next.id, "tab");
    },
    [view, views, choose],
  );

  const tabId = (id: MainView) => `${baseId}-tab-${id}`;
  const panelId = (id: MainView) => `${baseId}-panel-${id}`;

  return (
    <>
      <div role="tablist" aria-label="Run view" className="flex flex-none gap-1 border-b border-slate-200 bg-slate-50 px-3 pt-1.5" onKeyDown={onKeyDown} data-testid="run-view-tabs">
        {views.map((entry) => (
          <button
            key={entry.id}
            ref={(element) => {
              tabRefs.current[entry.id] = element;
            }}
            type="button"
            role="tab"
            id={tabId(entry.id)}
            aria-selected={view === entry.id}
            aria-controls={view === entry.id || entry.id === "graph" ? panelId(entry.id) : undefined}
            tabIndex={view === entry.id ? 0 : -1}
            data-testid={`run-view-${entry.id}`}
            onClick={() => choose(entry.id, "content")}
            className={cn(
              "-mb-px rounded-t-md border px-3 py-1 text-xs font-medium",
              view === entry.id ? "border-slate-200 border-b-white bg-white text-slate-900" : "border-transparent text-slate-700 hover:text-slate-900",
            )}
          >
            {entry.label}
          </button>
        ))}
      </div>
      {/* The graph stays mounted while the transcript is shown (hidden): coming back keeps its pan, zoom and collapsed trials. */}
      <div role="tabpanel" id={panelId("graph")} aria-labelledby={tabId("graph")} hidden={view !== "graph"} className="relative min-h-0 flex-1" data-testid="run-graph-viewport">
        {view === "graph" ? <RunTranscript graph={graph} visuallyHidden /> : null}
        {children}
      </div>
      {view === "tree" && tree ? (
        <div role="tabpanel" id={panelId("tree")} aria-labelledby={tabId("tree")} className="relative flex min-h-0 flex-1 flex-col bg-white" data-testid="run-tree-panel">
          {tree}
        </div>
      ) : null}
      {view === "transcript" ? (
        <div role="tabpanel" id={panelId("transcript")} aria-labelledby={tabId("transcript")} className="min-h-0 flex-1 bg-white" data-testid="run-transcript-panel">
          <RunTranscript graph={graph} />
        </div>
      ) : null}
    </>
  );
}
