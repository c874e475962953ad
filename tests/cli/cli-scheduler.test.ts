import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { asRunId } from "@/lib/domain/ids";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import { createServerContext } from "@/lib/server/app-context";
import { parseJsonLines, runCli, spawnCli } from "./run-cli";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-scheduler-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const dbEnv = (name: string, extra: Record<string, string> = {}) => ({ REFLEXION_DB_PATH: path.join(dir, `${name}.sqlite`), ...extra });

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves with the first stdout line of a child process. */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const cut = buffer.indexOf("\n");
      if (cut !== -1) resolve(buffer.slice(0, cut));
    });
    child.on("close", () => reject(new Error(`exited before printing a line: ${buffer}`)));
  });
}

function collect(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** The most runs whose [first trial-start, run-end] intervals overlap at one instant (from the events' timestamps). */
function maxOverlap(logs: RunEvent[][]): number {
  const points: Array<[number, number]> = [];
  for (const log of logs) {
    const start = log.find((event) => event.type === "trial-start");
    const end = log.find((event) => event.type === "run-end");
    if (start && end) points.push([Date.parse(start.occurredAt), 1], [Date.parse(end.occurredAt), -1]);
  }
  points.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let max = 0;
  for (const [, delta] of points) max = Math.max(max, (now += delta));
  return max;
}

const longRun = ["run", "--tasks", "builtin", "--task-id", "qa-builtin-01", "--strategy", "none", "--trials", "50", "--model", "demo"];

describe("runs controlled through the store, across processes", { tags: ["slow"] }, () => {
  it("`cli pause` from a second process pauses a 50-trial demo run driven by the first, before it ends", async () => {
    const env = dbEnv("pause", { REFLEXION_DEMO_DELAY_MS: "15" });
    const driver = spawnCli([...longRun, "--json"], env);
    const done = collect(driver);
    const runId = (JSON.parse(await firstLine(driver)) as { runId: string }).runId;
    const pause = await runCli(["pause", "--run", runId], env);
    expect(pause.code).toBe(0);
    expect(pause.stdout).toMatch(new RegExp(`Run ${runId}: (pausing|paused)`));
    const result = await done;
    expect(result.code).toBe(0);
    const events = parseJsonLines(result.stdout);
    const state = foldRun(events);
    expect(state.status).toBe("paused");
    expect(state.pause).toMatchObject({ reason: "user" });
    expect(events.find((event) => event.type === "pause-request")).toMatchObject({ data: { requestedBy: "cli" } });
    expect(state.trials.length).toBeLessThan(50);
    // Scripts can list it and read its stored envelopes.
    const runs = await runCli(["runs", "--json"], env);
    expect(runs.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line) as { id: string; status: string })).toContainEqual(
      expect.objectContaining({ id: runId, status: "paused", strategy: "none", modelId: "demo", taskId: "qa-builtin-01" }),
    );
    const dumped = parseJsonLines((await runCli(["events", "--run", runId, "--json"], env)).stdout);
    expect(dumped.map((event) => event.id)).toEqual(events.map((event) => event.id));
  });

  it("12 runs enqueued with --detach are drained by `cli worker --concurrency 3 --exit-when-idle`, never more than 3 in flight", async () => {
    const env = dbEnv("drain", { REFLEXION_DEMO_DELAY_MS: "5" });
    // Enqueued 4 processes at a time: 12 CLI processes starting at once on a 2-core machine spend the time limit on start-up.
    const detached: Awaited<ReturnType<typeof runCli>>[] = [];
    for (let batch = 0; batch < 12; batch += 4) {
      detached.push(
        ...(await Promise.all(
          Array.from({ length: 4 }, (_, k) => batch + k).map((i) =>
            runCli(["run", "--tasks", "builtin", "--task-id", `qa-builtin-0${(i % 9) + 1}`, "--strategy", i % 2 ? "none" : "reflexion", "--trials", "3", "--model", "demo", "--detach"], env),
          ),
        )),
      );
    }
    for (const result of detached) {
      expect(result.code).toBe(0);
      expect(result.stdout.trim()).toMatch(/^[0-9a-f-]{36}$/);
    }
    const ids = detached.map((result) => result.stdout.trim());
    const listed = await runCli(["runs", "--json"], env);
    expect(listed.stdout.split("\n").filter(Boolean).map((line) => (JSON.parse(line) as { status: string }).status)).toEqual(Array(12).fill("queued"));

    const worker = await runCli(["worker", "--concurrency", "3", "--exit-when-idle"], env);
    expect(worker.code).toBe(0);
    const reported = Number(/at most (\d+) run\(s\) were in flight/.exec(worker.stderr)?.[1]);
    expect(reported).toBeLessThanOrEqual(3);

    const store = new SqliteRunStore(env.REFLEXION_DB_PATH);
    try {
      const logs = await Promise.all(
        ids.map(async (id) => {
          const run = await store.getRun(asRunId(id));
          return store.list(run!.id, run!.rootBranchId);
        }),
      );
      expect(logs.map((log) => foldRun(log).status)).toEqual(Array(12).fill("ended"));
      const overlap = maxOverlap(logs);
      expect(overlap).toBeLessThanOrEqual(3);
      expect(overlap).toBeGreaterThanOrEqual(2);
    } finally {
      await store.close();
    }
  }, 120_000);

  it("a worker killed with SIGKILL mid-run: another worker resumes the branch from its log, nothing lost or doubled", async () => {
    const env = dbEnv("sigkill", { REFLEXION_DEMO_DELAY_MS: "10" });
    const queued = await runCli(["run", "--tasks", "builtin", "--task-id", "qa-builtin-01", "--strategy", "none", "--trials", "8", "--model", "demo", "--detach"], env);
    const runId = queued.stdout.trim();
    const store = new SqliteRunStore(env.REFLEXION_DB_PATH);
    const context = createServerContext({ store, startWorkers: false });
    try {
      const run = await context.service.getRun(runId);
      const first = spawnCli(["worker", "--concurrency", "1"], env);
      const firstDone = collect(first);
      // Let it get well into the run, then kill it without a chance to clean up.
      for (let i = 0; i < 400 && (await store.list(run.id, run.rootBranchId)).length < 40; i += 1) await sleep(25);
      first.kill("SIGKILL");
      expect((await firstDone).signal).toBe("SIGKILL");
      const before = await store.list(run.id, run.rootBranchId);
      expect(foldRun(before).status).toBe("running");
      expect(await context.service.status(run)).toBe("interrupted");

      const second = await runCli(["worker", "--concurrency", "1", "--exit-when-idle"], env);
      expect(second.code).toBe(0);
      const after = await store.list(run.id, run.rootBranchId);
      // Nothing recorded was lost: the first worker's events are a prefix of the finished log.
      expect(after.slice(0, before.length).map((event) => event.id)).toEqual(before.map((event) => event.id));
      // Nothing was done twice: contiguous seqs, each trial started once, each step acted once, one end.
      expect(after.map((event) => event.seq)).toEqual(after.map((_, i) => i + 1));
      const trialStarts = after.filter((event) => event.type === "trial-start").map((event) => event.data.trial);
      expect(trialStarts).toEqual(trialStarts.map((_, i) => i + 1));
      const steps = after.filter((event) => event.type === "step-action").map((event) => `${event.data.trial}:${event.data.step}`);
      expect(new Set(steps).size).toBe(steps.length);
      expect(after.filter((event) => event.type === "run-end")).toHaveLength(1);
      const state = foldRun(after);
      expect(state.status).toBe("ended");
      expect(state.trials).toHaveLength(8);
    } finally {
      await store.close();
    }
  });
});
