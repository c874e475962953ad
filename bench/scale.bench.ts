/**
 * bench/scale: experiment throughput on pg-boss with 1, 2 and 4 `cli worker` processes
 * against a fake OpenAI-compatible model with a fixed 200 ms latency, in one run of the script, and
 * the shared rate limit holding across 4 workers.
 *
 *   npm run bench:scale [-- --runs 64 --limit-runs 32 --concurrency 2 --latency-ms 200 --workers 1,2,4]
 *
 * 64 runs by default: with 4 workers × 2 runs at once, 32 runs are only four "waves" of 8, and
 * the figure would mostly measure the first and last wave (submitting the experiment, the
 * workers' first run, the wave that ends last) rather than how fast a queue of a lab's size
 * drains; 64 give eight waves. The rate-limit phase runs 32 (at 240 requests/min, 64 runs would
 * take over three minutes and show nothing more).
 *
 * Each worker count gets a fresh PostgreSQL (the machine's, in a temp dir on 127.0.0.1; see
 * tests/helpers/postgres-server.ts). The workers are started and ready, and the task set imported,
 * before the clock starts; the measured time is from submitting the experiment (its runs created,
 * their jobs enqueued) until its last run ended — runs per minute of the queue draining, not
 * process start-up. It also prints the workers' CPU time per run (Linux /proc). Episodes
 * are I/O bound on the model's latency, so runs/min should rise near-linearly with workers (target:
 * 1 → 4 workers ≥ 3.2×). The last phase configures a requests/min limit for the model and prints the
 * highest request rate the fake provider saw (any 60 s, or the whole phase when shorter) against it.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { startScaleHarness, sleep, waitUntil, type ScaleHarness } from "../tests/scale/harness";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "64" }, "limit-runs": { type: "string", default: "32" }, concurrency: { type: "string", default: "2" }, "latency-ms": { type: "string", default: "200" }, workers: { type: "string", default: "1,2,4" } },
  strict: true,
});
const RUNS = Number(values.runs);
const LIMIT_RUNS = Number(values["limit-runs"]);
const CONCURRENCY = Number(values.concurrency);
const LATENCY_MS = Number(values["latency-ms"]);
const WORKER_COUNTS = (values.workers ?? "1,2,4").split(",").map(Number);
const MODEL = "compatible:fake-model";
const HOTPOT = path.resolve(import.meta.dirname, "../../shared/data/hotpotqa/hotpotqa-distractor-reflexion-sample100.json");
const LIMIT_PER_MIN = 240;

interface Phase {
  workers: number;
  runs: number;
  seconds: number;
  requests: number;
  runsPerMin: number;
  requestsPerMin: number;
  /** CPU time of the worker processes (user + system) per run, ms: what a run costs a worker besides waiting on the model. */
  workerCpuMsPerRun: number;
}

/** CPU time (user + system) a process has used so far, ms, from /proc (Linux); 0 where it cannot be read. */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, after the ")" that ends the command name; in clock ticks (100 per second on Linux).
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** Imports the HotpotQA sample as a task set (set-up, before the clock starts: it does not depend on the workers). */
async function importTasks(h: ScaleHarness): Promise<{ id: string; taskIds: string[] }> {
  const listing = await h.producer.service.importTaskSet("qa", "hotpotqa-sample100.json", fs.readFileSync(HOTPOT, "utf8"));
  return { id: listing.taskSet.id, taskIds: listing.tasks.map((task) => task.id) };
}

/** Submits the experiment (its runs are created and their jobs enqueued: inside the measured time). */
async function experiment(h: ScaleHarness, tasks: { id: string; taskIds: string[] }, runs: number): Promise<string> {
  const record = await h.producer.experiments.start({
    name: `bench scale ${runs}`,
    environment: "qa",
    taskSet: tasks.id,
    taskIds: tasks.taskIds.slice(0, runs),
    arms: [{ label: "reflexion", strategy: "reflexion", modelId: MODEL }],
    maxTrials: 5,
  });
  return record.id;
}

async function phase(workers: number, options: { rateLimits?: string; runs?: number } = {}): Promise<Phase> {
  const runs = options.runs ?? RUNS;
  // Reconciling every 5 s: the jobs are enqueued once by the producer; workers' passes are only a safety net.
  const h = await startScaleHarness({ latencyMs: LATENCY_MS, rateLimits: options.rateLimits, env: { REFLEXION_JOB_RECONCILE_MS: "5000" } });
  try {
    const processes = Array.from({ length: workers }, () => h.startWorker({ concurrency: CONCURRENCY }));
    await Promise.all(processes.map((worker) => worker.waitFor(/pg-boss worker:/, 120_000)));
    const tasks = await importTasks(h);
    await sleep(500);
    const cpuBefore = processes.map((worker) => cpuMs(worker.child.pid));
    const startedAt = Date.now();
    const id = await experiment(h, tasks, runs);
    await h.pool.reconcile();
    await waitUntil(async () => {
      const summary = await h.producer.experiments.summary(id);
      return summary.progress.done >= summary.progress.total;
    }, `the experiment with ${workers} worker(s)`, 30 * 60_000, 100);
    const seconds = (Date.now() - startedAt) / 1000;
    const workerCpuMs = processes.reduce((sum, worker, index) => sum + (cpuMs(worker.child.pid) - (cpuBefore[index] ?? 0)), 0);
    const requests = h.fake.chatRequests().length;
    return { workers, runs, seconds, requests, runsPerMin: (runs / seconds) * 60, requestsPerMin: maxRequestsPerMinute(h), workerCpuMsPerRun: workerCpuMs / runs };
  } finally {
    await h.stop();
  }
}

/** The highest number of requests the fake provider saw in any 60 s (scaled up when the phase was shorter). */
function maxRequestsPerMinute(h: ScaleHarness): number {
  const times = h.fake.chatRequests().map((request) => request.receivedAt ?? 0).sort((a, b) => a - b);
  if (times.length < 2) return times.length;
  const span = (times.at(-1) ?? 0) - (times[0] ?? 0);
  if (span < 60_000) return (times.length / Math.max(span, 1)) * 60_000;
  let best = 0;
  let start = 0;
  for (let end = 0; end < times.length; end += 1) {
    while ((times[end] ?? 0) - (times[start] ?? 0) >= 60_000) start += 1;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

async function main(): Promise<void> {
  console.log(`bench/scale: ${RUNS} runs (HotpotQA sample, reflexion, ≤ 5 trials) per phase, model latency ${LATENCY_MS} ms, ${CONCURRENCY} runs at once per worker, Node ${process.versions.node}`);
  const phases: Phase[] = [];
  for (const workers of WORKER_COUNTS) {
    const result = await phase(workers);
    phases.push(result);
    console.log(
      `  ${workers} worker(s): ${result.runs} runs in ${result.seconds.toFixed(1)} s = ${result.runsPerMin.toFixed(1)} runs/min (${result.requests} model requests, ${result.requestsPerMin.toFixed(0)} requests/min; workers' CPU ${result.workerCpuMsPerRun.toFixed(0)} ms per run)`,
    );
  }
  const one = phases.find((p) => p.workers === 1);
  const most = phases.at(-1);
  if (one && most && most !== one) {
    const speedup = most.runsPerMin / one.runsPerMin;
    console.log(`  speed-up 1 → ${most.workers} workers: ${speedup.toFixed(2)}× (target ≥ ${(0.8 * most.workers).toFixed(1)}×: ${speedup >= 0.8 * most.workers ? "met" : "NOT met"})`);
  }
  // 2-s windows (8 requests each): any 60 s overlaps at most 31 of them, so at most 248 requests — the limit plus one window.
  const windowSeconds = 2;
  const bound = LIMIT_PER_MIN + (LIMIT_PER_MIN * windowSeconds) / 60;
  const limited = await phase(Math.max(...WORKER_COUNTS), { runs: LIMIT_RUNS, rateLimits: JSON.stringify({ compatible: { requestsPerMinute: LIMIT_PER_MIN, windowSeconds } }) });
  const held = limited.requestsPerMin <= bound;
  console.log(
    `  shared limit ${LIMIT_PER_MIN} requests/min (${windowSeconds}-s windows, so ≤ ${bound} in any 60 s) across ${limited.workers} workers: observed max ${limited.requestsPerMin.toFixed(0)} requests/min over ${limited.seconds.toFixed(0)} s, ${limited.runsPerMin.toFixed(1)} runs/min — ${held ? "held" : "NOT held"}`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.stack : String(error));
    process.exit(1);
  },
);
