import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { runCli } from "./run-cli";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-methods-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface ArmSummary {
  label: string;
  strategy: string;
  successByTrial: number[];
  calls: { live: number; cached: number };
  costUsd: number | null;
}

describe("methods beyond Reflexion from the CLI (demo model)", { tags: ["slow"] }, () => {
  it("an experiment of none, reflexion, lats and self-refine on the QA built-ins prints four arms with calls and cost each", { timeout: 240_000 }, async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "arms.sqlite") };
    const result = await runCli(["experiment", "run", "--env", "qa", "--tasks", "builtin", "--arms", "none,reflexion,lats,self-refine", "--model", "demo", "--trials", "4", "--json"], env);
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout.trim().split("\n").at(-1)!) as { type: string; arms: ArmSummary[] };
    expect(summary.type).toBe("experiment-summary");
    expect(summary.arms.map((arm) => arm.label)).toEqual(["none", "reflexion", "lats", "self-refine"]);
    for (const arm of summary.arms) {
      expect(arm.calls.live + arm.calls.cached).toBeGreaterThan(0);
      expect(arm.costUsd).toBe(0);
      expect(arm.successByTrial).toHaveLength(4);
    }
    const byLabel = new Map(summary.arms.map((arm) => [arm.label, arm]));
    const calls = (label: string) => byLabel.get(label)!.calls.live + byLabel.get(label)!.calls.cached;
    // The demo's character: LATS solves some tasks in trial 1 where Reflexion needs a reflection first, at more calls;
    // Self-Refine's critic finds QA answers fine, so it adds nothing over ReAct alone there.
    expect(byLabel.get("lats")!.successByTrial[0]).toBeGreaterThan(byLabel.get("reflexion")!.successByTrial[0]!);
    expect(calls("lats")).toBeGreaterThan(calls("reflexion"));
    expect(byLabel.get("self-refine")!.successByTrial).toEqual(byLabel.get("none")!.successByTrial);
  });

  it.each([
    ["qa", "qa-builtin-01"],
    ["household", "household-builtin-01"],
    ["code", "code-py-01"],
  ])("cli run --strategy lats on %s ends with a recorded search tree", { timeout: 180_000 }, async (family, taskId) => {
    const env = { REFLEXION_DB_PATH: path.join(dir, `lats-${family}.sqlite`) };
    const result = await runCli(["run", "--env", family, "--tasks", "builtin", "--task-id", taskId, "--strategy", "lats", "--model", "demo", "--lats-iterations", "3", "--json"], env);
    expect(result.code, result.stderr).toBe(0);
    const events = result.stdout.trim().split("\n").map((line) => JSON.parse(line) as RunEvent);
    const state = foldRun(events);
    expect(state.status).toBe("ended");
    expect(state.tree).not.toBeNull();
    const tree = state.tree!;
    // Every trial selected, expanded (at least one child), followed and backpropagated.
    expect(tree.iterations.map((it) => it.trial)).toEqual(state.trials.map((trial) => trial.trial));
    expect(tree.iterations.every((it) => it.followed && it.reward !== null)).toBe(true);
    expect(tree.order.length).toBeGreaterThan(state.trials.length);
    expect(tree.nodes.get("root")!.visits).toBe(state.trials.length);
    // The printed log names the tree phases.
    const printed = await runCli(["events", "--run", events[0]!.runId], env);
    expect(printed.stdout).toMatch(/Tree: selected root/);
    expect(printed.stdout).toMatch(/Tree: reward [01] backpropagated/);
  });
});
