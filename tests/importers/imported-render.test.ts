import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import type { RunEvent } from "@/lib/domain/events";
import { foldRun, type RunState } from "@/lib/domain/fold-run";
import { asRunId } from "@/lib/domain/ids";
import { PaperImportService } from "@/lib/importers/import-service";
import { createCollapsedViewDeriver, deriveRunGraph } from "@/lib/graph";
import { createServerContext } from "@/lib/server/app-context";
import { renderGraphNode as render } from "../helpers/render-node";

/**
 * Every node of an imported run's graph renders with the run graph's own node
 * components (server-rendered, no DOM) — HotpotQA steps, ALFWorld trials without
 * steps, programming runs with a recorded-only task — so the run page does not crash.
 */
const LOGS = path.resolve(__dirname, "../../../shared/data/reflexion/noahshinn-reflexion");
const states: Record<string, RunState[]> = {};
/** Each folded state's events (for refolding them another way). */
const logs = new WeakMap<RunState, RunEvent[]>();
const eventsOf = (state: RunState): RunEvent[] => logs.get(state)!;


beforeAll(async () => {
  const store = new MemoryRunStore();
  const context = createServerContext({ store, startWorkers: false, env: {} });
  const service = new PaperImportService(store, context.experiments, { dataRoot: path.resolve(LOGS, "../..") });
  for (const [family, target] of [
    ["qa", "hotpotqa_runs/root/CoT/no_context/reflexion/100_questions_5_trials.txt"],
    ["household", "alfworld_runs/root/base_run_logs"],
    ["code", "programming_runs/root/reflexion_humaneval_rs_hard50"],
  ] as const) {
    const { imports } = await service.importPath(path.join(LOGS, target));
    const links = await store.experiments.listExperimentRuns(imports[0]!.experimentId);
    states[family] = await Promise.all(
      links.slice(0, 20).map(async (link) => {
        const run = (await store.getRun(asRunId(link.runId)))!;
        const events = await store.list(run.id, run.rootBranchId);
        const state = foldRun(events);
        logs.set(state, events);
        return state;
      }),
    );
  }
}, 60_000);

describe("imported runs render", () => {
  for (const family of ["qa", "household", "code"]) {
    it(`${family}: every node of 20 runs' graphs renders, expanded and collapsed`, () => {
      let rendered = 0;
      for (const state of states[family] ?? []) {
        const graph = deriveRunGraph(state);
        const collapsed = createCollapsedViewDeriver()(graph, [...new Set(graph.nodes.map((node) => node.data.trial).filter((t): t is number => typeof t === "number"))]);
        for (const node of [...graph.nodes, ...collapsed.nodes]) {
          expect(render(node)).toMatch(/^<div/);
          rendered += 1;
        }
      }
      expect(rendered).toBeGreaterThan(40);
    });
  }
});

describe("steps from a published log", () => {
  it("are marked 'as logged', never 'by a person'; a fork's own steps are not", () => {
    const state = states.qa!.find((s) => s.trials.some((trial) => trial.steps.length > 0))!;
    const graph = deriveRunGraph(state);
    const stepNodes = graph.nodes.filter((node) => node.type === "thought" || node.type === "action");
    expect(stepNodes.length).toBeGreaterThan(0);
    for (const node of stepNodes) {
      const html = render(node);
      expect(html).toContain('data-testid="as-logged-badge"');
      expect(html).not.toContain("by a person");
    }
    // The same log folded as an ordinary run (no provenance) reads those null call ids as a person's steps.
    const ordinary = deriveRunGraph(
      foldRun(eventsOf(state).map((event) => (event.type === "run-start" ? { ...event, data: { config: { ...event.data.config, provenance: null } } } : event))),
    );
    expect(ordinary.nodes.filter((node) => node.type === "action").every((node) => render(node).includes("by a person"))).toBe(true);
  });
});
