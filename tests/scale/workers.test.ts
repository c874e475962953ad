import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asBranchId, asRunId } from "@/lib/domain/ids";
import { deadLettersResponseSchema } from "@/lib/domain/job-queue";
import { requestBodyHash, startScaleHarness, waitUntil, type ScaleHarness } from "./harness";

/**
 * Runs as pg-boss jobs on a real PostgreSQL, driven by `cli worker` child
 * processes against a fake OpenAI-compatible server with a fixed latency. Bounded by timeouts;
 * nothing here asserts a speed (bench/scale.bench.ts measures that).
 */

const MODEL = "compatible:fake-model";

let harness: ScaleHarness;

beforeAll(async () => {
  harness = await startScaleHarness({ latencyMs: 150 });
}, 120_000);

afterAll(async () => {
  await harness?.stop();
}, 60_000);

async function branchEvents(runId: string) {
  const run = await harness.producer.service.getRun(runId);
  return harness.producer.store.list(run.id, run.rootBranchId);
}

async function statuses(runIds: readonly string[]): Promise<string[]> {
  return Promise.all(runIds.map(async (id) => harness.producer.service.status(await harness.producer.service.getRun(id))));
}

async function startExperiment(name: string, taskIds?: string[]) {
  const record = await harness.producer.experiments.start({
    name,
    environment: "qa",
    taskSet: "builtin",
    taskIds: taskIds ?? [],
    arms: [{ label: "reflexion", strategy: "reflexion", modelId: MODEL }],
    maxTrials: 3,
  });
  await harness.pool.reconcile();
  return { record, runIds: await harness.producer.experiments.runIds(record.id) };
}

describe("runs as jobs on pg-boss", { tags: ["slow"] }, () => {
  it("an experiment's runs each complete exactly once across 3 workers, and a resubmitted experiment enqueues nothing", async () => {
    const { record, runIds } = await startExperiment("scale: exactly once");
    expect(runIds.length).toBeGreaterThanOrEqual(10);
    // Every runnable branch has its one job; reconciling again (a resubmit) adds none.
    const queued = await harness.producer.jobs.queuedBranches();
    expect(new Set(queued).size).toBe(runIds.length);
    await harness.producer.experiments.resume(record.id);
    await harness.pool.reconcile();
    expect((await harness.producer.jobs.queuedBranches()).length).toBe(runIds.length);

    const workers = [harness.startWorker({ concurrency: 2 }), harness.startWorker({ concurrency: 2 }), harness.startWorker({ concurrency: 2 })];
    await waitUntil(async () => (await statuses(runIds)).every((status) => status === "ended"), "every run to end", 150_000, 500);

    for (const runId of runIds) {
      const events = await branchEvents(runId);
      expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
      expect(events.filter((event) => event.type === "run-end")).toHaveLength(1);
      expect(events.filter((event) => event.type === "run-start")).toHaveLength(1);
    }
    // Each run was started by exactly one worker, and more than one worker took part.
    const started = workers.flatMap((worker) => worker.started());
    expect(started.sort()).toEqual([...runIds].sort());
    expect(workers.filter((worker) => worker.started().length > 0).length).toBeGreaterThan(1);
    // No call was made twice (every prompt of this experiment is distinct).
    const hashes = harness.fake.chatRequests().map(requestBodyHash);
    expect(new Set(hashes).size).toBe(hashes.length);
    for (const worker of workers) worker.child.kill("SIGTERM");
    await Promise.all(workers.map((worker) => worker.exited));
  }, 200_000);

  it("a worker killed with SIGKILL mid-run: its job is retried on another worker, no seq twice, no call the cache holds made again", async () => {
    const before = harness.fake.chatRequests().length;
    const { runIds } = await startExperiment("scale: sigkill", ["qa-builtin-01", "qa-builtin-02", "qa-builtin-03", "qa-builtin-04"]);
    const victim = harness.startWorker({ concurrency: 4 });
    await victim.waitFor(/: started/, 60_000);
    // Let it record a few calls, then kill it mid-run.
    await waitUntil(() => harness.fake.chatRequests().length >= before + 3, "the victim's first calls", 60_000, 50);
    victim.child.kill("SIGKILL");
    await victim.exited;
    const killedAt = Date.now();
    const killedRuns = victim.started();
    expect((await statuses(killedRuns)).some((status) => status === "interrupted" || status === "queued" || status === "running")).toBe(true);

    const rescuer = harness.startWorker({ concurrency: 2 });
    await waitUntil(async () => (await statuses(runIds)).every((status) => status === "ended"), "every run to end after the kill", 150_000, 500);
    // The killed worker's runs were finished by the rescuer (pg-boss retried their jobs).
    if (process.env.SCALE_DEBUG) console.log({ killedRuns, victim: victim.lines, rescuer: rescuer.lines, events: await Promise.all(killedRuns.map(async (id) => (await branchEvents(id)).map((e) => e.type).join(","))) });
    for (const runId of killedRuns) expect(rescuer.started()).toContain(runId);
    for (const runId of runIds) {
      const events = await branchEvents(runId);
      expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
      expect(events.filter((event) => event.type === "run-end")).toHaveLength(1);
    }
    // Only calls in flight at the kill (sent, never answered, so never cached) may be repeated.
    const requests = harness.fake.chatRequests().slice(before);
    const byHash = new Map<string, number[]>();
    for (const request of requests) byHash.set(requestBodyHash(request), [...(byHash.get(requestBodyHash(request)) ?? []), request.receivedAt ?? 0]);
    const repeated = [...byHash.values()].filter((times) => times.length > 1);
    expect(repeated.length).toBeLessThanOrEqual(4);
    for (const times of repeated) {
      expect(times).toHaveLength(2);
      expect(times[0]).toBeLessThanOrEqual(killedAt);
    }
    rescuer.child.kill("SIGTERM");
    await rescuer.exited;
  }, 200_000);

  it("interactive runs are fetched before batch runs; cancelled queued jobs never reach a worker", async () => {
    const { runIds: batch } = await startExperiment("scale: priority", ["qa-builtin-05", "qa-builtin-06", "qa-builtin-07", "qa-builtin-08"]);
    const interactive = [];
    for (const taskId of ["qa-builtin-09", "qa-builtin-10", "qa-builtin-11"]) {
      interactive.push(await harness.producer.service.createRun({ environment: "qa", taskSet: "builtin", taskId, strategy: "reflexion", modelId: MODEL, maxTrials: 2 }));
    }
    await harness.pool.reconcile();
    // Cancel one interactive run and one batch run while they wait in the queue.
    const cancelled = [interactive[2]!.id, batch[3]!];
    for (const runId of cancelled) expect(await harness.producer.service.cancel(runId)).toBe("ended");
    await harness.pool.reconcile();
    const queued = await harness.producer.jobs.queuedBranches();
    for (const runId of cancelled) expect(queued).not.toContain(asBranchId((await harness.producer.service.getRun(runId)).rootBranchId));
    expect(queued).toHaveLength(5);

    const before = harness.fake.chatRequests().length;
    const worker = harness.startWorker({ concurrency: 1 });
    const live = [interactive[0]!.id, interactive[1]!.id, ...batch.slice(0, 3)];
    await waitUntil(async () => (await statuses(live)).every((status) => status === "ended"), "the queued runs to end", 150_000, 500);
    const order = worker.started();
    expect(order.slice(0, 2).sort()).toEqual([interactive[0]!.id, interactive[1]!.id].sort());
    expect(order.slice(2).sort()).toEqual(batch.slice(0, 3).sort());
    for (const runId of cancelled) {
      expect(order).not.toContain(runId);
      const events = await branchEvents(runId);
      expect(events.some((event) => event.type === "model-call-end")).toBe(false);
    }
    expect(harness.fake.chatRequests().length).toBeGreaterThan(before);
    worker.child.kill("SIGTERM");
    await worker.exited;
  }, 200_000);

  it("a job whose every attempt fails (its branch is not in this database) is retried with backoff, then listed as a dead letter", async () => {
    const runId = "00000000-0000-4000-8000-00000000dead";
    const branchId = "00000000-0000-4000-8000-00000000beef";
    expect(await harness.producer.jobs.enqueue([{ runId: asRunId(runId), branchId: asBranchId(branchId), priority: "interactive" }])).toBe(1);
    const worker = harness.startWorker({ concurrency: 1 });
    await waitUntil(async () => (await harness.producer.jobs.listDeadLetters(10)).some((letter) => letter.runId === runId), "the dead letter", 120_000, 500);
    const letter = (await harness.producer.jobs.listDeadLetters(10)).find((candidate) => candidate.runId === runId);
    // 1 attempt + 4 retries (1 s, 2 s, 4 s, 4 s with the test's delays).
    expect(letter).toMatchObject({ branchId, priority: "interactive", attempts: 5 });
    expect(letter?.error).toMatch(/not in this database/);
    const stats = await harness.producer.jobs.stats();
    expect(stats.failed).toBeGreaterThanOrEqual(1);
    // What GET /api/jobs/dead-letters and the /jobs panel get.
    expect(deadLettersResponseSchema.parse({ mode: harness.producer.jobs.kind, stats, deadLetters: [letter] }).deadLetters).toHaveLength(1);
    worker.child.kill("SIGTERM");
    await worker.exited;
  }, 200_000);
});
