import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgBossSettings } from "@/lib/server/job-queue/pg-boss-queue";
import { sleep, startScaleHarness, waitUntil, type ScaleHarness } from "./harness";

/**
 * Idle `cli worker` processes are woken by PostgreSQL LISTEN/NOTIFY when a job is
 * created (pg-boss `useListenNotify` + the queue's `notify`), so a run starts on any machine
 * without waiting out a poll. The workers here poll only every 120 s: a run that starts well
 * before that was woken by the notification. Bounded by timeouts; no speed is asserted
 * (bench/scale.bench.ts measures throughput).
 */

const POLL_S = 120;
let harness: ScaleHarness;

beforeAll(async () => {
  harness = await startScaleHarness({
    latencyMs: 50,
    env: { REFLEXION_JOB_POLL_S: String(POLL_S), REFLEXION_JOB_NOTIFY_POLL_S: String(POLL_S), REFLEXION_JOB_RECONCILE_MS: String(POLL_S * 1000) },
  });
}, 120_000);

afterAll(async () => {
  await harness?.stop();
}, 60_000);

describe("workers woken by LISTEN/NOTIFY", () => {
  it("an idle worker that polls every 120 s takes a new run's job long before its next poll", async () => {
    const worker = harness.startWorker({ concurrency: 1 });
    await worker.waitFor(/pg-boss worker:/, 120_000);
    // Let its first fetch find nothing: from here on it sleeps until a poll or a notification.
    await sleep(1_500);
    const startedAt = Date.now();
    const run = await harness.producer.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "compatible:fake-model", maxTrials: 1 });
    await harness.pool.reconcile();
    await worker.waitFor(new RegExp(`run ${run.id} \\(branch \\S+\\): started`), 60_000);
    expect(Date.now() - startedAt).toBeLessThan((POLL_S / 2) * 1000);
    await waitUntil(async () => (await harness.producer.service.status(await harness.producer.service.getRun(run.id))) === "ended", "the run to end", 60_000, 200);
  }, 150_000);
});

describe("pgBossSettings (LISTEN/NOTIFY)", () => {
  it("is on by default with a 2 s backstop poll, and REFLEXION_JOB_LISTEN_NOTIFY=0 turns it off", () => {
    expect(pgBossSettings({})).toMatchObject({ listenNotify: true, notifyPollingIntervalSeconds: 2, pollingIntervalSeconds: 1 });
    expect(pgBossSettings({ REFLEXION_JOB_LISTEN_NOTIFY: "0", REFLEXION_JOB_NOTIFY_POLL_S: "5" })).toMatchObject({ listenNotify: false, notifyPollingIntervalSeconds: 5 });
    expect(pgBossSettings({ REFLEXION_JOB_LISTEN_NOTIFY: "TRUE" }).listenNotify).toBe(true);
  });

  it("keeps the backstop poll at least the plain poll: raised with REFLEXION_JOB_POLL_S, refused when set lower", () => {
    expect(pgBossSettings({ REFLEXION_JOB_POLL_S: "5" })).toMatchObject({ pollingIntervalSeconds: 5, notifyPollingIntervalSeconds: 5 });
    expect(() => pgBossSettings({ REFLEXION_JOB_POLL_S: "5", REFLEXION_JOB_NOTIFY_POLL_S: "2" })).toThrow(/REFLEXION_JOB_NOTIFY_POLL_S \(2 s\) must be at least REFLEXION_JOB_POLL_S \(5 s\)/);
  });

  it("names the variable and the docs when a value is wrong", () => {
    expect(() => pgBossSettings({ REFLEXION_JOB_LISTEN_NOTIFY: "sometimes" })).toThrow(/listenNotify.*docs\/shared-mode\.md/);
    expect(() => pgBossSettings({ REFLEXION_JOB_NOTIFY_POLL_S: "0.1" })).toThrow(/notifyPollingIntervalSeconds/);
  });
});
