import { execFile } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { RunEvent } from "@/lib/domain/events";
import { isAppError } from "@/lib/domain/errors";
import { asBranchId, asRunId, type BranchId } from "@/lib/domain/ids";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { DeadLetterService } from "@/lib/server/job-queue/dead-letter-service";
import type { BranchJobHandler } from "@/lib/server/job-queue/port";
import { branchJobHandler } from "@/lib/server/job-queue/queueing-pool";
import { startScaleHarness, waitUntil, type ScaleHarness } from "./harness";

/**
 * Dead letters a person can act on, on a real PostgreSQL with pg-boss (one retry per job
 * here, so a job is dead after 2 attempts). A flaky worker in this process fails two runs' jobs —
 * run A's first attempt really drives it and stops mid-run (the worker shuts down: the job is
 * given back), every other attempt fails as if the database went away — so both land in the dead
 * letters with A's log half written. Retrying A's letter enqueues its job again and a `cli worker`
 * finishes A from its log; B, picked up by the queue's own reconciliation and finished, is refused
 * on retry and discarded; a letter whose branch is not in the database is refused too. The CLI is
 * run against the same database.
 */

const MODEL = "compatible:fake-model";
const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX_ARGS = ["--require", path.join(ROOT, "node_modules/tsx/dist/preflight.cjs"), "--import", pathToFileURL(path.join(ROOT, "node_modules/tsx/dist/loader.mjs")).href];

let harness: ScaleHarness;
let service: DeadLetterService;

beforeAll(async () => {
  harness = await startScaleHarness({ latencyMs: 40, env: { REFLEXION_JOB_RETRY_LIMIT: "1" } });
  service = new DeadLetterService(harness.producer.store, harness.producer.jobs);
}, 120_000);

afterAll(async () => {
  await harness?.stop();
}, 60_000);

async function eventsOf(runId: string): Promise<RunEvent[]> {
  const run = await harness.producer.service.getRun(runId);
  return harness.producer.store.list(run.id, run.rootBranchId);
}

async function rootBranch(runId: string): Promise<BranchId> {
  return asBranchId((await harness.producer.service.getRun(runId)).rootBranchId);
}

async function letterOf(runId: string) {
  return (await service.list(100)).deadLetters.find((letter) => letter.runId === runId) ?? null;
}

/** `npm run cli -- …` against the harness's database: exit code and output. */
async function cli(args: string[], env: Record<string, string | undefined> = harness.env): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...TSX_ARGS, "bin/cli.ts", ...args], { cwd: ROOT, env: { ...process.env, ...env }, timeout: 90_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    // execFile rejects on a non-zero exit with the exit code and both outputs on the error.
    const failed = z.object({ code: z.number().catch(-1), stdout: z.string().catch(""), stderr: z.string().catch("") }).parse(error);
    return failed;
  }
}

/** A worker process of our own whose attempts fail (see the file comment); stopped once both letters exist. */
async function failIntoDeadLetters(partial: BranchId, runIds: readonly string[]): Promise<void> {
  const flaky: ServerContext = createServerContext({ env: { ...process.env, ...harness.env }, startWorkers: false, requestedBy: "test" });
  const attempts = new Map<string, number>();
  const drive = branchJobHandler(flaky.workers, flaky.store);
  const handler: BranchJobHandler = async (job, signal) => {
    const attempt = (attempts.get(job.branchId) ?? 0) + 1;
    attempts.set(job.branchId, attempt);
    if (job.branchId === partial && attempt === 1) {
      const driving = drive(job, signal);
      await waitUntil(async () => ((await flaky.store.getBranchSummary(job.branchId))?.eventCount ?? 0) >= 6, "run A's first events", 60_000, 20);
      // The worker shuts down mid-run: the drive stops at its next step boundary and the job is given back.
      await flaky.workers.stop();
      await driving;
    }
    throw new Error(`simulated: the database went away mid-step (attempt ${attempt})`);
  };
  try {
    await flaky.jobs.work(handler, { concurrency: 1 });
    await waitUntil(async () => {
      const letters = await harness.producer.jobs.listDeadLetters(100);
      return runIds.every((runId) => letters.some((letter) => letter.runId === runId));
    }, "both jobs to be dead letters", 90_000, 250);
  } finally {
    await flaky.workers.stop();
    await flaky.jobs.stop({ graceful: false });
    await flaky.fanOut?.stop();
    await flaky.store.close();
  }
}

describe("dead letters you can act on (pg-boss)", { tags: ["slow"] }, () => {
  it("retry re-enqueues a dead branch job and a worker finishes it from its log; a finished branch is refused; discard removes a letter", async () => {
    const create = (taskId: string) => harness.producer.service.createRun({ environment: "qa", taskSet: "builtin", taskId, strategy: "reflexion", modelId: MODEL, maxTrials: 2 });
    const a = await create("qa-builtin-01");
    const b = await create("qa-builtin-02");
    await harness.pool.reconcile();
    const branchA = await rootBranch(a.id);
    const branchB = await rootBranch(b.id);
    expect((await harness.producer.jobs.queuedBranches()).sort()).toEqual([branchA, branchB].sort());

    await failIntoDeadLetters(branchA, [a.id, b.id]);

    // Both are dead letters after 2 attempts; A's log is half written and still says running; nothing is queued.
    const letterA = await letterOf(a.id);
    const letterB = await letterOf(b.id);
    expect(letterA).toMatchObject({ branchId: branchA, attempts: 2, priority: "interactive", branch: { status: "running", outcome: null, queuedAgain: false }, retryRefusal: null });
    expect(letterA?.error).toMatch(/simulated: the database went away/);
    expect(letterB).toMatchObject({ branchId: branchB, attempts: 2, branch: { status: "running" } });
    const before = await eventsOf(a.id);
    expect(before.length).toBeGreaterThanOrEqual(6);
    expect(before.some((event) => event.type === "run-end")).toBe(false);
    expect(await harness.producer.jobs.queuedBranches()).toEqual([]);

    // The CLI lists both (8-character ids), and says what the branches are doing.
    const listed = await cli(["jobs", "dead-letters"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${letterA?.id.slice(0, 8)}\t${a.id}\tinteractive\t2 attempt(s)\tbranch running`);
    expect(listed.stdout).toContain(letterB?.id.slice(0, 8));

    // Retry A: its job is queued again under its key, the letter is gone.
    const retried = await service.retry(letterA?.id ?? "");
    expect(retried).toMatchObject({ letterId: letterA?.id, runId: a.id, outcome: "requeued" });
    expect(retried.message).toMatch(/queued again .*branch:/);
    expect(await letterOf(a.id)).toBeNull();
    expect(await harness.producer.jobs.queuedBranches()).toEqual([branchA]);
    await expect(service.retry(letterA?.id ?? "")).rejects.toSatisfy((error: unknown) => isAppError(error, "not-found"));

    // A worker finishes A from its log. B is not enqueued again by anyone's reconciliation: a dead-lettered
    // branch waits for a person (its log still says running), so its letter does not come back as a copy.
    const worker = harness.startWorker({ concurrency: 2 });
    await waitUntil(async () => (await harness.producer.service.status(await harness.producer.service.getRun(a.id))) === "ended", "run A to end", 120_000, 300);
    expect(worker.started()).toContain(a.id);
    await harness.pool.reconcile();
    expect(worker.started()).not.toContain(b.id);
    expect(await harness.producer.jobs.queuedBranches()).not.toContain(branchB);
    expect((await harness.producer.jobs.listDeadLetters(100)).filter((letter) => letter.runId === b.id)).toHaveLength(1);
    // Its log still says runnable (status "queued": no worker holds it).
    expect(await harness.producer.service.status(await harness.producer.service.getRun(b.id))).toBe("queued");
    const after = await eventsOf(a.id);
    expect(after.map((event) => event.seq)).toEqual(after.map((_, index) => index + 1));
    expect(after.slice(0, before.length).map((event) => event.id)).toEqual(before.map((event) => event.id));
    expect(after.filter((event) => event.type === "run-start")).toHaveLength(1);
    expect(after.filter((event) => event.type === "run-end")).toHaveLength(1);

    // B is cancelled meanwhile: its letter says it ended, a retry is refused (nothing enqueued, the letter stays), then it is discarded.
    await harness.producer.service.cancel(b.id);
    const staleB = await letterOf(b.id);
    expect(staleB).toMatchObject({ branch: { status: "ended", outcome: "cancelled" } });
    expect(staleB?.retryRefusal).toMatch(/^This run already ended \(cancelled\).*Discard the letter/);
    const refused = await service.retry(letterB?.id ?? "");
    expect(refused).toMatchObject({ outcome: "finished" });
    expect(refused.message).toMatch(/already ended \(cancelled\) — nothing to retry/);
    expect(await letterOf(b.id)).not.toBeNull();
    expect(await harness.producer.jobs.queuedBranches()).not.toContain(branchB);
    const cliRefused = await cli(["jobs", "retry", letterB?.id.slice(0, 8) ?? ""]);
    expect(cliRefused.code).toBe(1);
    expect(cliRefused.stderr).toMatch(/refused: .*already ended/);
    const discarded = await cli(["jobs", "discard", letterB?.id.slice(0, 8) ?? ""]);
    expect(discarded).toMatchObject({ code: 0, stdout: `discarded ${letterB?.id}\n` });
    expect(await letterOf(b.id)).toBeNull();
    await expect(service.discard(letterB?.id ?? "")).rejects.toSatisfy((error: unknown) => isAppError(error, "not-found"));

    // A job naming a branch this database does not have: refused by retry --all (missing), then discarded.
    const ghostRun = "00000000-0000-4000-8000-00000000d1ed";
    expect(await harness.producer.jobs.enqueue([{ runId: asRunId(ghostRun), branchId: asBranchId("00000000-0000-4000-8000-00000000b0b0"), priority: "batch" }])).toBe(1);
    await waitUntil(async () => (await letterOf(ghostRun)) !== null, "the ghost job's dead letter", 60_000, 300);
    expect(await letterOf(ghostRun)).toMatchObject({ branch: { status: "missing", queuedAgain: false } });
    expect((await letterOf(ghostRun))?.retryRefusal).toMatch(/^This run: its branch is not in this database .* Discard the letter\.$/);
    const all = await cli(["jobs", "retry", "--all"]);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/\tmissing\t.*not in this database .* Discard the letter/);
    expect(all.stderr).toMatch(/0 letter\(s\) retried, 1 refused/);
    const ghost = await letterOf(ghostRun);
    expect(await service.discard(ghost?.id ?? "")).toBe(ghost?.id);
    expect((await service.list(100)).deadLetters).toEqual([]);
    worker.child.kill("SIGTERM");
    await worker.exited;
  }, 400_000);

  it("in the embedded mode the CLI says there is no job queue and what to set", async () => {
    const result = await cli(["jobs", "retry", "--all"], { REFLEXION_DATABASE_URL: "" });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no job queue in the embedded mode.*REFLEXION_DATABASE_URL=postgres/);
  }, 120_000);
});
