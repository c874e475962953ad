import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { OptimisationSummaryLine } from "@/lib/domain/optimiser/types";
import { runCli, spawnCli } from "./run-cli";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-optimise-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("cli templates optimise (demo model, fresh SQLite database)", { tags: ["slow"] }, () => {
  it("stops on a token budget (exit 3, budget-spent), then --resume with a larger budget ends with every candidate's version, parent, held-out score with interval and p", async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "optimise.sqlite") };
    const experiment = await runCli(["experiment", "run", "--env", "qa", "--tasks", "builtin", "--arms", "reflexion", "--trials", "2", "--json"], env);
    expect(experiment.code, experiment.stderr).toBe(0);
    const experimentId = (JSON.parse(experiment.stdout.trim().split("\n").at(-1)!) as { experimentId: string }).experimentId;

    const stopped = await runCli(["templates", "optimise", "--experiment", experimentId, "--role", "reflector", "--rounds", "2", "--candidates", "2", "--budget-tokens", "1", "--json"], env);
    expect(stopped.code, stopped.stderr).toBe(3);
    const first = JSON.parse(stopped.stdout.trim()) as OptimisationSummaryLine;
    expect(first.status).toBe("budget-spent");
    expect(stopped.stderr).toMatch(/\[optimise\] Started opt-[0-9a-f]{12}: reflector of qa/);
    expect(stopped.stderr).toContain(`templates optimise --resume ${first.optimisationId}`);
    expect(stopped.stderr.match(/Budget exhausted/g)).toHaveLength(1);

    const resumed = await runCli(["templates", "optimise", "--resume", first.optimisationId, "--budget-tokens", "100000000", "--json"], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    const summary = JSON.parse(resumed.stdout.trim()) as OptimisationSummaryLine;
    expect(summary).toMatchObject({ type: "optimisation-summary", optimisationId: first.optimisationId, status: "done" });
    const [start, ...candidates] = summary.candidates;
    expect(start).toMatchObject({ round: 0, parentId: null, versionId: expect.stringMatching(/^tv-/) });
    expect(candidates).toHaveLength(4);
    const evaluated = candidates.filter((c) => c.status === "evaluated");
    expect(evaluated.length).toBeGreaterThanOrEqual(2);
    for (const candidate of evaluated) {
      expect(candidate.versionId).toMatch(/^tv-[0-9a-f]{16}$/);
      expect(candidate.parentId).toMatch(/^tv-[0-9a-f]{16}$/);
      expect(candidate.train).not.toBeNull();
    }
    const tested = candidates.filter((c) => c.pVsParent !== null);
    expect(tested.length).toBeGreaterThan(0);
    for (const candidate of tested) {
      expect(candidate.heldOut).toMatchObject({ n: 4, repeats: 1 });
      expect(candidate.heldOut!.interval[0]).toBeLessThanOrEqual(candidate.heldOut!.rate);
      expect(candidate.heldOut!.interval[1]).toBeGreaterThanOrEqual(candidate.heldOut!.rate);
      expect(candidate.parentHeldOut).not.toBeNull();
    }

    const again = await runCli(["templates", "optimise", "--resume", first.optimisationId, "--json"], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`${first.optimisationId} is already done`);
    expect(JSON.parse(again.stdout.trim())).toMatchObject({ optimisationId: first.optimisationId, status: "done" });

    const listed = await runCli(["templates", "show", summary.targetTemplateId], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain("Lessons from earlier failed trials:");
  }, 120_000);

  it("an out-of-range --budget-tokens is one message with the documented limit", async () => {
    const result = await runCli(["templates", "optimise", "--experiment", "exp-any", "--role", "actor", "--budget-tokens", "99999999999999999999"], { REFLEXION_DB_PATH: path.join(dir, "limits.sqlite") });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("from 1 to 1,000,000,000");
    expect(result.stderr).not.toContain("9007199254740991");
    const usd = await runCli(["templates", "optimise", "--experiment", "exp-any", "--role", "actor", "--budget-usd", "5000000"], { REFLEXION_DB_PATH: path.join(dir, "limits.sqlite") });
    expect(usd.code).not.toBe(0);
    expect(usd.stderr).toContain("at most 1,000,000");
  }, 60_000);

  it("SIGINT releases the lease, says how to resume, exits 130; the resume then runs at once", async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "interrupt.sqlite") };
    const experiment = await runCli(["experiment", "run", "--env", "qa", "--tasks", "builtin", "--arms", "reflexion", "--trials", "2", "--json"], env);
    expect(experiment.code, experiment.stderr).toBe(0);
    const experimentId = (JSON.parse(experiment.stdout.trim().split("\n").at(-1)!) as { experimentId: string }).experimentId;

    const child = spawnCli(["templates", "optimise", "--experiment", experimentId, "--role", "reflector", "--rounds", "2", "--candidates", "2", "--json"], env);
    let stderr = "";
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    await new Promise<void>((resolve) => {
      child.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes("[optimise] Started")) resolve();
      });
    });
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    const id = /Started (opt-[0-9a-f]{12})/.exec(stderr)![1]!;
    expect(stderr).toContain(`Interrupted. Resume with: npm run cli -- templates optimise --resume ${id}`);

    const resumed = await runCli(["templates", "optimise", "--resume", id, "--json"], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout.trim())).toMatchObject({ optimisationId: id, status: "done" });
  }, 120_000);
});
