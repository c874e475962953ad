import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sleep, startScaleHarness, waitUntil, type ScaleHarness } from "./harness";

/**
 * A runnable branch whose every attempt fails (here: a trigger makes its appends fail
 * after its first two events (so not even its run-error can be recorded), as a broken database would) ends as **one** dead letter after its
 * retries — not one letter per attempt — and stays there until a person acts: no process's
 * reconciliation enqueues a second job beside the active or retrying one (pg-boss's `stately`
 * policy would send the failing attempt straight to the dead letters), nor again after the letter.
 * Two workers reconcile every 300 ms to make that race likely. Bounded by timeouts.
 */

const RETRY_LIMIT = 2;
let harness: ScaleHarness;
let sql: pg.Client;

beforeAll(async () => {
  harness = await startScaleHarness({ latencyMs: 100, env: { REFLEXION_JOB_RETRY_LIMIT: String(RETRY_LIMIT), REFLEXION_JOB_RECONCILE_MS: "300" } });
  sql = new pg.Client({ connectionString: harness.databaseUrl });
  sql.on("error", () => undefined);
  await sql.connect();
}, 120_000);

afterAll(async () => {
  await sql?.end().catch(() => undefined);
  await harness?.stop();
}, 60_000);

describe("a branch that keeps failing", { tags: ["slow"] }, () => {
  it("becomes exactly one dead letter after its retries, and is not enqueued again until someone acts", async () => {
    const run = await harness.producer.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-03", strategy: "reflexion", modelId: "compatible:fake-model", maxTrials: 3 });
    await sql.query(`CREATE FUNCTION test_fail_events() RETURNS trigger AS $$
      BEGIN
        IF NEW.run_id = '${run.id}' AND NEW.seq > 2 THEN RAISE EXCEPTION 'test: injected append failure'; END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    await sql.query("CREATE TRIGGER test_fail_events BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION test_fail_events()");
    const workers = [harness.startWorker({ concurrency: 1 }), harness.startWorker({ concurrency: 1 })];
    await harness.pool.reconcile();

    const lettersOfRun = async () => (await harness.producer.jobs.listDeadLetters(100)).filter((letter) => letter.runId === run.id);
    await waitUntil(async () => (await lettersOfRun()).length > 0, "the run's dead letter", 60_000, 250).catch(async (e) => { console.log(workers.map((w) => w.lines.join("\n")).join("\n-----\n")); console.log((await sql.query("SELECT state, retry_count, output FROM pgboss.job")).rows); throw e; });
    // Several reconciliation passes of both workers later, still one letter and no job for the branch.
    await sleep(3_000);
    const letters = await lettersOfRun();
    expect(letters).toHaveLength(1);
    expect(letters[0]).toMatchObject({ branchId: run.rootBranchId, attempts: RETRY_LIMIT + 1 });
    expect(await harness.producer.jobs.queuedBranches()).not.toContain(run.rootBranchId);
    expect(await harness.producer.jobs.branchesWithJobs([run.rootBranchId])).toEqual(new Set([run.rootBranchId]));
    const jobs = await sql.query<{ state: string }>("SELECT state FROM pgboss.job WHERE name = 'reflexion-branch-drive' AND singleton_key = $1", [`branch:${run.rootBranchId}`]);
    expect(jobs.rows.map((row) => row.state).sort()).toEqual(["failed"]);
    // Nothing recorded was lost: the first events are there, in order.
    const events = await harness.producer.store.list(run.id, run.rootBranchId);
    expect(events.map((event) => event.seq)).toEqual([1, 2]);
    for (const worker of workers) worker.child.kill("SIGTERM");
    await Promise.all(workers.map((worker) => worker.exited));
  }, 200_000);
});
