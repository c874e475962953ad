import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, describe, expect, it } from "vitest";
import type { BranchSummary } from "@/lib/domain/api";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { branchTree } from "@/lib/graph";
import { replayPrefix } from "@/lib/graph/replay-cursor";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { RunUiStoreProvider } from "@/lib/store";
import { BranchTree } from "@/components/run/branch-switcher";
import { RunHeader } from "@/components/run/run-header";
import { branchSummariesAtCursor, displayedStatus } from "@/components/replay/view-at-cursor";
import { demoMockModel } from "../helpers/mock-model";

/**
 * A lesson (or the replay bar) sets a cursor: the Branches strip and the run header must say
 * what the log's prefix says — "running", 1 trial, no outcome — and never the server's final
 * summary ("ended · success · 2 trials", "Solved in trial 2"), or the lesson's question answers itself.
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
    const replaying = shown.length < log.length;
    expect(replaying).toBe(true);

    const [row] = branchSummariesAtCursor([summary], run.rootBranchId, state, "ended", replaying);
    expect(row).toMatchObject({ status: "running", outcome: null, trials: 1 });
    expect(displayedStatus("ended", state, replaying)).toBe("running");

    const strip = render(createElement(BranchTree, { rows: branchTree([row!]), current: run.rootBranchId, onSelect: () => {} }));
    expect(strip).not.toContain("success");
    expect(strip).not.toContain("2 trials");
    expect(strip).toContain("running");
    expect(strip).toContain("1 trial");

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
        shownStatus: displayedStatus("ended", state, replaying),
        connection: "closed",
      }),
    );
    expect(header).not.toMatch(/success/);
    expect(header).not.toContain("Trial 2");
    expect(header).not.toMatch(/unfinished/);

    // Live (no cursor), the strip says the final outcome.
    const [live] = branchSummariesAtCursor([summary], run.rootBranchId, final, "ended", false);
    expect(live).toMatchObject({ status: "ended", outcome: "success", trials: 2 });
  });
});
