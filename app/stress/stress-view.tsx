"use client";

import { useEffect, useMemo, useSyncExternalStore } from "react";
import { foldRun, type RunState } from "@/lib/domain/fold-run";
import { createRunGraphDeriver, type RunGraph as RunGraphModel } from "@/lib/graph";
import { firstDivergence } from "@/lib/graph/compare";
import { STRESS_MAX_TRIALS, stressRunEvents } from "@/lib/graph/stress-run";
import { RunUiStoreProvider } from "@/lib/store";
import { TrialLanes } from "@/components/compare";
import { RunGraph } from "@/components/run-graph";
import type { StressParams } from "./stress-params";
import { StressReplayView } from "./stress-replay-view";
import { StressTreeView } from "./stress-tree-view";

/** What the page exposes to bench/graph.bench.ts (`window.__stressGraph`). */
export interface StressFigures {
  runs: Array<{ events: number; nodes: number; edges: number }>;
  /** Time to build and schema-check the synthetic logs (ms): not the graph's cost, reported apart. */
  eventsMs: number;
  /** Time to fold the logs and derive their graphs (ms). */
  graphMs: number;
}

declare global {
  interface Window {
    __stressGraph?: StressFigures;
  }
}

interface StressRun {
  label: string;
  state: RunState;
  graph: RunGraphModel;
  events: number;
}

/** How many trials of `family` make about `nodes` graph nodes (from a 4-trial sample run's graph), 1–{@link STRESS_MAX_TRIALS}. */
function trialsForNodes(nodes: number, family: StressParams["family"], seed: number): number {
  const sample = createRunGraphDeriver()(foldRun(stressRunEvents({ trials: 4, family, seed, idPrefix: "sample" })));
  return Math.min(STRESS_MAX_TRIALS, Math.max(1, Math.round((nodes / sample.nodes.length) * 4)));
}

/** Builds the runs once, on the client (no server, no database): logs → fold → graph deriver. */
function buildRuns(params: StressParams): { runs: StressRun[]; figures: StressFigures } {
  const { family, view, seed } = params;
  const seeds = view === "single" ? [seed] : [seed, seed + 1];
  const started = performance.now();
  const trials = params.nodes === null ? params.trials : trialsForNodes(params.nodes, family, seed);
  const logs = seeds.map((runSeed, index) => stressRunEvents({ trials, family, seed: runSeed, idPrefix: `stress${index + 1}` }));
  const logsReady = performance.now();
  const runs = logs.map((events, index) => {
    const state = foldRun(events);
    return {
      label: `Run ${index + 1} · ${family} · ${trials} ${trials === 1 ? "trial" : "trials"} · seed ${seeds[index]}`,
      state,
      // The compare view reads the folded trials only.
      graph: view === "compare" ? { nodes: [], edges: [] } : createRunGraphDeriver()(state),
      events: events.length,
    };
  });
  const graphsReady = performance.now();
  return {
    runs,
    figures: {
      runs: runs.map((run) => ({ events: run.events, nodes: run.graph.nodes.length, edges: run.graph.edges.length })),
      eventsMs: Math.round(logsReady - started),
      graphMs: Math.round(graphsReady - logsReady),
    },
  };
}

/** The compare view's trial lanes (components/compare) for the runs, in a scrolling pane as on /compare. */
function CompareLanes({ runs }: { runs: StressRun[] }) {
  const divergence = useMemo(() => firstDivergence(runs.map((run) => run.state.trials)), [runs]);
  const lanes = useMemo(() => runs.map((run) => ({ name: run.label, trials: run.state.trials, endNote: "the run ended" })), [runs]);
  return (
    <div className="min-h-0 flex-1 overflow-y-auto px-4 py-3" data-testid="stress-scroll">
      <TrialLanes runs={lanes} divergence={divergence} />
    </div>
  );
}

const subscribeNever = () => () => {};

/**
 * The stress page's client side: one RunGraph (`single`), two side by side (`graphs`), each
 * with its own UI store, or the compare view's trial lanes of two runs (`compare`). Like the
 * run page, whose events arrive after hydration, the runs are built on the client only: the
 * server sends the page without them. With `tree=N`, the synthetic search tree instead (stress-tree-view.tsx);
 * with `replay=1`, one run behind a replay cursor (stress-replay-view.tsx).
 */
export function StressView(params: StressParams) {
  if (params.tree !== null) return <StressTreeView nodes={params.tree} seed={params.seed} />;
  if (params.replay) return <StressReplayView {...params} />;
  return <StressRunsView {...params} />;
}

function StressRunsView(params: StressParams) {
  const onClient = useSyncExternalStore(subscribeNever, () => true, () => false);
  const built = useMemo(() => (onClient ? buildRuns(params) : null), [onClient, params]);
  useEffect(() => {
    if (built) window.__stressGraph = built.figures;
  }, [built]);
  if (!built) return <p className="p-4 text-sm text-slate-600">Building the synthetic runs…</p>;
  const { runs, figures } = built;
  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="stress-page" data-view={params.view}>
      <p className="flex-none border-b border-slate-200 bg-amber-50 px-4 py-1.5 text-xs text-amber-950">
        Stress page (synthetic runs, no server): {runs.map((run) => `${run.events} events`).join(" + ")}
        {params.view === "compare" ? "" : ` · ${figures.runs.map((run) => `${run.nodes} nodes`).join(" + ")}`} · logs {figures.eventsMs} ms · fold
        {params.view === "compare" ? "" : " + graph"} {figures.graphMs} ms
      </p>
      {params.view === "compare" ? (
        <CompareLanes runs={runs} />
      ) : (
        <div className="flex min-h-0 flex-1">
          {runs.map((run) => (
            <section key={run.label} className="relative flex min-w-0 flex-1 flex-col border-r border-slate-200 last:border-r-0" aria-label={run.label} data-testid="stress-run">
              <h2 className="flex-none px-3 py-1 text-xs font-semibold text-slate-700">{run.label}</h2>
              <div className="relative min-h-0 flex-1" data-testid="run-graph">
                <RunUiStoreProvider>
                  <RunGraph graph={run.graph} live={false} collapse={params.collapse} />
                </RunUiStoreProvider>
              </div>
            </section>
          ))}
        </div>
      )}
    </div>
  );
}
