/**
 * Engine benchmark: `npm run bench`. Prints figures, asserts nothing (speed
 * targets live here, not in the tests).
 * - engine overhead of a 5-trial QA Reflexion run with a zero-latency model
 *   (the model port answers instantly; time is the engine, prompts, folding and the store);
 * - the same through the AI SDK path (createModelPort + MockLanguageModelV3);
 * - events per second appended by the engine, in memory and in SQLite on disk;
 * - a fully recorded replay of that run;
 * - the engine's cost per event for runs of ~150, ~1,500 and ~15,000 events
 *   (it must not grow with the run: largest / smallest ≤ 1.25). Each cell is the median over
 *   {@link ROUNDS} = 3 interleaved rounds (the ~15,000-event run: the median of 3 runs, one per
 *   round). On a shared machine one bench run still moves by ±0.1 in the ratio (about half of
 *   SQLite's CPU time per event is the fsync of each append, which varies with other processes'
 *   disk writes), so the README quotes the median of 3 bench runs;
 * - the event-loop delay (p99, max) while a 50-trial demo-model run executes
 *   through the real model port, the response cache and SQLite (target p99 < 50 ms).
 *
 * Environment: `BENCH_SKIP_REPLAY=1` skips the replay row (it needs the server's worker pool).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { runConfigSchema, type RunConfig } from "@/lib/domain/config";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import type { RunStore } from "@/lib/db/store";
import { driveRun } from "@/lib/engine/run-engine";
import type { ModelPort } from "@/lib/engine/ports";
import { builtinQaTasks, qaDemoScriptBook, qaEnvironment } from "@/lib/environments/qa";
import { createCachingModelPort } from "@/lib/llm/caching-model-port";
import { createModelPort } from "@/lib/llm/model-port";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";

const task = builtinQaTasks[0]!;

/** A QA run config for `task` (demo model ids; the bench's ports ignore them unless they are the real port). */
function qaConfig(overrides: Partial<Pick<RunConfig, "strategy" | "maxTrials" | "maxStepsPerTrial">> = {}): RunConfig {
  return runConfigSchema.parse({
    environment: "qa",
    taskSetName: "builtin",
    taskId: task.id,
    task,
    strategy: "reflexion",
    maxTrials: 5,
    maxStepsPerTrial: 6,
    models: { actor: { modelId: "demo" }, reflector: { modelId: "demo" } },
    templates: qaEnvironment.defaultTemplates,
    ...overrides,
  });
}
const config = qaConfig();

/**
 * Never succeeds, always uses every step: the worst case for a run (trials × steps Actor calls + a
 * reflection per failed trial). Step n searches the task's pages in turn (4 pages: a cycle of
 * period 4, which the loop stops of decision 0014 — repetition, and cycles of period 2 and 3 — do
 * not halt; each page is a different observation), so every trial runs to its step limit.
 */
const pages = task.paragraphs.map((paragraph) => paragraph.title);
const respond = (prompt: string): string => {
  if (prompt.trimEnd().endsWith("Reflection:")) return "Search the second entity before answering.";
  const step = Number(/Thought (\d+):\s*$/.exec(prompt)?.[1] ?? "1");
  return ` Keep looking.\nAction ${step}: Search[${pages[(step - 1) % pages.length]}]`;
};
if (new Set(pages).size < 4) throw new Error(`The bench's task needs at least 4 distinct pages for a period-4 search cycle; ${task.id} has ${pages.length}.`);

/**
 * An AI SDK mock model playing {@link respond}: a load generator that imitates a model which never
 * succeeds (tests script their models by call order instead; this bench resolves a model per call).
 */
function respondingMockModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doStream: async (call) => {
      const prompt = call.prompt.map((message) => (typeof message.content === "string" ? message.content : message.content.map((part) => ("text" in part ? part.text : "")).join(""))).join("\n");
      const text = respond(prompt);
      return {
        stream: simulateReadableStream({
          chunks: [
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: text },
            { type: "text-end", id: "t" },
            {
              type: "finish",
              finishReason: { unified: "stop", raw: undefined },
              usage: { inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 10, text: 10, reasoning: undefined } },
            },
          ],
          initialDelayInMs: null,
          chunkDelayInMs: null,
        }),
      };
    },
  });
}

const instantPort: ModelPort = {
  async generate(request) {
    const text = respond(request.messages.map((m) => m.content).join("\n"));
    return { text, usage: { inputTokens: 0, outputTokens: 0 }, finishReason: "stop", latencyMs: 0, costUsd: 0, requestHash: "bench", source: "live" };
  },
};

const engineDeps = (store: RunStore, model: ModelPort) => ({ log: store, model, environmentFor: () => qaEnvironment });

/**
 * Drives one new run to its end. `ms`: wall time of `driveRun`; `cpuMs`: CPU time this process
 * used meanwhile (user + system, all threads; unlike wall time, not inflated by other processes
 * competing for the cores, and without I/O waits); `events`: the branch's events; `appended`:
 * those the engine appended (all but `run-start`).
 */
async function timeRun(
  store: RunStore,
  model: ModelPort,
  runConfig: RunConfig = config,
): Promise<{ ms: number; cpuMs: number; events: number; appended: number }> {
  const run = await store.createRun({ config: runConfig, title: task.question });
  const cpu = process.cpuUsage();
  const start = performance.now();
  await driveRun(engineDeps(store, model), { runId: run.id, branchId: run.rootBranchId });
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const events = (await store.list(run.id, run.rootBranchId)).length;
  return { ms, cpuMs: (used.user + used.system) / 1000, events, appended: events - 1 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const fmtInt = (value: number): string => Math.round(value).toLocaleString("en-US");

async function measure(label: string, make: () => RunStore, model: ModelPort, repeats: number) {
  await timeRun(make(), model); // warm-up
  const times: number[] = [];
  let events = 0;
  for (let i = 0; i < repeats; i++) {
    const result = await timeRun(make(), model);
    times.push(result.ms);
    events = result.events;
  }
  const ms = median(times);
  console.log(`${label.padEnd(58)} ${ms.toFixed(1).padStart(8)} ms   ${events} events   ${fmtInt((events / ms) * 1000).padStart(8)} events/s`);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-bench-"));
let n = 0;
const openedStores: SqliteRunStore[] = [];
/** A fresh SQLite database on disk (WAL) in the bench's temp dir; closed at the end of its section. */
const sqliteStore = (): SqliteRunStore => {
  const store = new SqliteRunStore(path.join(dir, `bench-${++n}.sqlite`));
  openedStores.push(store);
  return store;
};
const closeStores = async (): Promise<void> => {
  for (const store of openedStores.splice(0)) await store.close();
};
const benchStart = performance.now();

console.log(`Engine bench — Node ${process.version}, ${os.cpus().length} cores; 5-trial QA run, 6 steps per trial, median of 20`);
await measure("engine overhead (instant model port, in-memory store)", () => new MemoryRunStore(), instantPort, 20);
await measure("via AI SDK streamText + MockLanguageModelV3, in-memory", () => new MemoryRunStore(), createModelPort({ resolveModel: () => respondingMockModel(), maxRetries: 0 }), 20);
await measure("instant model port, SQLite on disk (WAL)", sqliteStore, instantPort, 20);
await closeStores();

// A fully recorded replay: run once (filling the response cache), then fork at seq 1 in `recorded` mode.
if (process.env.BENCH_SKIP_REPLAY !== "1") {
  const store = new SqliteRunStore(path.join(dir, "replay.sqlite"));
  const { createServerContext } = await import("@/lib/server/app-context");
  const context = createServerContext({ store, model: instantPort });
  const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: task.id, strategy: "reflexion", modelId: "demo", maxTrials: 5 });
  await context.workers.untilSettled(run.rootBranchId);
  const times: number[] = [];
  let cached = 0;
  let live = 0;
  for (let i = 0; i < 10; i++) {
    const start = performance.now();
    const { branchId } = await context.service.fork(run.id, { atSeq: 1, replay: "recorded" });
    await context.workers.untilSettled(branchId);
    times.push(performance.now() - start);
    const events = (await context.service.events(run.id, 0, branchId)).events.filter((event) => event.branchId === branchId);
    cached = events.filter((event) => event.type === "model-call-end" && event.data.source === "cache").length;
    live = events.filter((event) => event.type === "model-call-end" && event.data.source === "live").length;
  }
  console.log(`${"fully recorded replay of that run (SQLite, response cache)".padEnd(58)} ${median(times).toFixed(1).padStart(8)} ms   ${cached} cached calls, ${live} live`);
  await context.workers.stop();
  await store.close();
}
console.log("Targets (issue: steer a run): engine overhead < 50 ms for a 5-trial QA run; fully recorded replay < 1 s.");

// ---------------------------------------------------------------------------
// Per-event cost against run length. The instant port never succeeds, so each
// run uses its whole trial and step budget: a QA trial of S steps appends
// 4 events per step (call, thought, action, observation) plus trial-start,
// evaluation, trial-end, checkpoint and, after a failure, a reflection call,
// the reflection and a checkpoint. The config caps trials at 50 and steps at
// 100, so ~15,000 events need long trials (74 steps); the extra 5 × 74 row
// tells growth with run length (trials) from growth with trial length (steps).
// ---------------------------------------------------------------------------
interface Size {
  label: string;
  trials: number;
  steps: number;
  /** Runs per round; there are {@link ROUNDS} rounds, interleaved over the sizes so that load from other processes hits every size alike. */
  perRound: number;
  /** Part of the ratio (the diagnostic row is not). */
  inRatio: boolean;
}
const sizes: Size[] = [
  { label: "5 trials × 6 steps", trials: 5, steps: 6, perRound: 5, inRatio: true },
  { label: "50 trials × 6 steps", trials: 50, steps: 6, perRound: 2, inRatio: true },
  { label: "50 trials × 74 steps", trials: 50, steps: 74, perRound: 1, inRatio: true },
  { label: "(diagnostic) 5 trials × 74 steps", trials: 5, steps: 74, perRound: 2, inRatio: false },
];
const ROUNDS = 3;
/** Past this much time on one size and store, stop measuring it (keeps the bench within minutes if the engine regresses). */
const budgetMs = 30_000;

interface Cell {
  /** Wall ms per appended event, one per run. */
  perEvent: number[];
  /** CPU ms per appended event, one per run. */
  cpuPerEvent: number[];
  runMs: number[];
  events: number;
  spentMs: number;
}

const stores: Array<{ name: string; make: () => RunStore }> = [
  { name: "in-memory", make: () => new MemoryRunStore() },
  { name: "SQLite (disk)", make: sqliteStore },
];
// Warm-up (JIT) for both stores, so the smallest size is not charged for compilation.
for (const store of stores) {
  for (let i = 0; i < 3; i++) await timeRun(store.make(), instantPort, qaConfig({ maxTrials: 5, maxStepsPerTrial: 6 }));
  await timeRun(store.make(), instantPort, qaConfig({ maxTrials: 10, maxStepsPerTrial: 20 }));
}
await closeStores();

const cells: Cell[][] = sizes.map(() => stores.map(() => ({ perEvent: [], cpuPerEvent: [], runMs: [], events: 0, spentMs: 0 })));
for (let round = 0; round < ROUNDS; round++) {
  for (const [row, size] of sizes.entries()) {
    const runConfig = qaConfig({ maxTrials: size.trials, maxStepsPerTrial: size.steps });
    for (const [column, store] of stores.entries()) {
      const cell = cells[row]![column]!;
      for (let i = 0; i < size.perRound && cell.spentMs < budgetMs; i++) {
        const result = await timeRun(store.make(), instantPort, runConfig);
        cell.perEvent.push(result.ms / result.appended);
        cell.cpuPerEvent.push(result.cpuMs / result.appended);
        cell.runMs.push(result.ms);
        cell.events = result.events;
        cell.spentMs += result.ms;
      }
      await closeStores();
    }
  }
}
const table = sizes.map((size, row) => ({
  size,
  cells: cells[row]!.map((cell) => ({
    wall: median(cell.perEvent),
    cpu: median(cell.cpuPerEvent),
    events: cell.events,
    runMs: median(cell.runMs),
  })),
}));
type Figure = "wall" | "cpu";
const width = 34;
const pair = (wall: string, cpu: string): string => `${wall.padStart(9)} ${cpu.padStart(9)}`;

console.log("");
console.log(
  `Per-event engine cost: time of driveRun / events it appended, ms (QA Reflexion, instant port that never succeeds; median of ${ROUNDS} interleaved rounds;` +
    " wall = elapsed, cpu = this process's CPU time, which load from other processes does not inflate)",
);
console.log(`${"".padEnd(width)} ${"".padStart(7)}   ${stores.map((store) => store.name.padStart(19)).join("   ")}   run ms`);
console.log(`${"run".padEnd(width)} ${"events".padStart(7)}   ${stores.map(() => pair("wall", "cpu")).join("   ")}`);
for (const { size, cells: row } of table) {
  console.log(
    `${size.label.padEnd(width)} ${fmtInt(row[0]!.events).padStart(7)}   ${row.map((cell) => pair(cell.wall.toFixed(4), cell.cpu.toFixed(4))).join("   ")}   ${row
      .map((cell) => fmtInt(cell.runMs))
      .join(" / ")}`,
  );
}
const ratio = (column: number, figure: Figure): string => {
  const values = table.filter((row) => row.size.inRatio).map((row) => row.cells[column]![figure]);
  return `${(Math.max(...values) / Math.min(...values)).toFixed(2)}×`;
};
console.log(`${"largest / smallest".padEnd(width)} ${"".padStart(7)}   ${stores.map((_, column) => pair(ratio(column, "wall"), ratio(column, "cpu"))).join("   ")}`);
// The same trial length, 10× the trials: growth with run length alone.
const cellOf = (trials: number, steps: number, column: number, figure: Figure) =>
  table.find((row) => row.size.trials === trials && row.size.steps === steps)?.cells[column]?.[figure] ?? Number.NaN;
for (const steps of [6, 74]) {
  const growth = (column: number, figure: Figure) => `${(cellOf(50, steps, column, figure) / cellOf(5, steps, column, figure)).toFixed(2)}×`;
  console.log(
    `${`50 vs 5 trials of ${steps} steps`.padEnd(width)} ${"".padStart(7)}   ${stores.map((_, column) => pair(growth(column, "wall"), growth(column, "cpu"))).join("   ")}`,
  );
}
console.log(
  "Target: largest / smallest ≤ 1.25 over the ~150, ~1,500 and ~15,000-event runs, on the SQLite store the app and the CLI use. " +
    "The in-memory store (tests, throw-away runs) keeps the whole run in the JS heap, so its column also carries garbage collection over that growing heap.",
);

// ---------------------------------------------------------------------------
// Event-loop delay during a 50-trial demo run: the demo model (scripted, instant
// apart from its event-loop turns) through the real model port (AI SDK
// streamText) and the response cache, SQLite on disk. Under `none` the demo
// keeps failing, so the run uses all 50 trials. Sampled every 10 ms
// (monitorEventLoopDelay); each sample is the time between two ticks of that
// 10 ms timer, so an idle loop reads ~10 ms.
// ---------------------------------------------------------------------------
const demoConfig = qaConfig({ strategy: "none", maxTrials: 50, maxStepsPerTrial: 6 });
/** Runs `parallel` 50-trial demo runs at once (one store, one port, as in the server) and samples the event-loop delay meanwhile. */
async function demoRunsUnderMonitor(parallel: number): Promise<void> {
  const store = sqliteStore();
  const model = createCachingModelPort(createModelPort({ env: {}, demoScriptBooks: [qaDemoScriptBook] }), store);
  const runs = await Promise.all(Array.from({ length: parallel }, () => store.createRun({ config: demoConfig, title: task.question })));
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  const started = performance.now();
  histogram.enable();
  const results = await Promise.all(runs.map((run) => driveRun(engineDeps(store, model), { runId: run.id, branchId: run.rootBranchId })));
  histogram.disable();
  const ms = performance.now() - started;
  const events = (await Promise.all(runs.map((run) => store.list(run.id, run.rootBranchId)))).flat();
  const calls = events.filter((event) => event.type === "model-call-end").length;
  const trials = events.filter((event) => event.type === "trial-end").length / parallel;
  const outcomes = [...new Set(results.map((result) => result.state.outcome ?? result.stoppedBecause))].join(", ");
  const toMs = (ns: number): string => (ns / 1e6).toFixed(1);
  console.log(
    `${parallel === 1 ? "one run" : `${parallel} runs at once`}: ${trials} trials each, ${fmtInt(ms)} ms, ${fmtInt(events.length)} events, ${calls} model calls, ended ${outcomes}; ` +
      `event-loop delay (${histogram.count} samples) p50 ${toMs(histogram.percentile(50))} ms, p99 ${toMs(histogram.percentile(99))} ms, max ${toMs(histogram.max)} ms`,
  );
  await closeStores();
}
console.log("");
console.log(
  `Event-loop delay during 50-trial demo runs (QA ${task.id}, strategy none, createModelPort + demo model + response cache, SQLite on disk; ` +
    "sampled every 10 ms with monitorEventLoopDelay, so an idle loop reads ~10 ms)",
);
{
  // Warm-up: the first AI SDK stream of a process compiles its code paths; a running server is past that.
  const store = sqliteStore();
  const model = createCachingModelPort(createModelPort({ env: {}, demoScriptBooks: [qaDemoScriptBook] }), store);
  const run = await store.createRun({ config: qaConfig({ strategy: "none", maxTrials: 3 }), title: task.question });
  await driveRun(engineDeps(store, model), { runId: run.id, branchId: run.rootBranchId });
  await closeStores();
}
await demoRunsUnderMonitor(1);
await demoRunsUnderMonitor(4);
console.log("Target: p99 < 50 ms.");

fs.rmSync(dir, { recursive: true, force: true });
console.log(`\nBench done in ${((performance.now() - benchStart) / 1000).toFixed(0)} s.`);
