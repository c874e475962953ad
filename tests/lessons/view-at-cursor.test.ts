import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, describe, expect, it } from "vitest";
import type { BranchSummary } from "@/lib/domain/api";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { branchTree } from "@/lib/graph";
import { forkPointsByEventId } from "@/lib/graph";
import { replayPrefix, replayStep, replayStops } from "@/lib/graph/replay-cursor";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { RunUiStoreProvider } from "@/lib/store";
import { BranchTree } from "@/components/run/branch-switcher";
import { RunHeader } from "@/components/run/run-header";
import { branchSummariesAtCursor, displayedStatus, forkPointsAtCursor } from "@/components/replay/view-at-cursor";
import { BranchSwitcher } from "@/components/run/branch-switcher";
import { demoMockModel } from "../helpers/mock-model";

/**
 * A lesson (or the replay bar) sets a cursor: the Branches strip, the switcher and the run header
 * must say "replaying (step k of n)" with the prefix's trials (1 trial, no outcome) — never the
 * prefix's "running" (a finished run is not running) nor the server's final summary
 * ("ended · success · 2 trials", "Solved in trial 2"), or the lesson's question answers itself.
 */

const contexts: ServerContext[] = [];
afterAll(async () => {
  for (const context of contexts) await context.workers.stop();
});

function render(element: ReactElement): string {
  return renderToStaticMarkup(createElement(QueryClientProvider, { client: new QueryClient() }, createElement(RunUiStoreProvider, null, element)));
}

async function finishedQaRun() {
  const mock = demoMockModel([qaDemoScriptBook]);
  const context = createServerContext({ store: new MemoryRunStore(), model: createModelPort({ resolveModel: () => mock, maxRetries: 0 }), startWorkers: false });
  contexts.push(context);
  const run = await context.service.createRun({ environment: "qa", taskId: "qa-builtin-01", taskSet: "builtin", strategy: "reflexion", modelId: "demo" });
  context.workers.start();
  await context.workers.untilSettled(run.rootBranchId);
  const log = (await context.service.events(run.id)).events;
  return { run, log };
}

describe("the branch at a replay cursor", () => {
  it("shows the prefix's status, trial count and no outcome while the final summary says ended · success", { timeout: 60_000 }, async () => {
    const { run, log } = await finishedQaRun();
    const final = foldRun(log);
    expect(final.outcome).toBe("success");
    expect(final.trials.length).toBe(2);
    const summary: BranchSummary = {
      id: run.rootBranchId,
      parentBranchId: null,
      forkSeq: null,
      createdAt: new Date(0).toISOString(),
      status: "ended",
      replayMode: "live",
      reason: "root",
      trials: 2,
      outcome: "success",
      liveCalls: final.totals.liveCalls,
      cachedCalls: 0,
    };
    // The cursor just after trial 1's evaluation: "In which trial will it first succeed?"
    const at = log.findIndex((event) => event.type === "evaluation-end") + 1;
    const shown = replayPrefix(log, at);
    const state = foldRun(shown);
    const replay = replayStep(log, shown.length);
    expect(replay).not.toBeNull();
    // Steps are the replay bar's step stops: run start, trial start, each observation, evaluation, reflection, end.
    const stops = replayStops(log, "step").filter((stop) => stop > 0);
    expect(replay).toEqual({ step: stops.filter((stop) => stop <= at).length, of: stops.length });
    expect(replay!.step).toBeGreaterThan(2);
    expect(replay!.step).toBeLessThan(replay!.of);

    const [row] = branchSummariesAtCursor([summary], run.rootBranchId, state, "ended", replay);
    expect(row).toMatchObject({ status: "replaying", replay, outcome: null, trials: 1 });
    expect(displayedStatus("ended", replay)).toBe("replaying");
    const label = `replaying (step ${replay!.step} of ${replay!.of})`;

    const strip = render(createElement(BranchTree, { rows: branchTree([row!]), current: run.rootBranchId, onSelect: () => {} }));
    expect(strip).not.toContain("success");
    expect(strip).not.toContain("2 trials");
    expect(strip).not.toMatch(/running/i);
    expect(strip).toContain(label);
    expect(strip).toContain("1 trial");

    const switcher = render(createElement(BranchSwitcher, { rows: branchTree([row!]), current: run.rootBranchId, onSelect: () => {} }));
    expect(switcher).toContain(`main — ${label}`);
    expect(switcher).not.toMatch(/running/i);

    const header = render(
      createElement(RunHeader, {
        runId: run.id,
        branch: null,
        branchRows: branchTree([row!]),
        currentBranchId: run.rootBranchId,
        onSelectBranch: () => {},
        detail: undefined,
        state,
        status: "ended",
        shownStatus: displayedStatus("ended", replay),
        replay,
        connection: "closed",
      }),
    );
    expect(header).not.toMatch(/success/);
    expect(header).not.toContain("Trial 2");
    expect(header).not.toMatch(/unfinished/);
    // Not "Running", "Trial 1 running…" nor "main — running": the pill and the chip say replaying.
    expect(header).not.toMatch(/running/i);
    expect(header).toContain(`Replaying (step ${replay!.step} of ${replay!.of})`);
    expect(header).toMatch(/Trial 1<\/span><span>replaying<\/span>/);

    // Live (no cursor), the strip says the final outcome.
    expect(replayStep(log, null)).toBeNull();
    expect(replayStep(log, log.length)).toBeNull();
    const [live] = branchSummariesAtCursor([summary], run.rootBranchId, final, "ended", null);
    expect(live).toMatchObject({ status: "ended", outcome: "success", trials: 2, replay: null });
    expect(displayedStatus("ended", null)).toBe("ended");
  });

  it("forks a node on screen at the cursor from its checkpoint past the cursor, not 'not in the log yet'", { timeout: 60_000 }, async () => {
    const { log } = await finishedQaRun();
    const evaluation = log.find((event) => event.type === "evaluation-end")!;
    // The cursor right after trial 1's evaluation: its checkpoint is the next event, not shown.
    const at = log.indexOf(evaluation) + 1;
    expect(forkPointsByEventId(log.slice(0, at)).get(evaluation.id)).toBeUndefined();
    const point = forkPointsAtCursor(log, at).get(evaluation.id);
    expect(point).toBeDefined();
    const checkpoint = log.findIndex((event) => event.seq === point!.atSeq);
    expect(log[checkpoint]?.type).toBe("checkpoint");
    expect(checkpoint).toBeGreaterThanOrEqual(at);
    // Nodes past the cursor are not offered; live, every node with a checkpoint is.
    const later = log.filter((event) => event.type === "evaluation-end")[1]!;
    expect(forkPointsAtCursor(log, at).has(later.id)).toBe(false);
    expect(forkPointsAtCursor(log, log.length).has(later.id)).toBe(true);
  });
});
