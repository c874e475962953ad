"use client";

import { useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { flushSync } from "react-dom";
import { createReplayFolder } from "@/lib/domain/replay-fold";
import { createRunGraphDeriver } from "@/lib/graph";
import { stressRunEvents } from "@/lib/graph/stress-run";
import { RunUiStoreProvider } from "@/lib/store";
import { RunGraph } from "@/components/run-graph";
import type { StressParams } from "./stress-params";

/** One cursor move's figures, as `window.__stressReplay.move` answers them. */
export interface StressReplayMove {
  /** From the move's start to the first frame painted after React committed it, ms. */
  ms: number;
  /** The cursor after the move (clamped to 0…events). */
  at: number;
  /** Nodes in the derived graph at the cursor (before collapsing). */
  nodes: number;
}

/** What the replay mode exposes to bench/replay-page.ts (`window.__stressReplay`). */
export interface StressReplayHandle {
  /** Events in the synthetic log. */
  events: number;
  /** Moves the cursor to `at` events and answers once the next frame after the commit is painted. */
  move(at: number): Promise<StressReplayMove>;
}

declare global {
  interface Window {
    __stressReplay?: StressReplayHandle;
  }
}

const subscribeNever = () => () => {};

/** Resolves after the next frame is painted: a message posted from a frame callback runs once that frame is drawn. */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve();
      channel.port2.postMessage(null);
    });
  });
}

/**
 * The stress page's replay mode (`/stress?trials=N&replay=1`): one synthetic run behind a replay
 * cursor, as the run page draws it at a cursor (lib/domain/replay-fold.ts folder → one memoising
 * graph deriver → RunGraph). It starts at the end of the log and publishes `window.__stressReplay`
 * for the bench (bench/replay-page.ts), which moves the cursor and times each move to its painted frame.
 */
export function StressReplayView(params: StressParams) {
  const onClient = useSyncExternalStore(subscribeNever, () => true, () => false);
  const events = useMemo(() => (onClient ? stressRunEvents({ trials: params.trials, family: params.family, seed: params.seed, idPrefix: "replay" }) : null), [onClient, params]);
  const folder = useMemo(() => (events ? createReplayFolder(events) : null), [events]);
  const [derive] = useState(createRunGraphDeriver);
  const [cursor, setCursor] = useState<number | null>(null);
  const at = cursor ?? events?.length ?? 0;
  const state = useMemo(() => folder?.stateAt(at) ?? null, [folder, at]);
  const graph = useMemo(() => (state ? derive(state) : null), [derive, state]);
  // The drawn graph's node count, for the bench: set on commit (flushSync runs layout effects before it returns).
  const graphNodes = useRef(0);
  useLayoutEffect(() => {
    graphNodes.current = graph?.nodes.length ?? 0;
  }, [graph]);

  useEffect(() => {
    if (!events) return;
    window.__stressReplay = {
      events: events.length,
      async move(target) {
        const clamped = Math.min(events.length, Math.max(0, Math.floor(target)));
        const started = performance.now();
        flushSync(() => setCursor(clamped));
        await afterNextPaint();
        return { ms: performance.now() - started, at: clamped, nodes: graphNodes.current };
      },
    };
  }, [events]);

  if (!events || !graph) return <p className="p-4 text-sm text-slate-600">Building the synthetic run…</p>;
  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="stress-page" data-view="replay">
      <p className="flex-none border-b border-slate-200 bg-amber-50 px-4 py-1.5 text-xs text-amber-950">
        Stress page, replay (a synthetic run, no server): cursor {at.toLocaleString("en")} of {events.length.toLocaleString("en")} events · {graph.nodes.length.toLocaleString("en")} nodes
      </p>
      <div className="relative min-h-0 flex-1" data-testid="run-graph">
        <RunUiStoreProvider>
          <RunGraph graph={graph} live={false} collapse={params.collapse} />
        </RunUiStoreProvider>
      </div>
    </div>
  );
}
