import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScaleHarness, waitUntil, type ScaleHarness } from "./harness";

/**
 * A run whose every append fails (a trigger on `events` raises, as a tester injected)
 * ends up as a dead letter whose error — what /jobs and `cli jobs dead-letters` show — carries the
 * database's own message and the statement, and the worker's output says the same; the worker
 * stays alive. (lib/db/pg/describe-pg-error.ts; job handler in lib/server/job-queue/queueing-pool.ts.)
 */

let harness: ScaleHarness;

beforeAll(async () => {
  harness = await startScaleHarness({ latencyMs: 50, env: { REFLEXION_JOB_RETRY_LIMIT: "1" } });
}, 120_000);

afterAll(async () => {
  await harness?.stop();
}, 60_000);

describe("a failing append's cause reaches the dead letter", () => {
  it("a trigger raising on events: the dead letter and the worker's line name 'newlab injected failure' and the insert", async () => {
    const run = await harness.producer.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "compatible:fake-model", maxTrials: 2 });
    const client = new pg.Client({ connectionString: harness.databaseUrl });
    await client.connect();
    try {
      await client.query(`CREATE FUNCTION newlab_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'newlab injected failure'; END $$`);
      await client.query(`CREATE TRIGGER newlab_fail BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION newlab_fail()`);
    } finally {
      await client.end();
    }
    await harness.pool.reconcile();
    const worker = harness.startWorker({ concurrency: 1 });
    await waitUntil(async () => (await harness.producer.jobs.listDeadLetters(10)).some((letter) => letter.runId === run.id), "the run's dead letter", 120_000, 500);
    const letter = (await harness.producer.jobs.listDeadLetters(10)).find((candidate) => candidate.runId === run.id);
    expect(letter?.error).toMatch(/: the event log failed: newlab injected failure \(while: insert into "events"\)$/);
    expect(letter?.error).not.toMatch(/Failed query|params:/);
    expect(worker.lines.some((line) => /the event log failed: newlab injected failure \(while: insert into "events"\)$/.test(line))).toBe(true);
    expect(worker.child.exitCode).toBeNull();
    worker.child.kill("SIGTERM");
    await worker.exited;
  }, 200_000);
});
