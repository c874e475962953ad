import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScaleHarness, waitUntil, type ScaleHarness } from "./harness";

/**
 * A run driven by a `cli worker` process is cancelled from another process (an app
 * server: here the producer's RunService). The worker learns of the `cancel-request` through the
 * LISTEN fan-out (its summary poll is only a backstop, once a second), aborts the call in flight
 * and ends the run as cancelled at that boundary. Bounded by timeouts; no speed is asserted.
 */

let harness: ScaleHarness;

beforeAll(async () => {
  // Slow calls: a cancel lands while one is in flight.
  harness = await startScaleHarness({ latencyMs: 1_500 });
}, 120_000);

afterAll(async () => {
  await harness?.stop();
}, 60_000);

describe("cancel of a run another process drives", () => {
  it("ends the run as cancelled, with no model call completed after the request", async () => {
    const worker = harness.startWorker({ concurrency: 1 });
    await worker.waitFor(/pg-boss worker:/, 120_000);
    const run = await harness.producer.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-02", strategy: "reflexion", modelId: "compatible:fake-model", maxTrials: 5 });
    await harness.pool.reconcile();
    await worker.waitFor(new RegExp(`run ${run.id} \\(branch \\S+\\): started`), 60_000);
    // Wait for the first completed call, then cancel while the next one is in flight.
    await waitUntil(async () => (await harness.producer.store.list(run.id, run.rootBranchId)).some((event) => event.type === "model-call-end"), "a first model call", 60_000, 100);
    const requestsAtCancel = harness.fake.chatRequests().length;
    await harness.producer.service.cancel(run.id);

    await waitUntil(async () => (await harness.producer.service.status(await harness.producer.service.getRun(run.id))) === "ended", "the cancelled run to end", 30_000, 100);
    const events = await harness.producer.store.list(run.id, run.rootBranchId);
    const types = events.map((event) => event.type);
    expect(types).toContain("cancel-request");
    expect(types).toContain("run-cancel");
    expect(events.at(-1)).toMatchObject({ type: "run-end", data: { outcome: "cancelled" } });
    // Nothing the model answered after the request was recorded as an answer, and the worker sent at most the call that was in flight.
    const requestAt = types.indexOf("cancel-request");
    expect(types.slice(requestAt).filter((type) => type === "model-call-end")).toEqual([]);
    expect(harness.fake.chatRequests().length - requestsAtCancel).toBeLessThanOrEqual(1);
    await worker.waitFor(new RegExp(`run ${run.id} \\(branch \\S+\\): `), 10_000);
    worker.child.kill("SIGTERM");
    await worker.exited;
  }, 150_000);
});
