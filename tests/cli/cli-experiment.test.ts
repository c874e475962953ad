import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { asRunId } from "@/lib/domain/ids";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import { cacheKeyOf } from "@/lib/llm/caching-model-port";
import { runCli, spawnCli } from "./run-cli";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-experiment-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe("cli experiment", { tags: ["slow"] }, () => {
  it("run --json ends with the summary line: none flat, reflexion rising above it", { timeout: 120_000 }, async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "run.sqlite") };
    const result = await runCli(["experiment", "run", "--env", "qa", "--tasks", "builtin", "--task-ids", "qa-builtin-01,qa-builtin-02", "--arms", "none,reflexion", "--model", "demo", "--trials", "3", "--json"], env);
    expect(result.code, result.stderr).toBe(0);
    const last = JSON.parse(result.stdout.trim().split("\n").at(-1)!) as { type: string; arms: Array<{ label: string; successByTrial: number[]; calls: { live: number; cached: number } }> };
    expect(last.type).toBe("experiment-summary");
    expect(last.arms.map((arm) => [arm.label, arm.successByTrial])).toEqual([
      ["none", [0, 0, 0]],
      ["reflexion", [0, 2, 2]],
    ]);
    expect(last.arms[1]!.calls.cached).toBeGreaterThan(0);
    expect(result.stderr).toMatch(/2\/4 runs|4\/4 runs/);
    const listed = await runCli(["experiment", "list"], env);
    expect(listed.stdout).toMatch(/none vs reflexion on qa built-in\tended\t4\/4/);
  });

  it("killed mid-way and resumed: it completes with exactly one run per task and arm, and no call the cache holds is made again", { timeout: 180_000 }, async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "kill.sqlite"), REFLEXION_DEMO_DELAY_MS: "8" };
    const child = spawnCli(["experiment", "run", "--env", "qa", "--tasks", "builtin", "--arms", "none,reflexion", "--model", "demo", "--trials", "3", "--concurrency", "2"], env);
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const closed = new Promise((resolve) => child.on("close", resolve));
    const store = new SqliteRunStore(env.REFLEXION_DB_PATH);
    try {
      let experimentId: string | undefined;
      for (let i = 0; i < 400 && !experimentId; i += 1) {
        experimentId = /Experiment ([0-9a-f-]{36}):/.exec(stderr)?.[1];
        await sleep(25);
      }
      if (!experimentId) throw new Error(`no experiment id on stderr: ${stderr}`);
      // Let some runs end, then kill it without a chance to clean up.
      const ended = async () => {
        let n = 0;
        for (const link of await store.experiments.listExperimentRuns(experimentId!)) {
          const run = await store.getRun(asRunId(link.runId));
          if ((await store.getBranchSummary(run!.rootBranchId))?.status === "ended") n += 1;
        }
        return n;
      };
      for (let i = 0; i < 400 && (await ended()) < 4; i += 1) await sleep(25);
      child.kill("SIGKILL");
      await closed;
      expect(await ended()).toBeLessThan(24);

      const resumed = await runCli(["experiment", "resume", "--id", experimentId, "--json"], env);
      expect(resumed.code, resumed.stderr).toBe(0);
      const links = await store.experiments.listExperimentRuns(experimentId);
      expect(links).toHaveLength(24); // 12 built-in tasks × 2 arms
      expect(new Set(links.map((link) => `${link.taskId}/${link.arm}`)).size).toBe(24);
      expect(await store.listRuns(100)).toHaveLength(24); // and no stray run besides them
      const liveKeys: string[] = [];
      for (const link of links) {
        const run = await store.getRun(asRunId(link.runId));
        const log = await store.list(run!.id, run!.rootBranchId);
        expect(foldRun(log).status).toBe("ended");
        const seen: Record<string, number> = {};
        for (const event of log) {
          if (event.type !== "model-call-end") continue;
          const occurrence = seen[event.data.requestHash] ?? 0;
          seen[event.data.requestHash] = occurrence + 1;
          if (event.data.source === "live") liveKeys.push(cacheKeyOf(event.data.requestHash, occurrence));
        }
      }
      // Every live call made a response the cache did not hold yet: none was made twice.
      expect(new Set(liveKeys).size).toBe(liveKeys.length);
      const summary = JSON.parse(resumed.stdout.trim().split("\n").at(-1)!) as { arms: Array<{ successByTrial: number[] }> };
      expect(summary.arms.map((arm) => arm.successByTrial)).toEqual([
        [0, 0, 0],
        [0, 12, 12],
      ]);
    } finally {
      await store.close();
    }
  });
});
