import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import type { RunRecord } from "@/lib/db/store";
import { foldRun } from "@/lib/domain/fold-run";
import { asRunId } from "@/lib/domain/ids";
import { PAPER_LOG_CALL_PREFIX } from "@/lib/domain/provenance";
import { digestState } from "@/lib/engine/digest";
import { deriveRunGraph } from "@/lib/graph";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";

/**
 * Imported runs are runs like any other: they fold, derive a graph, stay
 * read-only, and a HotpotQA one forks and continues with the demo model.
 */
const DATA_ROOT = path.resolve(__dirname, "../../../shared/data");
const LOGS = path.join(DATA_ROOT, "reflexion/noahshinn-reflexion");

let context: ServerContext;
const imported: Record<"qa" | "household" | "code", RunRecord[]> = { qa: [], household: [], code: [] };

async function runsOf(experimentId: string): Promise<RunRecord[]> {
  const links = await context.store.experiments.listExperimentRuns(experimentId);
  return Promise.all(links.map(async (link) => (await context.store.getRun(asRunId(link.runId)))!));
}

beforeAll(async () => {
  context = createServerContext({ store: new MemoryRunStore(), env: { REFLEXION_DATA_ROOT: DATA_ROOT } });
  const qa = await context.imports.importPath(path.join(LOGS, "hotpotqa_runs/root/ReAct/reflexion/100_questions_5_trials.txt"));
  const household = await context.imports.importPath(path.join(LOGS, "alfworld_runs/root/reflexion_run_logs"));
  const code = await context.imports.importPath(path.join(LOGS, "programming_runs/root/reflexion_humaneval_rs_hard50"));
  imported.qa = await runsOf(qa.imports[0]!.experimentId);
  imported.household = await runsOf(household.imports[0]!.experimentId);
  imported.code = await runsOf(code.imports[0]!.experimentId);
}, 60_000);

/** A run of `family` whose first trial failed and was reflected on, and that was solved later. */
async function reflectedThenSolved(family: keyof typeof imported) {
  for (const run of imported[family]) {
    const state = foldRun(await context.store.list(run.id, run.rootBranchId));
    if (state.outcome === "success" && state.trials.length >= 2 && state.trials[0]?.reflection) return { run, state };
  }
  throw new Error(`no ${family} run was reflected on and solved`);
}

describe("an imported run folds and renders like any other", () => {
  for (const family of ["qa", "household", "code"] as const) {
    it(`${family}: folds to an ended run whose checkpoints match the engine's digest, and derives a graph`, async () => {
      const { run, state } = await reflectedThenSolved(family);
      const events = await context.store.list(run.id, run.rootBranchId);
      expect(state.status).toBe("ended");
      expect(state.config?.provenance).toMatchObject({ kind: "paper-log", recordedBy: "authors", year: 2023 });
      // Every checkpoint's digest is what folding the log up to it gives (so a fork continues from a true state).
      for (const checkpoint of events.filter((event) => event.type === "checkpoint")) {
        expect(checkpoint.data).toMatchObject({ digest: digestState(foldRun(events.filter((event) => event.seq <= checkpoint.seq))) });
      }
      expect(state.trials[0]?.reflection?.callId.startsWith(PAPER_LOG_CALL_PREFIX)).toBe(true);
      expect(state.trials[1]?.memory.map((item) => item.text)).toContain(state.trials[0]?.reflection?.text);
      const graph = deriveRunGraph(state);
      expect(graph.nodes.length).toBeGreaterThan(state.trials.length);
      if (family === "household") expect(state.trials.every((trial) => trial.steps.length === 0)).toBe(true);
    });
  }

  it("HotpotQA trials keep the logged thoughts, actions, observations and verdicts", async () => {
    const { state } = await reflectedThenSolved("qa");
    const last = state.trials.at(-1)!;
    expect(last.outcome).toBe("success");
    expect(last.steps.at(-1)?.action?.action?.type).toBe("Finish");
    expect(last.evaluation).toMatchObject({ verdict: "pass", evaluatorKind: "exact-match", oracle: true });
    expect(state.trials[0]?.steps[0]?.thought?.text).toMatch(/\S/);
    expect(state.trials[0]?.steps[0]?.thought?.callId).toBeNull();
  });
});

describe("imported runs are read-only", () => {
  it("pause, resume, cancel, edits and breakpoints are refused with the authors' message; ALFWorld and code do not fork", async () => {
    const run = imported.qa[0]!;
    const message = /recorded by the authors in 2023 — fork it to continue/;
    await expect(context.service.pause(run.id)).rejects.toMatchObject({ code: "conflict", message: expect.stringMatching(message) });
    await expect(context.service.resume(run.id)).rejects.toMatchObject({ code: "conflict", message: expect.stringMatching(message) });
    await expect(context.service.cancel(run.id)).rejects.toMatchObject({ code: "conflict" });
    await expect(context.service.edit(run.id, { kind: "memory", memory: [] })).rejects.toThrow(message);
    await expect(context.service.setBreakpoints(run.id, { afterReflection: true })).rejects.toThrow(message);
    await expect(context.service.fork(imported.household[0]!.id, { atSeq: 1, replay: "live" })).rejects.toThrow(/cannot be forked: the ALFWorld logs do not include the environment's scene/);
    await expect(context.service.fork(imported.code[0]!.id, { atSeq: 1, replay: "live" })).rejects.toThrow(/cannot be forked/);
    // Nothing was appended to the authors' log.
    const events = await context.store.list(run.id, run.rootBranchId);
    expect(events.at(-1)?.type).toBe("run-end");
  });

  it("the worker pool never claims them", async () => {
    const runnable = await context.store.listRunnableBranches(1000);
    const importedBranches = new Set(Object.values(imported).flat().map((run) => run.rootBranchId));
    expect(runnable.filter((branch) => importedBranches.has(branch.branchId))).toEqual([]);
  });
});

describe("a fork of an imported HotpotQA trial", () => {
  it("continues live from the checkpoint after a reflection with the demo model and runs to the end", async () => {
    // A question the authors never solved: its fork has trials left after trial 1's reflection.
    let chosen: { run: RunRecord; seq: number } | null = null;
    for (const run of imported.qa) {
      const events = await context.store.list(run.id, run.rootBranchId);
      const state = foldRun(events);
      const reflection = events.find((event) => event.type === "reflection-end");
      if (state.outcome === "failure" && reflection) {
        const checkpoint = events.find((event) => event.type === "checkpoint" && event.seq > reflection.seq);
        if (checkpoint) chosen = { run, seq: checkpoint.seq };
        break;
      }
    }
    expect(chosen).not.toBeNull();
    const { run, seq } = chosen!;
    const { branchId } = await context.service.fork(run.id, {
      atSeq: seq,
      replay: "live",
      edits: [
        { kind: "model", role: "actor", modelId: "demo" },
        { kind: "model", role: "reflector", modelId: "demo" },
      ],
    });
    await context.workers.untilSettled(branchId);
    const state = foldRun(await context.store.list(run.id, branchId));
    expect(state.status).toBe("ended");
    expect(state.trials.length).toBeGreaterThanOrEqual(2);
    expect(state.trials.every((trial) => trial.outcome !== null)).toBe(true);
    const own = (await context.store.list(run.id, branchId)).filter((event) => event.branchId === branchId);
    const calls = own.filter((event) => event.type === "model-call-end");
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((call) => call.type === "model-call-end" && call.data.settings.modelId === "demo")).toBe(true);
    // Trial 2 of the fork started with the authors' reflection in the Actor's context.
    expect(state.trials[1]?.memory[0]?.text).toBe(state.trials[0]?.reflection?.text);
    // The fork is an ordinary branch: changing it is allowed.
    await expect(context.service.setBreakpoints(run.id, {}, branchId)).rejects.toThrow(/has ended/);
  }, 60_000);
});
