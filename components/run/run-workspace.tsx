"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from "react";
import type { RunStatus } from "@/lib/domain/api";
import { foldRun, type RunState } from "@/lib/domain/fold-run";
import { createRunGraphDeriver } from "@/lib/graph";
import { isNotFound, runQuery, useRunEvents } from "@/lib/query";
import { RunUiStoreProvider, SIDE_PANEL_MAX, SIDE_PANEL_MIN, useRunUiStore } from "@/lib/store";
import { InspectorPanel } from "@/components/inspector";
import { MemoryPanel } from "@/components/memory";
import { RunGraph } from "@/components/run-graph";
import { Button } from "@/components/ui/button";
import { EmptyState, Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { RunHeader } from "./run-header";
import { INTERRUPTED_MESSAGE, pauseBanner } from "./run-messages";

/** What the log and the server say about the run, in words, when it needs the user's attention. */
function RunBanners({ state, status }: { state: RunState; status: RunStatus | null }) {
  const pause = state.pause ? pauseBanner(state.pause, { canEditMemory: state.memory.length > 0 }) : null;
  return (
    <>
      {status === "interrupted" ? (
        <Notice tone="warning" data-testid="interrupted-banner" className="mx-4 mt-2">
          {INTERRUPTED_MESSAGE}
        </Notice>
      ) : null}
      {status === "paused" && pause ? (
        <Notice tone="warning" data-testid="paused-banner" className="mx-4 mt-2">
          <strong className="font-semibold">{pause.headline}</strong>
          {pause.detail ? <> {pause.detail}</> : null} <span data-testid="paused-instruction">{pause.instruction}</span>
        </Notice>
      ) : null}
      {status === "error" || state.error ? (
        <Notice tone="error" data-testid="error-banner" className="mx-4 mt-2" title="The run stopped with an error">
          {state.error ? `${state.error.message} (${state.error.code})` : "See the server log for details."}
        </Notice>
      ) : null}
      {status === "ended" && state.outcome ? (
        <Notice tone={state.outcome === "success" ? "success" : "info"} data-testid="ended-banner" className="mx-4 mt-2">
          {state.outcome === "success"
            ? `Solved in trial ${state.trials.length}.`
            : state.outcome === "cancelled"
              ? "The run was cancelled."
              : `Not solved within ${state.trials.length} ${state.trials.length === 1 ? "trial" : "trials"}.`}
        </Notice>
      ) : null}
    </>
  );
}

/** A vertical drag handle that resizes the right-hand column (also with ← / → when focused). */
function SidePanelResizer() {
  const width = useRunUiStore((store) => store.sidePanelWidth);
  const setWidth = useRunUiStore((store) => store.setSidePanelWidth);
  const start = useRef<{ x: number; width: number } | null>(null);

  const onPointerDown = useCallback(
    (event: ReactPointerEvent<HTMLDivElement>) => {
      start.current = { x: event.clientX, width };
      event.currentTarget.setPointerCapture(event.pointerId);
    },
    [width],
  );
  const onPointerMove = useCallback(
    (event: ReactPointerEvent<HTMLDivElement>) => {
      if (start.current) setWidth(start.current.width + (start.current.x - event.clientX));
    },
    [setWidth],
  );
  const onPointerUp = useCallback(() => {
    start.current = null;
  }, []);

  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize side panel"
      aria-valuenow={width}
      aria-valuemin={SIDE_PANEL_MIN}
      aria-valuemax={SIDE_PANEL_MAX}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onKeyDown={(event) => {
        if (event.key === "ArrowLeft") setWidth(width + 24);
        if (event.key === "ArrowRight") setWidth(width - 24);
      }}
      className="w-1.5 flex-none cursor-col-resize bg-slate-200 transition-colors hover:bg-sky-300 focus-visible:bg-sky-400"
    />
  );
}

function Workspace({ runId }: { runId: string }) {
  const detail = useQuery(runQuery(runId));
  const { events, status, connection, isPending, error } = useRunEvents(runId);
  const state = useMemo(() => foldRun(events), [events]);
  // One memoising deriver per workspace: unchanged nodes keep their identity across events.
  const [deriveGraph] = useState(createRunGraphDeriver);
  const graph = useMemo(() => deriveGraph(state), [deriveGraph, state]);
  const sidePanelWidth = useRunUiStore((store) => store.sidePanelWidth);
  const inspectorOpen = useRunUiStore((store) => store.inspectorOpen);
  const effectiveStatus = status ?? detail.data?.run.status ?? null;

  if (isNotFound(detail.error) || isNotFound(error)) {
    return (
      <EmptyState
        title="Run not found"
        action={
          <Link href="/" className="text-sm font-medium text-sky-700 underline">
            Back to all runs
          </Link>
        }
      >
        There is no run with id <code className="font-mono">{runId}</code>. It may have been created against another database.
      </EmptyState>
    );
  }
  if (error && events.length === 0) {
    return (
      <EmptyState title="Could not load this run" action={<Button onClick={() => window.location.reload()}>Try again</Button>}>
        {error.message}
      </EmptyState>
    );
  }
  if (isPending) {
    return (
      <div className="flex flex-1 items-center justify-center gap-2 text-sm text-slate-600">
        <Spinner /> Loading the run…
      </div>
    );
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="run-workspace" data-run-id={runId}>
      <RunHeader runId={runId} detail={detail.data?.run} state={state} status={effectiveStatus} connection={connection} />
      <RunBanners state={state} status={effectiveStatus} />
      <div className="flex min-h-0 flex-1">
        <main className="relative min-w-0 flex-1" aria-label="Run graph" data-testid="run-graph">
          {graph.nodes.length === 0 ? (
            <EmptyState title={effectiveStatus === "running" ? "Starting the first trial…" : "No trial in this run yet"} className="h-full">
              {effectiveStatus === "running" ? <Spinner label="Waiting for events" /> : null}
            </EmptyState>
          ) : (
            <RunGraph graph={graph} live={effectiveStatus === "running"} />
          )}
        </main>
        <SidePanelResizer />
        <aside className="flex min-h-0 flex-none flex-col overflow-hidden bg-white" style={{ width: sidePanelWidth }} aria-label="Inspector and memory">
          <div className={inspectorOpen ? "flex min-h-0 flex-[3] flex-col border-b border-slate-200" : "flex-none border-b border-slate-200"}>
            <InspectorPanel graph={graph} state={state} />
          </div>
          <div className={inspectorOpen ? "min-h-0 flex-[2] overflow-y-auto" : "min-h-0 flex-1 overflow-y-auto"}>
            <MemoryPanel runId={runId} state={state} status={effectiveStatus} />
          </div>
        </aside>
      </div>
    </div>
  );
}

/** The run page: header and controls, the live graph, the inspector and the memory panel. */
export function RunWorkspace({ runId }: { runId: string }) {
  return (
    // keyed by run: selection, layout caches and the graph deriver never leak from one run to the next
    <RunUiStoreProvider key={runId}>
      <Workspace runId={runId} />
    </RunUiStoreProvider>
  );
}
