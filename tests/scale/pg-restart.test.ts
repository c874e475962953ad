import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sleep, startScaleHarness, waitUntil, type ScaleHarness } from "./harness";

/**
 * docs/shared-mode.md "What happens when … the database goes away": PostgreSQL stops
 * (fast shutdown: every session gets "terminating connection due to administrator command") for a
 * few seconds while a `cli worker` child process drives runs against a slow fake model, and starts
 * again on the same port and data directory. The worker must stay alive (every pg pool and client
 * has an `error` listener: the store's, pg-boss's, the LISTEN fan-out's and the rate-limit
 * counters' — opened by the first model call even with no REFLEXION_RATE_LIMITS, since a 429 blocks
 * a key for every worker), and every run must end exactly once with its log's seq 1..n without gaps
 * (an attempt whose append failed is retried by pg-boss and the branch resumes from its log).
 */

const MODEL = "compatible:fake-model";
const TASKS = ["qa-builtin-01", "qa-builtin-02", "qa-builtin-03", "qa-builtin-04"];

let harness: ScaleHarness;

beforeAll(async () => {
  harness = await startScaleHarness({ latencyMs: 400 });
}, 120_000);

afterAll(async () => {
  await harness?.stop();
}, 60_000);

async function statuses(runIds: readonly string[]): Promise<string[]> {
  return Promise.all(runIds.map(async (id) => harness.producer.service.status(await harness.producer.service.getRun(id))));
}

describe("a PostgreSQL restart mid-run", { tags: ["slow"] }, () => {
  it("the worker survives a fast shutdown of a few seconds, logs the lost connection once per pool, and every run ends exactly once", async () => {
    const runIds: string[] = [];
    for (const taskId of TASKS) {
      runIds.push((await harness.producer.service.createRun({ environment: "qa", taskSet: "builtin", taskId, strategy: "reflexion", modelId: MODEL, maxTrials: 3 })).id);
    }
    await harness.pool.reconcile();
    const worker = harness.startWorker({ concurrency: 4 });
    await worker.waitFor(/: started/, 60_000);
    // Mid-run: some calls answered, so the pools hold idle connections and drives are in flight.
    await waitUntil(() => harness.fake.chatRequests().length >= 6, "the worker's first calls", 60_000, 50);
    expect((await statuses(runIds)).some((status) => status === "running")).toBe(true);

    await harness.pg.restart(3_000);
    // Still alive well after the server went away and came back.
    await sleep(2_000);
    expect(worker.child.exitCode, worker.lines.slice(-30).join("\n")).toBeNull();
    expect(worker.child.signalCode).toBeNull();

    await waitUntil(async () => (await statuses(runIds)).every((status) => status === "ended"), "every run to end after the restart", 150_000, 500);
    expect(worker.child.exitCode, worker.lines.slice(-30).join("\n")).toBeNull();
    for (const runId of runIds) {
      const run = await harness.producer.service.getRun(runId);
      const events = await harness.producer.store.list(run.id, run.rootBranchId);
      expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
      expect(events.filter((event) => event.type === "run-end")).toHaveLength(1);
      expect(events.filter((event) => event.type === "run-start")).toHaveLength(1);
    }
    const output = worker.lines.join("\n");
    expect(output).not.toMatch(/Unhandled 'error' event|\[object Object\]/);
    // Said clearly, once per pool per outage.
    const lost = worker.lines.filter((line) => /^\[db\] .+: lost its connection: /.test(line));
    expect(lost.length).toBeGreaterThan(0);
    expect(lost.some((line) => line.includes("terminating connection due to administrator command"))).toBe(true);
    expect(new Set(lost.map((line) => line.slice(0, line.indexOf(": lost")))).size).toBe(lost.length);
    // The LISTEN fan-out says it lost its connection once, and that it is back.
    expect(worker.lines.filter((line) => line.startsWith("[fan-out] the LISTEN connection was lost: terminating connection due to administrator command"))).toHaveLength(1);
    expect(worker.lines).toContain("[fan-out] the LISTEN connection is back: live events flow again");
    if (process.env.SCALE_DEBUG) console.log(worker.lines.join("\n"));
    worker.child.kill("SIGTERM");
    await worker.exited;
  }, 240_000);
});
