import path from "node:path";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { asRunId } from "@/lib/domain/ids";
import { deriveRunGraph } from "@/lib/graph";
import { RunUiStoreProvider } from "@/lib/store";
import { RunHeader } from "@/components/run/run-header";
import { MemoryRunStore } from "@/lib/db/memory-store";
import type { ImportResult } from "@/lib/domain/paper-import";
import { PaperImportService } from "@/lib/importers/import-service";
import { createServerContext } from "@/lib/server/app-context";
import { listReflections } from "@/lib/server/reflection-outcomes";

/**
 * Reflections that worked, from the authors' own runs (read in place from
 * shared/data/reflexion): in the HotpotQA ReAct + Reflexion log the curve rises
 * from 32 to 51 of 100 (reference §2.10), so exactly 19 questions were solved
 * in a trial that followed a reflection — 19 reflections worked. The ALFWorld
 * Reflexion run rises from 84 to 134 of 134 (§3.7): 50 worked.
 */
const DATA_ROOT = path.resolve(__dirname, "../../../shared/data");
const LOGS = path.join(DATA_ROOT, "reflexion/noahshinn-reflexion");

let store: MemoryRunStore;
let hotpot: ImportResult;
let react: ImportResult;
let alfworld: ImportResult;

beforeAll(async () => {
  store = new MemoryRunStore();
  const context = createServerContext({ store, startWorkers: false, env: {} });
  const service = new PaperImportService(store, context.experiments, { dataRoot: DATA_ROOT });
  const only = async (relative: string): Promise<ImportResult> => {
    const { imports } = await service.importPath(path.join(LOGS, relative));
    if (imports.length !== 1 || !imports[0]) throw new Error(`${relative}: expected one import, got ${imports.length}`);
    return imports[0];
  };
  hotpot = await only("hotpotqa_runs/root/ReAct/reflexion/100_questions_5_trials.txt");
  react = await only("hotpotqa_runs/root/ReAct/base/100_questions_5_trials.txt");
  alfworld = await only("alfworld_runs/root/reflexion_run_logs");
}, 60_000);

describe("reflections of the authors' runs", () => {
  it("HotpotQA ReAct + Reflexion: 19 reflections worked (32 → 51), each a failed trial followed by a success, all marked recorded", async () => {
    const worked = await listReflections(store, { experimentId: hotpot.experimentId, q: "", helped: true, limit: 200 });
    const gained = hotpot.successByTrial.at(-1)! - hotpot.successByTrial[0]!;
    expect(gained).toBe(19);
    expect(worked.counts.helped).toBe(gained);
    expect(worked.items).toHaveLength(gained);
    expect(new Set(worked.items.map((item) => item.runId)).size).toBe(gained);
    for (const item of worked.items) {
      expect(item.failed.outcome).not.toBe("success");
      expect(item.next?.outcome).toBe("success");
      expect(item.next?.trial).toBe(item.failed.trial + 1);
      expect(item.inNextMemory).toBe(true);
      expect(item.recordedSource).toContain("ReAct/reflexion/100_questions_5_trials.txt");
      expect(item.text.trim().length).toBeGreaterThan(20);
    }
    // The others did not help: every failed trial before the last of an unsolved or later-solved question.
    expect(worked.counts.notHelped).toBeGreaterThan(100);
  });

  it("search narrows to reflections that mention a word, case-insensitively", async () => {
    const all = await listReflections(store, { experimentId: hotpot.experimentId, q: "", limit: 200 });
    const byWord = await listReflections(store, { experimentId: hotpot.experimentId, q: "LOOKUP", limit: 200 });
    expect(byWord.total).toBeGreaterThan(0);
    expect(byWord.total).toBeLessThan(all.total);
  });

  it("ReAct only writes none; ALFWorld Reflexion: 50 worked (84 → 134)", async () => {
    const none = await listReflections(store, { experimentId: react.experimentId, q: "", limit: 10 });
    expect(none.runs).toBe(100);
    expect(none.counts.helped).toBe(0);
    const household = await listReflections(store, { experimentId: alfworld.experimentId, q: "", helped: true, limit: 200 });
    expect(alfworld.successByTrial.at(-1)! - alfworld.successByTrial[0]!).toBe(50);
    expect(household.counts.helped).toBe(50);
  });
});

describe("an imported run opens like any other", () => {
  it("folds, draws its reflection node (the list's link target) and renders its header read-only with the badge", async () => {
    const [worked] = (await listReflections(store, { experimentId: hotpot.experimentId, q: "", helped: true, limit: 1 })).items;
    const run = await store.getRun(asRunId(worked!.runId));
    const state = foldRun(await store.list(run!.id, run!.rootBranchId));
    expect(state.status).toBe("ended");
    expect(state.config?.provenance?.model).toBe("text-davinci-003");
    expect(deriveRunGraph(state).nodes.some((node) => node.id === worked!.reflectionEventId && node.type === "reflection")).toBe(true);
    const html = renderToStaticMarkup(
      createElement(
        QueryClientProvider,
        { client: new QueryClient() },
        createElement(
          RunUiStoreProvider,
          null,
          createElement(RunHeader, { runId: run!.id, branch: null, branchRows: [], currentBranchId: run!.rootBranchId, onSelectBranch: () => undefined, detail: undefined, state, status: "ended", connection: "closed" }),
        ),
      ),
    );
    expect(html).toContain("Recorded by the authors, 2023");
    expect(html).toContain('data-testid="read-only-note"');
    expect(html).not.toContain('data-testid="pause-run"');
    expect(html.match(/data-testid="trial-chip"/g)).toHaveLength(state.trials.length);
    expect(html).toMatch(new RegExp(`data-trial="${worked!.next!.trial}" data-outcome="success"`));
  });
});
