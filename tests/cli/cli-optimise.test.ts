import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { OptimisationSummaryLine } from "@/lib/domain/optimiser/types";
import { runCli } from "./run-cli";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-optimise-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("cli templates optimise (demo model, fresh SQLite database)", () => {
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

    const listed = await runCli(["templates", "show", summary.targetTemplateId], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain("Lessons from earlier failed trials:");
  }, 120_000);
});
