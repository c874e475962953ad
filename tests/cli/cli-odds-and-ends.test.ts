import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import { environmentEntry } from "@/lib/environments/registry";
import { escapeControlCharacters } from "@/lib/domain/ids";
import { runCli } from "./run-cli";

/**
 * Small CLI and ingestion rules: Ω bounded; control characters refused in task ids at ingestion and
 * escaped when printed; a usage error prints the error and one line pointing to --help (not the whole
 * help); `experiment run --max-steps`; an arms-file arm without modelId runs on --model.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-odds-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const hotpot = (id: string) => ({
  _id: id,
  question: "Which river flows past the village of Tarnwick Mill?",
  answer: "Lune",
  supporting_facts: [["Tarnwick Mill", 0]],
  context: [["Tarnwick Mill", ["Tarnwick Mill is a village on the River Lune."]]],
});

describe("memory window Ω is bounded", () => {
  it("cli run --memory-window 10^12 is refused with the range, and one line pointing to --help instead of the whole help", async () => {
    const result = await runCli(["run", "--env", "qa", "--tasks", "builtin", "--task-id", "qa-builtin-01", "--memory-window", "1000000000000"], { REFLEXION_DB_PATH: path.join(dir, "omega.sqlite") });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("expected a whole number from 1 to 100");
    expect(result.stderr).toContain("--help");
    expect(result.stderr).not.toContain("Usage:");
    expect(result.stderr.trim().split("\n")).toHaveLength(2);
  });

  it("an unknown option: the error and one pointer line, no help text", async () => {
    const result = await runCli(["runs", "--bogus"], { REFLEXION_DB_PATH: path.join(dir, "bogus.sqlite") });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown option '--bogus'/);
    expect(result.stderr).not.toContain("Usage:");
    expect(result.stderr).not.toContain("Options:");
  });
});

describe("task ids with control characters", () => {
  it("are refused at ingestion (the task is skipped with the reason, the others load)", () => {
    const { tasks, problems } = environmentEntry("qa").importTaskSet(JSON.stringify([hotpot("good-1"), hotpot("bad\u0000id"), hotpot("cod\u202eexe.txt"), hotpot("a\u2066b")]));
    expect(tasks.map((task) => task.id)).toEqual(["good-1"]);
    expect(problems).toHaveLength(3);
    for (const problem of problems) expect(problem).toMatch(/control characters/);
  });

  it("cli tasks never prints them raw; cli runs escapes an id recorded before the rule", async () => {
    const file = path.join(dir, "nul.json");
    fs.writeFileSync(file, JSON.stringify([hotpot("good-1"), hotpot("bad\u0000\u001b[31mid")]));
    const env = { REFLEXION_DB_PATH: path.join(dir, "runs.sqlite") };
    const listed = await runCli(["tasks", "--env", "qa", "--tasks", file], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toBe("good-1\tWhich river flows past the village of Tarnwick Mill?\n");
    expect(listed.stderr).toMatch(/control characters/);
    expect(/[\u0000-\u0008\u001b]/.test(listed.stdout + listed.stderr)).toBe(false);

    // A run recorded with such an id (an older database): created through the store, as an old version did.
    const made = await runCli(["run", "--env", "qa", "--tasks", "builtin", "--task-id", "qa-builtin-01", "--trials", "1"], env);
    expect(made.code, made.stderr).toBe(0);
    const store = new SqliteRunStore(env.REFLEXION_DB_PATH);
    const [existing] = await store.listRuns(1);
    await store.createRun({ config: { ...existing!.config, taskId: "old\u0000\u001b[2Jid" }, title: "old" });
    await store.close();
    const runs = await runCli(["runs"], env);
    expect(runs.code, runs.stderr).toBe(0);
    expect(runs.stdout).toContain(`\t${escapeControlCharacters("old\u0000\u001b[2Jid")}\t`);
    expect(runs.stdout).toContain("\\u0000\\u001b[2Jid");
    expect(/[\u0000\u001b]/.test(runs.stdout)).toBe(false);
  }, 60_000);
});

describe("cli experiment run", () => {
  it("--max-steps sets every arm's steps per trial; an arms-file arm without modelId runs on --model", async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "experiment.sqlite") };
    const arms = path.join(dir, "arms.json");
    fs.writeFileSync(arms, JSON.stringify([{ label: "react", strategy: "none" }, { label: "reflexion", strategy: "reflexion", maxStepsPerTrial: 4 }]));
    const result = await runCli(["experiment", "run", "--env", "qa", "--tasks", "builtin", "--task-ids", "qa-builtin-01", "--arms-file", arms, "--model", "demo", "--trials", "2", "--max-steps", "3", "--json"], env);
    expect(result.code, result.stderr).toBe(0);
    const store = new SqliteRunStore(env.REFLEXION_DB_PATH);
    const runs = await store.listRuns(10);
    await store.close();
    const byStrategy = Object.fromEntries(runs.map((run) => [run.config.strategy, run.config]));
    expect(byStrategy.none).toMatchObject({ maxStepsPerTrial: 3, models: { actor: { modelId: "demo" } } });
    // An arm's own value wins over the flag, as with --trials.
    expect(byStrategy.reflexion).toMatchObject({ maxStepsPerTrial: 4, models: { actor: { modelId: "demo" } } });
  }, 120_000);

  it("an arms file that is not a list of arms is refused with a message that says what is expected", async () => {
    const arms = path.join(dir, "bad-arms.json");
    fs.writeFileSync(arms, JSON.stringify([{ label: "x", strategy: "magic" }]));
    const result = await runCli(["experiment", "run", "--env", "qa", "--tasks", "builtin", "--arms-file", arms], { REFLEXION_DB_PATH: path.join(dir, "bad.sqlite") });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/arm 0\.strategy/);
    expect(result.stderr).toMatch(/expected a JSON list of arms/);
  }, 60_000);
});
