/**
 * Engine benchmark: `npm run bench`. Prints figures, asserts nothing.
 * - engine overhead of a 5-trial QA Reflexion run with a zero-latency model
 *   (the model port answers instantly; time is the engine, prompts, folding and the store);
 * - the same through the AI SDK path (createModelPort + MockLanguageModelV3);
 * - events per second appended by the engine, in memory and in SQLite on disk.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { runConfigSchema } from "@/lib/domain/config";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import type { RunStore } from "@/lib/db/store";
import { driveRun } from "@/lib/engine/run-engine";
import type { ModelPort } from "@/lib/engine/ports";
import { builtinQaTasks, qaEnvironment } from "@/lib/environments/qa";
import { createModelPort } from "@/lib/llm/model-port";
import { scriptedMockModel } from "../tests/helpers/mock-model";

const task = builtinQaTasks[0]!;
const config = runConfigSchema.parse({
  environment: "qa",
  taskSetName: "builtin",
  taskId: task.id,
  task,
  strategy: "reflexion",
  maxTrials: 5,
  maxStepsPerTrial: 6,
  models: { actor: { modelId: "demo" }, reflector: { modelId: "demo" } },
  templates: qaEnvironment.defaultTemplates,
});

/** Never succeeds, always uses all 6 steps: the worst case for a 5-trial run (5×6 Actor calls + 4 reflections). */
const respond = (prompt: string): string => {
  if (prompt.trimEnd().endsWith("Reflection:")) return "Search the second entity before answering.";
  const step = /Thought (\d+):\s*$/.exec(prompt)?.[1] ?? "1";
  return ` Keep looking.\nAction ${step}: Lookup[river]`;
};

const instantPort: ModelPort = {
  async generate(request) {
    const text = respond(request.messages.map((m) => m.content).join("\n"));
    return { text, usage: { inputTokens: 0, outputTokens: 0 }, finishReason: "stop", latencyMs: 0, costUsd: 0, requestHash: "bench", source: "live" };
  },
};

async function timeRun(store: RunStore, model: ModelPort): Promise<{ ms: number; events: number }> {
  const run = await store.createRun({ config, title: task.question });
  const start = performance.now();
  await driveRun({ log: store, model, environmentFor: () => qaEnvironment }, { runId: run.id, branchId: run.rootBranchId });
  const ms = performance.now() - start;
  return { ms, events: (await store.list(run.id, run.rootBranchId)).length };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

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
  console.log(`${label.padEnd(58)} ${ms.toFixed(1).padStart(8)} ms   ${events} events   ${Math.round((events / ms) * 1000).toLocaleString("en-US").padStart(8)} events/s`);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-bench-"));
let n = 0;
console.log(`Engine bench — Node ${process.version}, ${os.cpus().length} cores; 5-trial QA run, 6 steps per trial, median of 20`);
await measure("engine overhead (instant model port, in-memory store)", () => new MemoryRunStore(), instantPort, 20);
await measure("via AI SDK streamText + MockLanguageModelV3, in-memory", () => new MemoryRunStore(), createModelPort({ resolveModel: () => scriptedMockModel(respond), maxRetries: 0 }), 20);
const sqliteStores: SqliteRunStore[] = [];
await measure(
  "instant model port, SQLite on disk (WAL)",
  () => {
    const store = new SqliteRunStore(path.join(dir, `bench-${++n}.sqlite`));
    sqliteStores.push(store);
    return store;
  },
  instantPort,
  20,
);
for (const store of sqliteStores) await store.close();

// A fully recorded replay: run once (filling the response cache), then fork at seq 1 in `recorded` mode.
{
  const store = new SqliteRunStore(path.join(dir, "replay.sqlite"));
  const { createServerContext } = await import("@/lib/server/app-context");
  const context = createServerContext({ store, model: instantPort });
  const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: task.id, strategy: "reflexion", modelId: "demo", maxTrials: 5 });
  await context.executor.settled(run.rootBranchId);
  const times: number[] = [];
  let cached = 0;
  let live = 0;
  for (let i = 0; i < 10; i++) {
    const start = performance.now();
    const { branchId } = await context.service.fork(run.id, { atSeq: 1, replay: "recorded" });
    await context.executor.settled(branchId);
    times.push(performance.now() - start);
    const events = (await context.service.events(run.id, 0, branchId)).events.filter((event) => event.branchId === branchId);
    cached = events.filter((event) => event.type === "model-call-end" && event.data.source === "cache").length;
    live = events.filter((event) => event.type === "model-call-end" && event.data.source === "live").length;
  }
  console.log(`${"fully recorded replay of that run (SQLite, response cache)".padEnd(58)} ${median(times).toFixed(1).padStart(8)} ms   ${cached} cached calls, ${live} live`);
  await store.close();
}
fs.rmSync(dir, { recursive: true, force: true });
console.log("Targets (issue: steer a run): engine overhead < 50 ms for a 5-trial QA run; fully recorded replay < 1 s.");
