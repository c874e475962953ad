import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RecordedRequest } from "../helpers/fake-openai-server";
import { startScaleHarness, waitUntil, type ScaleHarness } from "./harness";

/**
 * Provider limits at the call site, shared by every worker through PostgreSQL.
 * Several `cli worker` processes drive one experiment against a fake server; the limits are read
 * back from the fake server's request times (what a provider would see). Bounded by timeouts.
 */

const MODEL = "compatible:fake-model";
const HOTPOT = path.resolve(import.meta.dirname, "../../../shared/data/hotpotqa/hotpotqa-distractor-reflexion-sample100.json");

let harness: ScaleHarness | null = null;

afterEach(async () => {
  await harness?.stop();
  harness = null;
}, 60_000);

async function startHotpotExperiment(h: ScaleHarness, tasks: number) {
  const listing = await h.producer.service.importTaskSet("qa", "hotpotqa-sample100.json", fs.readFileSync(HOTPOT, "utf8"));
  const record = await h.producer.experiments.start({
    name: "scale: rate limits",
    environment: "qa",
    taskSet: listing.taskSet.id,
    taskIds: listing.tasks.slice(0, tasks).map((task) => task.id),
    arms: [{ label: "reflexion", strategy: "reflexion", modelId: MODEL }],
    maxTrials: 2,
  });
  await h.pool.reconcile();
  return { id: record.id, runIds: await h.producer.experiments.runIds(record.id) };
}

/** The most requests that arrived within any `windowMs` (a sliding window over arrival times). */
function maxInWindow(requests: readonly RecordedRequest[], windowMs: number): number {
  const times = requests.map((request) => request.receivedAt ?? 0).sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < times.length; end += 1) {
    while ((times[end] ?? 0) - (times[start] ?? 0) >= windowMs) start += 1;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

describe("shared provider limits", { tags: ["slow"] }, () => {
  it("requests/min configured for the model hold across 3 workers: the provider never sees more than the limit allows", async () => {
    // 300 requests/min counted in 1-s windows: at most 5 requests start per window, for all workers together.
    harness = await startScaleHarness({
      latencyMs: 100,
      rateLimits: JSON.stringify({ compatible: { requestsPerMinute: 300, windowSeconds: 1 } }),
      // The provider's own limit, just above what two adjacent windows may admit: a 429 would mean the limiter leaked.
      fake: { rateLimit: { max: 11, windowMs: 1000, retryAfterSeconds: 1 } },
    });
    const h = harness;
    const { id, runIds } = await startHotpotExperiment(h, 8);
    for (let i = 0; i < 3; i += 1) h.startWorker({ concurrency: 3 });
    await waitUntil(async () => {
      const summary = await h.producer.experiments.summary(id);
      return summary.progress.done >= summary.progress.total;
    }, "the experiment to finish", 170_000, 500);
    const requests = h.fake.chatRequests();
    expect(requests.length).toBeGreaterThanOrEqual(16);
    const times = requests.map((request) => request.receivedAt ?? 0);
    const spanMs = Math.max(...times) - Math.min(...times);
    // Fixed 1-s windows: any 1-s stretch overlaps at most two of them; n windows admit at most 5 each.
    expect(maxInWindow(requests, 1000)).toBeLessThanOrEqual(10);
    expect(requests.length).toBeLessThanOrEqual(5 * (Math.ceil(spanMs / 1000) + 1));
    // 9 calls in flight at 100 ms each could send ~90 requests a second without the limiter.
    expect(requests.length / Math.max(1, spanMs / 1000)).toBeLessThan(7.5);
    expect(runIds.length).toBe(8);
  }, 240_000);

  it("a 429 with Retry-After blocks that key for every worker until it has passed", async () => {
    harness = await startScaleHarness({ latencyMs: 150 });
    const h = harness;
    await startHotpotExperiment(h, 12);
    for (let i = 0; i < 3; i += 1) h.startWorker({ concurrency: 2 });
    await waitUntil(() => h.fake.chatRequests().length >= 8, "the first requests", 150_000, 50);
    const scriptedAt = Date.now();
    h.fake.failNext(1, { status: 429, message: "fake server: slow down", retryAfter: "3", retryAfterMs: null });
    await waitUntil(() => h.fake.chatRequests().some((request) => (request.receivedAt ?? 0) >= scriptedAt), "the request that gets the 429", 60_000, 20);
    const limitedAt = Math.min(...h.fake.chatRequests().map((request) => request.receivedAt ?? 0).filter((time) => time >= scriptedAt));
    // Wait until well after the block, then look at what arrived meanwhile.
    await waitUntil(() => Date.now() > limitedAt + 4_500, "the block to pass", 10_000, 100);
    const during = h.fake.chatRequests().filter((request) => (request.receivedAt ?? 0) > limitedAt + 1_000 && (request.receivedAt ?? 0) < limitedAt + 2_900);
    const after = h.fake.chatRequests().filter((request) => (request.receivedAt ?? 0) >= limitedAt + 2_900);
    // Requests that had their permit before the block was written may still arrive in the first second.
    expect(during).toHaveLength(0);
    // And work goes on once it has passed.
    await waitUntil(() => after.length > 0 || h.fake.chatRequests().some((request) => (request.receivedAt ?? 0) >= limitedAt + 2_900), "requests after the block", 60_000, 100);
  }, 200_000);
});
