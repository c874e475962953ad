import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, TSX_ARGS, startScaleHarness, waitUntil, type ScaleHarness } from "./harness";

/**
 * A foreground `cli experiment run` in shared mode follows runs that `cli worker`
 * processes drive. When PostgreSQL restarts meanwhile, the follower says the database is
 * unreachable, waits for it and goes on — and exits 0 once the experiment has ended (it used to
 * print one error and hang: the progress bar's timer kept the process alive). Bounded by timeouts.
 */

let harness: ScaleHarness;

beforeAll(async () => {
  harness = await startScaleHarness({ latencyMs: 400 });
}, 120_000);

afterAll(async () => {
  await harness?.stop();
}, 60_000);

describe("following an experiment through a PostgreSQL restart", { tags: ["slow"] }, () => {
  it("waits for the database, then exits 0 when the workers have ended every run", async () => {
    const worker = harness.startWorker({ concurrency: 4 });
    await worker.waitFor(/pg-boss worker:/, 120_000);
    const child = spawn(
      process.execPath,
      [...TSX_ARGS, "bin/cli.ts", "experiment", "run", "--env", "qa", "--tasks", "builtin", "--task-ids", "qa-builtin-01,qa-builtin-02", "--arms", "none,reflexion", "--model", "compatible:fake-model", "--trials", "3"],
      { cwd: ROOT, env: { ...process.env, ...harness.env }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      // Mid-experiment: the worker has started runs and answered some calls.
      await worker.waitFor(/: started/, 60_000);
      await waitUntil(() => harness.fake.chatRequests().length >= 4, "the worker's first calls", 60_000, 50);
      await harness.pg.restart(3_000);
      const code = await Promise.race([exited, new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 150_000))]);
      expect(code, stderr.slice(-2000)).toBe(0);
      expect(stderr).toMatch(/the database is unreachable: .* waiting for it/);
      expect(stderr).toMatch(/the database is back/);
      expect(worker.child.exitCode).toBeNull();
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
      worker.child.kill("SIGTERM");
      await worker.exited;
    }
  }, 240_000);
});
