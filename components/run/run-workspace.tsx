// Over 400 lines: the run page's layout wires the graph, inspector, steer panel, memory and replay
// cursor to one store; each panel is its own file.
"use client";

// Over 400 lines: the run page's layout (graph, side column, phone panes, lesson dock, replay) and the
// one place that derives the view from the log prefix at the cursor; its panels are their own components.

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useCallback, useMemo, useRef, useState, type CSSProperties, type PointerEvent as ReactPointerEvent, type ReactNode } from "react";
import { isTerminalStatus } from "@/lib/domain/status";
import { foldRun, type RunState } from "@/lib/domain/fold-run";
import { createReplayFolder } from "@/lib/domain/replay-fold";
import { forkOutlookAfterEvaluation } from "@/lib/domain/fork-outlook";
import { branchTree, createRunGraphDeriver, reflectionAt } from "@/lib/graph";
import { replayPrefix, replayStep } from "@/lib/graph/replay-cursor";
import type { ShownStatus } from "@/lib/domain/shown-status";
import { parseRunUrlState, serializeRunUrlState } from "@/lib/query/url-state";
import { branchesQuery, callInFlightView, isNotFound, runQuery, useLiveCall, useRunEvents } from "@/lib/query";
import { RunUiStoreProvider, SIDE_PANEL_MAX, SIDE_PANEL_MIN, useRunUiStore, type MobilePane, type SideTab } from "@/lib/store";
import { InspectorPanel } from "@/components/inspector";
import { MemoryPanel } from "@/components/memory";
import { practiceCursor, ReflectionPractice } from "@/components/reflection-practice";
import { ReplayBar, RunUrlSync } from "@/components/replay";
import { branchSummariesAtCursor, displayedStatus, forkPointsAtCursor } from "@/components/replay/view-at-cursor";
import { RunGraph } from "@/components/run-graph";
import { ForkFromNode, SearchTreePanel } from "@/components/tree-search";
import { AnnotationThread } from "@/components/inspector/annotation-thread";
import { emptyTree, type TreeNodeView } from "@/lib/domain/tree-search";
import { methodDescriptor } from "@/lib/methods/registry";
import { RunMainViews } from "@/components/transcript";
import { Button } from "@/components/ui/button";
import { EmptyState, Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils/cn";
import { RoleReadOnlyNote } from "@/components/auth/role-read-only-note";
import { mayChangeRun } from "@/lib/domain/run-permissions";
import { useMe } from "@/lib/query/me-queries";
import { ActionText } from "./action-text";
import { BranchTree } from "./branch-switcher";
import { ForkDialog, type ForkTarget } from "./fork-dialog";
import { RunHeader } from "./run-header";
import { INTERRUPTED_MESSAGE, pauseBanner } from "./run-messages";
import { SteerPanel } from "./steer-panel";
import { RunCosts } from "@/components/costs/run-costs";
import { familyDescriptor } from "@/lib/environments/descriptors";
import { annotationCounts, annotationsQuery } from "@/lib/query/annotation-queries";

/** What the log and the server say about the run, in words, when it needs the user's attention. */
function RunBanners({ state, status }: { state: RunState; status: ShownStatus | null }) {
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
          <span data-reason={state.pause?.reason} data-at={state.pause?.at ?? undefined} data-testid="paused-reason">
            <strong className="font-semibold">{pause.headline}</strong>
            {pause.detail ? (
              <>
                {" "}
                <span data-testid="pause-detail">{pause.detail}</span>
              </>
            ) : null}
          </span>{" "}
          <span data-testid="paused-instruction">{pause.instruction}</span>
        </Notice>
      ) : null}
      {state.pendingAction && (status === null || (status !== "replaying" && !isTerminalStatus(status))) ? (
        <Notice tone="info" data-testid="pending-action-banner" className="mx-4 mt-2">
          Next action written by a person (trial {state.pendingAction.trial}, step {state.pendingAction.step}):{" "}
          {state.config && familyDescriptor(state.config.environment).step.actionIsCode ? (
            <>
              the Actor makes no model call for it.
              <ActionText text={state.pendingAction.text} code testId="pending-action-banner-text" />
            </>
          ) : (
            <>
              <ActionText text={state.pendingAction.text} code={false} testId="pending-action-banner-text" /> — the Actor makes no model call for it.
            </>
          )}
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
              ? state.fork
                ? "This branch was cancelled; the other branches are untouched."
                : "The run was cancelled."
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
      className="hidden w-1.5 flex-none cursor-col-resize bg-slate-200 transition-colors hover:bg-sky-300 focus-visible:bg-sky-400 lg:block"
    />
  );
}

const SIDE_TABS: Array<{ id: SideTab; label: string }> = [
  { id: "memory", label: "Memory" },
  { id: "steer", label: "Steer" },
];

/** Memory | Steer tabs for the lower half of the side column. */
function SideTabs() {
  const tab = useRunUiStore((store) => store.sideTab);
  const setTab = useRunUiStore((store) => store.setSideTab);
  return (
    <div role="tablist" aria-label="Side panel" className="flex flex-none gap-1 border-b border-slate-200 bg-slate-50 px-3 pt-1.5">
      {SIDE_TABS.map((entry) => (
        <button
          key={entry.id}
          type="button"
          role="tab"
          aria-selected={tab === entry.id}
          data-testid={`side-tab-${entry.id}`}
          onClick={() => setTab(entry.id)}
          className={cn(
            "-mb-px rounded-t-md border px-3 py-1 text-xs font-medium",
            tab === entry.id ? "border-slate-200 border-b-white bg-white text-slate-900" : "border-transparent text-slate-600 hover:text-slate-900",
          )}
        >
          {entry.label}
        </button>
      ))}
    </div>
  );
}

const MOBILE_PANES: Array<{ id: MobilePane; label: string }> = [
  { id: "graph", label: "Graph" },
  { id: "details", label: "Details" },
  { id: "memory", label: "Memory" },
];

/** Below the lg breakpoint (1024 px): Graph | Details | Memory switch the one pane the run page shows. */
function MobilePaneTabs() {
  const pane = useRunUiStore((store) => store.mobilePane);
  const setPane = useRunUiStore((store) => store.setMobilePane);
  return (
    <div role="tablist" aria-label="Run page panes" className="flex flex-none gap-1 border-b border-slate-200 bg-white px-2 py-1.5 lg:hidden" data-testid="mobile-pane-tabs">
      {MOBILE_PANES.map((entry) => (
        <button
          key={entry.id}
          type="button"
          role="tab"
          aria-selected={pane === entry.id}
          data-testid={`mobile-pane-${entry.id}`}
          onClick={() => setPane(entry.id)}
          className={cn(
            "flex-1 rounded-md px-3 py-1.5 text-sm font-medium",
            pane === entry.id ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100",
          )}
        >
          {entry.label}
        </button>
      ))}
    </div>
  );
}

/** The `?branch=` of the page URL (null = the root branch), and a setter that keeps it in the URL. */
function useBranchParam(runId: string, rootBranchId: string | null): [string | null, (branchId: string) => void] {
  const searchParams = useSearchParams();
  const raw = searchParams.get("branch");
  const branch = raw && raw.trim() !== "" && raw !== rootBranchId ? raw : null;
  const select = useCallback(
    (branchId: string) => {
      const next = branchId === rootBranchId ? null : branchId;
      // On this page's path (a lesson plays the workspace under /lessons/:id), keeping the lesson's step; a new branch starts live.
      const onRunPage = window.location.pathname.startsWith("/runs/");
      const path = onRunPage ? `/runs/${encodeURIComponent(runId)}` : window.location.pathname;
      const url = `${path}${serializeRunUrlState({ ...parseRunUrlState(window.location.search), branch: next, cursor: null, node: null }, window.location.search)}`;
      // Next keeps useSearchParams in sync with the History API: no server round trip, reload keeps the branch.
      window.history.pushState(null, "", url);
    },
    [runId, rootBranchId],
  );
  return [branch, select];
}

function Workspace({ runId, dock }: { runId: string; dock?: ReactNode }) {
  const detail = useQuery(runQuery(runId));
  // Whether the signed-in person may change this run (sign-in off: yes); the server checks every request itself.
  const permission = mayChangeRun(useMe().data, detail.data?.run);
  const readOnly = permission.allowed ? null : permission.reason;
  const rootBranchId = detail.data?.run.rootBranchId ?? null;
  const [branch, selectBranch] = useBranchParam(runId, rootBranchId);
  const branches = useQuery(branchesQuery(runId));
  // People's notes on this branch's nodes: one list for the graph's badges and the inspector's "Notes".
  const notes = useQuery(annotationsQuery(runId, branch));
  const noteCounts = useMemo(() => annotationCounts(notes.data?.annotations ?? []), [notes.data]);
  const { events, status, activeCall, connection, isPending, error } = useRunEvents(runId, branch);
  // The text of the model call in flight (token deltas): not part of the log, drawn as the running node.
  const liveText = useLiveCall(runId, branch);
  // Replay: every view is the projection of the log's prefix at the cursor (null = live, the whole log).
  const cursor = useRunUiStore((store) => store.cursor);
  const presenter = useRunUiStore((store) => store.presenter);
  const shownEvents = useMemo(() => replayPrefix(events, cursor), [events, cursor]);
  const replaying = shownEvents.length < events.length;
  // Behind the end, from the nearest checkpoint of this log (lib/domain/replay-fold.ts): a move never refolds from zero.
  const replayFolder = useMemo(() => createReplayFolder(events), [events]);
  const state = useMemo(() => (replaying ? replayFolder.stateAt(shownEvents.length) : foldRun(shownEvents)), [replaying, replayFolder, shownEvents]);
  // Where a replay stands, in ReAct steps (null = live): the page says "replaying (step k of n)", never the prefix's "running".
  const replay = useMemo(() => (replaying ? replayStep(events, shownEvents.length) : null), [replaying, events, shownEvents.length]);
  // Checkpoints come from the whole log: a node on screen at a cursor forks from its checkpoint even when that lies past the cursor.
  const forkPoints = useMemo(() => forkPointsAtCursor(events, shownEvents.length), [events, shownEvents.length]);
  const sidePanelWidth = useRunUiStore((store) => store.sidePanelWidth);
  const inspectorOpen = useRunUiStore((store) => store.inspectorOpen);
  const sideTab = useRunUiStore((store) => store.sideTab);
  const mobilePane = useRunUiStore((store) => store.mobilePane);
  // The side column's width as a CSS variable: applied from the lg breakpoint up (below it the column is a full-width pane).
  const sideStyle = useMemo<CSSProperties & Record<"--side-panel-width", string>>(() => ({ "--side-panel-width": `${sidePanelWidth}px` }), [sidePanelWidth]);
  const selectNode = useRunUiStore((store) => store.selectNode);
  const [forkTarget, setForkTarget] = useState<ForkTarget | null>(null);
  // The summary's status is the root branch's: use it only there, until the events answer.
  const effectiveStatus = status ?? (branch === null ? (detail.data?.run.status ?? null) : null);
  const callInFlight = status !== null ? activeCall : branch === null ? (detail.data?.run.activeCall ?? null) : null;
  // A worker is executing (or about to): the graph follows new nodes.
  const executing = !replaying && (effectiveStatus === "running" || effectiveStatus === "pausing" || effectiveStatus === "cancelling");
  // The running node: this tab's streamed text, else the server's call in flight (no text yet).
  const liveCall = useMemo(() => callInFlightView(liveText, executing ? callInFlight : null), [liveText, executing, callInFlight]);
  // One memoising deriver per workspace: unchanged nodes keep their identity across events and token deltas.
  const [deriveGraph] = useState(createRunGraphDeriver);
  const graph = useMemo(() => deriveGraph(state, liveCall), [deriveGraph, state, liveCall]);
  // A tree-search method (LATS) draws its search tree too: an empty one until the first selection.
  const treeMethod = state.config !== null && methodDescriptor(state.config.strategy).graph === "tree";
  const searchTree = useMemo(() => (treeMethod ? (state.tree ?? emptyTree()) : null), [treeMethod, state.tree]);
  const currentBranchId = branch ?? rootBranchId;
  // What the page says about the branch: live, its status; at a replay cursor, "replaying" — never the final outcome (a lesson's question would answer itself).
  const shownStatus = displayedStatus(effectiveStatus, replay);
  // The branch list is polled; the branch on screen has a live status from its own stream, which wins (at a cursor: the prefix's fold).
  const branchRows = useMemo(
    () => branchTree(branchSummariesAtCursor(branches.data?.branches ?? [], currentBranchId, state, status, replay)),
    [branches.data, currentBranchId, status, state, replay],
  );

  // A LATS run's selected tree node: search only under it, on a new branch; people's notes on it.
  const treeNodeActions = useCallback(
    (node: TreeNodeView) => (
      <>
        {readOnly ? null : (
          <ForkFromNode
            runId={runId}
            fromBranchId={currentBranchId}
            events={shownEvents}
            node={node}
            onForked={(branchId) => {
              selectNode(null);
              selectBranch(branchId);
            }}
          />
        )}
        {node.eventId ? (
          <div className="px-4 pb-4">
            <AnnotationThread runId={runId} branchId={branch} eventId={node.eventId} nodeType="tree-node" />
          </div>
        ) : null}
      </>
    ),
    [runId, currentBranchId, branch, shownEvents, selectNode, selectBranch, readOnly],
  );

  const onForkHere = useCallback(
    (nodeId: string) => {
      const point = forkPoints.get(nodeId);
      const node = graph.nodes.find((candidate) => candidate.id === nodeId);
      if (!point || !node || (node.type !== "evaluation" && node.type !== "reflection")) return;
      const atFork = reflectionAt(events, point.trial, point.atSeq);
      const current = state.trials.find((trial) => trial.trial === point.trial)?.reflection;
      setForkTarget({
        nodeKind: node.type,
        point,
        reflection: atFork ? { eventId: atFork.eventId, textAtFork: atFork.text, currentText: current?.eventId === atFork.eventId ? current.text : atFork.text } : null,
        outlook: node.type === "evaluation" ? forkOutlookAfterEvaluation(state, point.trial) : null,
      });
    },
    [forkPoints, graph.nodes, events, state],
  );

  // While the learner writes their own reflection, the page shows the log before the model's (graph, memory, inspector);
  // the cursor they had comes back on "Compare" (or when the exercise closes).
  const setCursor = useRunUiStore((store) => store.setCursor);
  const practiceRestore = useRef<{ cursor: number | null } | null>(null);
  const onPracticeWriting = useCallback(
    (trial: number, writing: boolean) => {
      if (writing) {
        if (practiceRestore.current) return;
        const hideAt = practiceCursor(events, trial, cursor);
        if (hideAt === cursor) return;
        practiceRestore.current = { cursor };
        setCursor(hideAt);
      } else if (practiceRestore.current) {
        const { cursor: before } = practiceRestore.current;
        practiceRestore.current = null;
        setCursor(before);
      }
    },
    [events, cursor, setCursor],
  );

  // "Write your own reflection" under a failed trial's evaluation; the fork it makes opens on this page.
  const practice = useCallback(
    (trial: number) => (
      <ReflectionPractice
        runId={runId}
        branchId={branch}
        trial={trial}
        onWriting={(writing) => onPracticeWriting(trial, writing)}
        readOnly={readOnly}
        onForked={(branchId) => {
          selectNode(null);
          selectBranch(branchId);
        }}
      />
    ),
    [runId, branch, selectNode, selectBranch, onPracticeWriting, readOnly],
  );

  const onSelectBranch = useCallback(
    (branchId: string) => {
      setForkTarget(null);
      selectBranch(branchId);
    },
    [selectBranch],
  );

  if (isNotFound(detail.error) || (isNotFound(error) && branch === null)) {
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
  if (isNotFound(error) && branch !== null) {
    return (
      <EmptyState
        title="Branch not found"
        action={
          <Link href={`/runs/${encodeURIComponent(runId)}`} className="text-sm font-medium text-sky-700 underline" data-testid="back-to-main-branch">
            Show the main branch
          </Link>
        }
      >
        This run has no branch <code className="font-mono">{branch}</code>.
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
  if (isPending && !detail.data) {
    return (
      <div className="flex flex-1 items-center justify-center gap-2 text-sm text-slate-600">
        <Spinner /> Loading the run…
      </div>
    );
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="run-workspace" data-run-id={runId} data-branch-id={currentBranchId ?? undefined}>
      {presenter ? null : (
        <RunHeader
          runId={runId}
          branch={branch}
          branchRows={branchRows}
          currentBranchId={currentBranchId}
          onSelectBranch={onSelectBranch}
          detail={detail.data?.run}
          state={state}
          status={effectiveStatus}
          shownStatus={shownStatus}
          replay={replay}
          activeCall={callInFlight}
          connection={connection}
          readOnly={readOnly}
        />
      )}
      <RunBanners state={state} status={shownStatus} />
      {/* Presenter mode (a lesson on a projector) hides the run's controls and read-outs. */}
      {presenter ? null : <RunCosts runId={runId} branch={branch} state={state} status={effectiveStatus} readOnly={readOnly} />}
      <ReplayBar events={events} compact={presenter} />
      <RunUrlSync events={events} branch={currentBranchId} />
      <MobilePaneTabs />
      {/* Below lg the panes keep most of the screen's height; the run header above scrolls away with the page. */}
      <div className="flex min-h-0 flex-1 flex-col max-lg:min-h-[80svh] max-lg:flex-none lg:flex-row" data-testid="run-panes" data-pane={mobilePane}>
        {dock}
        <main
          className={cn("relative min-h-0 min-w-0 flex-1 flex-col", mobilePane === "graph" ? "flex" : "hidden", "lg:flex", presenter && "max-lg:h-[70svh] max-lg:flex-none")}
          aria-label="Run graph"
          data-testid="run-graph"
        >
          {/* Docked above the graph, never over it: no lane header is ever covered. */}
          <BranchTree rows={branchRows} current={currentBranchId} onSelect={onSelectBranch} noForkHint={state.config?.provenance?.kind === "external-trace" ? "An imported trace stays as recorded: reflect on its failure on the Agent traces page." : null} />
          <RunMainViews graph={graph} tree={searchTree ? <SearchTreePanel tree={searchTree} nodeActions={treeNodeActions} /> : undefined} openOnTree={!dock}>
            {isPending ? (
              <div className="flex h-full items-center justify-center gap-2 text-sm text-slate-600">
                <Spinner /> Loading the branch…
              </div>
            ) : graph.nodes.length === 0 ? (
              <EmptyState
                title={executing ? "Starting the first trial…" : effectiveStatus === "queued" ? "Queued: waiting for a free worker slot" : "No trial in this run yet"}
                className="h-full"
              >
                {executing ? <Spinner label="Waiting for events" /> : null}
                {effectiveStatus === "queued" ? (
                  <p data-testid="queued-explanation">
                    At most REFLEXION_CONCURRENCY runs (default 4) execute at once; this one starts on its own when another finishes or pauses.
                  </p>
                ) : null}
              </EmptyState>
            ) : (
              <RunGraph graph={graph} live={executing} annotationCounts={noteCounts} />
            )}
          </RunMainViews>
        </main>
        <SidePanelResizer />
        <aside
          className={cn("min-h-0 flex-col overflow-hidden bg-white lg:w-(--side-panel-width) lg:flex-none", mobilePane === "graph" ? "hidden" : "flex flex-1", "lg:flex")}
          style={sideStyle}
          aria-label="Inspector and memory"
          data-testid="run-side-panel"
        >
          <div
            className={cn(
              inspectorOpen ? "flex min-h-0 flex-[3] flex-col border-b border-slate-200" : "flex-none border-b border-slate-200",
              mobilePane === "memory" ? "max-lg:hidden" : mobilePane === "details" ? "max-lg:flex-1" : null,
            )}
          >
            <InspectorPanel graph={graph} state={state} forkPoints={forkPoints} onForkHere={readOnly ? undefined : onForkHere} practice={practice} notes={{ runId, branchId: branch }} />
          </div>
          <div className={cn("flex min-h-0 flex-col", inspectorOpen ? "flex-[2]" : "flex-1", mobilePane === "details" ? "max-lg:hidden" : null)}>
            <SideTabs />
            {/* Focusable: its content scrolls, and may hold no control to reach it by keyboard (the memory panel of a new run). */}
            <div className="min-h-0 flex-1 overflow-y-auto" role="tabpanel" tabIndex={0} aria-label={sideTab === "memory" ? "Memory" : "Steer"}>
              {sideTab === "memory" ? (
                <MemoryPanel key={currentBranchId ?? "root"} runId={runId} branch={branch} state={state} status={effectiveStatus} readOnly={readOnly} />
              ) : readOnly ? (
                <RoleReadOnlyNote reason={readOnly} className="m-4" />
              ) : (
                <SteerPanel key={currentBranchId ?? "root"} runId={runId} branch={branch} state={state} status={effectiveStatus} />
              )}
            </div>
          </div>
        </aside>
      </div>
      {forkTarget ? (
        <ForkDialog
          runId={runId}
          fromBranchId={currentBranchId}
          target={forkTarget}
          provenance={state.config?.provenance ?? null}
          onClose={() => setForkTarget(null)}
          onForked={(branchId) => {
            setForkTarget(null);
            selectNode(null);
            selectBranch(branchId);
          }}
        />
      ) : null}
    </div>
  );
}

/** The run page: header and controls, the live graph, the inspector and the memory panel. */
export function RunWorkspace({ runId, dock }: { runId: string; /** A docked panel beside the graph, never over it (a lesson's narration, components/lessons); rendered inside the run's UI store. */ dock?: ReactNode }) {
  return (
    // keyed by run: selection, layout caches and the graph deriver never leak from one run to the next
    <RunUiStoreProvider key={runId}>
      <Workspace runId={runId} dock={dock} />
    </RunUiStoreProvider>
  );
}
