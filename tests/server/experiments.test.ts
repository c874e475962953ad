import { parse } from "csv-parse/sync";
import { meanF1ByTrial } from "@/lib/domain/experiment-summary";
import { f1ByTrial } from "@/lib/server/experiment-export";
import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/domain/events";
import { experimentSummaryLine } from "@/lib/domain/experiment";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import type { ModelPort } from "@/lib/engine/ports";
import { codeDemoScriptBook } from "@/lib/environments/code/demo-script";
import { householdDemoScriptBook } from "@/lib/environments/household/demo-script";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { EXPERIMENT_CSV_COLUMNS } from "@/lib/server/experiment-export";

/** The demo model through the real port, counting the calls that reach it. */
function countingDemo(): { port: ModelPort; calls: () => number } {
  const inner = createModelPort({ demoScriptBooks: [codeDemoScriptBook, qaDemoScriptBook, householdDemoScriptBook] });
  let calls = 0;
  return {
    port: {
      async generate(request, options) {
        calls += 1;
        return inner.generate(request, options);
      },
    },
    calls: () => calls,
  };
}

function setup(concurrency = 4): { context: ServerContext; calls: () => number } {
  const demo = countingDemo();
  return { context: createServerContext({ store: new MemoryRunStore(), model: demo.port, workers: { concurrency, pollMs: 20 } }), calls: demo.calls };
}

const qaTasks = ["qa-builtin-01", "qa-builtin-02", "qa-builtin-03"];

async function runExperiment(context: ServerContext, taskIds = qaTasks, trials = 4) {
  const record = await context.experiments.start({
    name: "ReAct vs Reflexion",
    environment: "qa",
    taskSet: "builtin",
    taskIds,
    arms: [
      { label: "ReAct", strategy: "none", modelId: "demo" },
      { label: "Reflexion", strategy: "reflexion", modelId: "demo" },
    ],
    maxTrials: trials,
  });
  for (const runId of await context.experiments.runIds(record.id)) {
    const run = await context.service.getRun(runId);
    await context.workers.untilSettled(run.rootBranchId);
  }
  return record;
}

async function logsByCell(context: ServerContext, experimentId: string): Promise<Map<string, RunEvent[]>> {
  const out = new Map<string, RunEvent[]>();
  for (const link of await context.store.experiments.listExperimentRuns(experimentId)) {
    out.set(`${link.taskId}/${link.arm}`, (await context.service.events(link.runId)).events);
  }
  return out;
}

describe("experiments: tasks × arms × trials", () => {
  it("makes exactly one run per (task, arm), and its summary equals the runs folded by hand", async () => {
    const { context } = setup();
    const record = await runExperiment(context);
    const links = await context.store.experiments.listExperimentRuns(record.id);
    expect(links.map((link) => `${link.taskId}/${link.arm}`)).toEqual(qaTasks.flatMap((task) => [`${task}/ReAct`, `${task}/Reflexion`]));
    const summary = await context.experiments.summary(record.id);
    expect(summary.status).toBe("ended");
    expect(summary.progress).toEqual({ total: 6, done: 6, etaMs: null, outOfBudget: 0 });

    const logs = await logsByCell(context, record.id);
    for (const arm of summary.arms) {
      const states = qaTasks.map((task) => foldRun(logs.get(`${task}/${arm.label}`)!));
      // Solved at trial k = the run ended in success after k trials (it stops at its first success).
      const solved = states.map((state) => (state.outcome === "success" ? state.trials.length : null));
      const byHand = [1, 2, 3, 4].map((k) => solved.filter((trial) => trial !== null && trial <= k).length);
      expect(arm.successByTrial).toEqual(byHand);
      expect(arm.calls).toEqual({
        live: states.reduce((n, state) => n + state.totals.liveCalls, 0),
        cached: states.reduce((n, state) => n + state.totals.cachedCalls, 0),
      });
      expect(arm.tokens).toEqual({
        input: states.reduce((n, state) => n + state.totals.inputTokens, 0),
        output: states.reduce((n, state) => n + state.totals.outputTokens, 0),
      });
      expect(arm.costUsd).toBe(0); // the demo model is priced at 0
      // QA: mean F1 per trial, live from the read model, equals the runs' recorded F1 folded by hand.
      const byHandF1 = meanF1ByTrial(states.map((state) => ({ f1ByTrial: f1ByTrial(state), ended: state.outcome !== null })), arm.trials);
      expect(byHandF1).toBeDefined();
      expect(arm.meanF1ByTrial).toEqual(byHandF1);
    }
    const [react, reflexion] = summary.arms;
    // The demo model: ReAct keeps failing; Reflexion fails trial 1, reflects and then succeeds.
    expect(react!.successByTrial).toEqual([0, 0, 0, 0]);
    expect(reflexion!.successByTrial).toEqual([0, 3, 3, 3]);
    // The --json closing line has its documented shape (lib/domain/experiment.ts).
    expect(JSON.parse(experimentSummaryLine(summary))).toMatchObject({
      type: "experiment-summary",
      experimentId: record.id,
      arms: [
        { label: "ReAct", strategy: "none", modelId: "demo", tasks: 3, trials: 4, successByTrial: [0, 0, 0, 0] },
        { label: "Reflexion", strategy: "reflexion", modelId: "demo", tasks: 3, trials: 4, successByTrial: [0, 3, 3, 3] },
      ],
    });
    // A run says which cell it belongs to; a run of its own says none.
    expect((await context.runDetail(links[1]!.runId)).run.experiment).toEqual({ id: record.id, taskId: qaTasks[0], arm: "Reflexion" });
    const single = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: qaTasks[0]!, strategy: "none", modelId: "demo" });
    expect((await context.runDetail(single.id)).run.experiment).toBeNull();
    // The grid: Reflexion solved every task at trial 2; ReAct none.
    expect(summary.cells.filter((cell) => cell.arm === "Reflexion").map((cell) => cell.solvedAtTrial)).toEqual([2, 2, 2]);
    expect(summary.cells.filter((cell) => cell.arm === "ReAct").map((cell) => cell.solvedAtTrial)).toEqual([null, null, null]);
  });

  it("arms that share a prefix share it for real: trial 1 is computed once and served from the cache to the other arm", async () => {
    const { context, calls } = setup();
    const record = await runExperiment(context, qaTasks, 3);
    const logs = await logsByCell(context, record.id);
    const all = [...logs.values()].flatMap((log) => log.filter((event) => event.type === "model-call-end"));
    const live = all.filter((event) => event.type === "model-call-end" && event.data.source === "live").length;
    const cached = all.length - live;
    expect(calls()).toBe(live); // every call that reached the model is a live call in some run; nothing else reached it
    for (const task of qaTasks) {
      const trial1 = (arm: string) =>
        logs.get(`${task}/${arm}`)!.filter((event) => event.type === "model-call-end" && event.data.trial === 1 && event.data.role === "actor");
      const react = trial1("ReAct");
      const reflexion = trial1("Reflexion");
      // Same prompts in trial 1 under both strategies, so one arm's calls are the other's cache hits.
      expect(react.map((event) => event.type === "model-call-end" && event.data.requestHash)).toEqual(
        reflexion.map((event) => event.type === "model-call-end" && event.data.requestHash),
      );
      const sources = [...react, ...reflexion].map((event) => (event.type === "model-call-end" ? event.data.source : null));
      expect(sources.filter((source) => source === "live")).toHaveLength(react.length);
      expect(sources.filter((source) => source === "cache")).toHaveLength(react.length);
    }
    expect(cached).toBeGreaterThan(0);
  });

  it("a new experiment samples the model afresh: calls are shared within an experiment, not with earlier ones", async () => {
    const { context, calls } = setup();
    await runExperiment(context, qaTasks.slice(0, 1), 2);
    const first = calls();
    const again = await runExperiment(context, qaTasks.slice(0, 1), 2);
    expect(calls() - first).toBe(first);
    const summary = await context.experiments.summary(again.id);
    expect(summary.arms.reduce((n, arm) => n + arm.calls.live, 0)).toBe(first);
  });

  it("exports one CSV row per task × arm × trial, carried forward to the trial budget, that parses back to the runs' numbers", async () => {
    const { context } = setup();
    const record = await runExperiment(context, qaTasks.slice(0, 2), 3);
    const rows = parse(await context.experimentExport.csv(record.id), { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0]!)).toEqual([...EXPERIMENT_CSV_COLUMNS]);
    const logs = await logsByCell(context, record.id);
    let expected = 0;
    for (const [cell, log] of logs) {
      const [task, arm] = cell.split("/");
      const state = foldRun(log);
      // Every run ended, so each has a row for each of the 3 trials: the ones it played, then carried forward.
      expected += 3;
      expect(rows.filter((candidate) => candidate.task_id === task && candidate.arm === arm && candidate.carried_forward === "true")).toHaveLength(3 - state.trials.length);
      for (const trial of state.trials) {
        const row = rows.find((candidate) => candidate.task_id === task && candidate.arm === arm && Number(candidate.trial) === trial.trial);
        expect(row).toBeDefined();
        const tokensIn = trial.callIds.reduce((n, id) => n + (state.calls[id]?.usage.inputTokens ?? 0), 0);
        expect(row).toMatchObject({ trial_outcome: trial.outcome, internal_verdict: trial.evaluation?.verdict, tokens_in: String(tokensIn), strategy: arm === "ReAct" ? "none" : "reflexion", model: "demo" });
      }
    }
    expect(rows).toHaveLength(expected);
    const json = await context.experimentExport.json(record.id);
    expect(json.cells).toHaveLength(4);
    expect((await context.experimentExport.eventsNdjson(record.id)).trim().split("\n")).toHaveLength([...logs.values()].reduce((n, log) => n + log.length, 0));
  });

  it("refuses unknown tasks and strategies a family does not run, with messages that say what to do", async () => {
    const { context } = setup();
    const arms = [{ label: "a", strategy: "none" as const, modelId: "demo" }];
    await expect(context.experiments.start({ name: "x", environment: "qa", taskSet: "builtin", taskIds: ["nope"], arms })).rejects.toThrow(/Not in the Built-in task set: nope.*tasks --env qa/);
    await expect(
      context.experiments.start({ name: "x", environment: "code", taskSet: "builtin", arms: [{ label: "cot", strategy: "cot", modelId: "demo" }] }),
    ).rejects.toThrow(/does not run the strategy "cot"/);
    await expect(context.experiments.start({ name: "x", environment: "qa", taskSet: "builtin", arms: [...arms, ...arms] })).rejects.toThrow(/arm labels must be unique/);
  });

  it("cancel stops queued and running runs; the experiment reads cancelled", async () => {
    const demo = countingDemo();
    const context = createServerContext({ store: new MemoryRunStore(), model: demo.port, startWorkers: false });
    const record = await context.experiments.start({
      name: "to cancel",
      environment: "qa",
      taskSet: "builtin",
      taskIds: qaTasks,
      arms: [{ label: "Reflexion", strategy: "reflexion", modelId: "demo" }],
    });
    const summary = await context.experiments.cancel(record.id);
    expect(summary.cells.map((cell) => cell.outcome)).toEqual(["cancelled", "cancelled", "cancelled"]);
    expect(summary.status).toBe("cancelled");
    expect(demo.calls()).toBe(0);
  });
});
