import { afterAll, describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/domain/events";
import { applyEvent, emptyRunState, foldRun, type RunState } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { codeDemoScriptBook } from "@/lib/environments/code/demo-script";
import { householdDemoScriptBook } from "@/lib/environments/household/demo-script";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { createRunGraphDeriver, deriveRunGraph } from "@/lib/graph";
import { clampCursor, cursorPosition, describeCursor, moveCursor, replayPrefix, replayStops } from "@/lib/graph/replay-cursor";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { demoMockModel } from "../helpers/mock-model";

/**
 * Replay equals the live run at every cursor position: a demo run of each
 * family is driven through the real service and worker pool; every event the bus publishes
 * is folded into one state incrementally (as a client following the stream does) and the
 * graph derived with one memoising deriver (as the workspace does). Afterwards, the fold and
 * graph of each prefix of the recorded log — `replayPrefix(log, n)` — must equal what the
 * live run showed after n events, visited in a scrambled order with one deriver (the replay
 * bar moving back and forth), and also derived fresh.
 */

const contexts: ServerContext[] = [];
afterAll(async () => {
  for (const context of contexts) await context.workers.stop();
});

function setup() {
  const mock = demoMockModel([qaDemoScriptBook, householdDemoScriptBook, codeDemoScriptBook]);
  const context = createServerContext({ store: new MemoryRunStore(), model: createModelPort({ resolveModel: () => mock, maxRetries: 0 }), startWorkers: false });
  contexts.push(context);
  return context;
}

interface LiveSnapshot {
  state: RunState;
  graph: ReturnType<typeof deriveRunGraph>;
}

/** Runs a built-in task with the demo scripts and records what a live viewer had after each event. */
async function recordLive(request: { environment: "qa" | "household" | "code"; taskId: string }) {
  const context = setup();
  const run = await context.service.createRun({ ...request, taskSet: "builtin", strategy: "reflexion", modelId: "demo" });
  const live: RunEvent[] = [];
  const state = emptyRunState();
  const derive = createRunGraphDeriver();
  const snapshots: LiveSnapshot[] = [{ state: structuredClone(state), graph: structuredClone(derive(structuredClone(state))) }];
  const receive = (events: readonly RunEvent[]) => {
    for (const event of events) {
      if (event.branchId !== run.rootBranchId || event.seq <= live.length) continue;
      live.push(event);
      applyEvent(state, event);
      // The workspace derives from a new state object each time (its fold is memoised on the events array).
      const shown = structuredClone(state);
      snapshots.push({ state: shown, graph: structuredClone(derive(shown)) });
    }
  };
  const unsubscribe = context.bus.subscribe(run.id, receive);
  receive((await context.service.events(run.id)).events);
  context.workers.start();
  await context.workers.untilSettled(run.rootBranchId);
  unsubscribe();
  const log = (await context.service.events(run.id)).events;
  return { log, live, snapshots };
}

/** A fixed scramble of 0…n (every position once, jumping back and forth). */
function scrambled(n: number): number[] {
  const order = Array.from({ length: n + 1 }, (_, index) => index);
  let seed = 7;
  for (let index = order.length - 1; index > 0; index -= 1) {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    const other = seed % (index + 1);
    [order[index], order[other]] = [order[other]!, order[index]!];
  }
  return order;
}

const families = [
  { environment: "qa", taskId: "qa-builtin-01" },
  { environment: "household", taskId: "household-builtin-01" },
  { environment: "code", taskId: "code-ts-03" },
] as const;

describe.each(families)("replay of a recorded $environment run ($taskId)", (request) => {
  it("the fold and the graph of every prefix equal the live run's after that many events", { timeout: 120_000 }, async () => {
    const { log, live, snapshots } = await recordLive(request);
    expect(log.length).toBeGreaterThan(10);
    // The stream delivered the whole log, in order, and nothing recorded changed afterwards.
    expect(live.map((event) => event.id)).toEqual(log.map((event) => event.id));
    expect(snapshots).toHaveLength(log.length + 1);
    // QA and household: fail, reflect, succeed; code-ts-03: a false positive stops the loop after trial 1.
    expect(foldRun(log).trials.length).toBe(request.environment === "code" ? 1 : 2);

    const replayDeriver = createRunGraphDeriver();
    for (const cursor of scrambled(log.length)) {
      const prefix = replayPrefix(log, cursor);
      expect(prefix).toHaveLength(cursor);
      const replayed = foldRun(prefix);
      const snapshot = snapshots[cursor]!;
      expect(replayed, `fold at cursor ${cursor}`).toEqual(snapshot.state);
      expect(structuredClone(replayDeriver(replayed)), `graph at cursor ${cursor} (one deriver)`).toEqual(snapshot.graph);
      expect(structuredClone(deriveRunGraph(replayed)), `graph at cursor ${cursor} (fresh)`).toEqual(snapshot.graph);
    }
  });
});

describe("replay stops and positions", () => {
  const types = ["run-start", "trial-start", "model-call-end", "step-thought", "step-action", "step-observation", "model-call-end", "step-thought", "step-action", "step-observation", "evaluation-end", "trial-end", "model-call-end", "reflection-end", "checkpoint", "trial-start", "step-observation", "evaluation-end", "trial-end", "run-end"] as const;
  const events = types.map((type) => ({ type }));

  it("steps by event, by ReAct step and by trial, both ways, and stays put at the ends", () => {
    expect(replayStops(events, "event")).toHaveLength(events.length + 1);
    // After run-start, trial-start, each observation, evaluation, reflection, run-end.
    expect(replayStops(events, "step")).toEqual([0, 1, 2, 6, 10, 11, 14, 16, 17, 18, 20]);
    // Before each trial-start, and the end.
    expect(replayStops(events, "trial")).toEqual([0, 1, 15, 20]);
    expect(moveCursor(events, 2, "step", 1)).toBe(6);
    expect(moveCursor(events, 6, "step", -1)).toBe(2);
    expect(moveCursor(events, 5, "step", -1)).toBe(2);
    expect(moveCursor(events, null, "trial", -1)).toBe(15);
    expect(moveCursor(events, 15, "trial", -1)).toBe(1);
    expect(moveCursor(events, 0, "event", -1)).toBe(0);
    expect(moveCursor(events, null, "event", 1)).toBe(events.length);
    expect(moveCursor(events, 3, "event", 1)).toBe(4);
  });

  it("clamps cursors and keeps the array when the cursor is live or past the end", () => {
    expect(clampCursor(null, 5)).toBe(5);
    expect(clampCursor(-3, 5)).toBe(0);
    expect(clampCursor(9, 5)).toBe(5);
    expect(clampCursor(2.7, 5)).toBe(2);
    const log = [1, 2, 3];
    expect(replayPrefix(log, null)).toBe(log);
    expect(replayPrefix(log, 10)).toBe(log);
    expect(replayPrefix(log, 1)).toEqual([1]);
  });

  it("names the trial and step of a recorded run's cursor", async () => {
    const { log } = await recordLive(families[0]);
    const secondTrial = log.findIndex((event) => event.type === "trial-start" && event.data.trial === 2);
    const firstObservation = log.findIndex((event) => event.type === "step-observation");
    expect(describeCursor(cursorPosition(log, 0))).toBe(`event 0/${log.length}`);
    expect(describeCursor(cursorPosition(log, firstObservation + 1))).toBe(`trial 1 · step 1 · event ${firstObservation + 1}/${log.length}`);
    expect(cursorPosition(log, secondTrial + 1)).toMatchObject({ trial: 2, step: null, atEnd: false });
    expect(cursorPosition(log, null)).toMatchObject({ event: log.length, atEnd: true });
  });
});
