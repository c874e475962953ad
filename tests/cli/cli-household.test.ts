import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseJsonLines, runCli } from "./run-cli";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rp-cli-household-"));
const env = { REFLEXION_DB_PATH: path.join(tmp, "db.sqlite") };
const transcripts = path.resolve(__dirname, "../../../shared/data/alfworld/react-alfworld.json");

describe("CLI: household", () => {
  it("conformance-household replays all 24 ReAct transcripts word for word", async () => {
    const result = await runCli(["conformance-household", "--transcripts", transcripts], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split("\n").at(-1)).toBe("24 passed, 0 failed");
  });

  it("conformance-household names the first differing line of a failing transcript", async () => {
    const file = path.join(tmp, "tampered.json");
    const original = JSON.parse(fs.readFileSync(transcripts, "utf8")) as Record<string, string>;
    const [name, text] = Object.entries(original)[0]!;
    // Change one observation the world will not produce.
    const tampered = text.replace(/You pick up the ([a-z]+) (\d+)/, "You grab the $1 $2");
    expect(tampered).not.toBe(text);
    fs.writeFileSync(file, JSON.stringify({ [name]: tampered }));
    const result = await runCli(["conformance-household", "--transcripts", file], env);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAIL {2}/);
    expect(result.stdout).toMatch(/expected: You grab the/);
    expect(result.stdout).toMatch(/actual: {3}You pick up the/);
    expect(result.stdout.trim().split("\n").at(-1)).toBe("0 passed, 1 failed");
  });

  it("a demo run on the mug-and-desklamp scene: fail, reflection, success", async () => {
    const result = await runCli(
      ["run", "--env", "household", "--tasks", "builtin", "--task-id", "household-builtin-01", "--strategy", "reflexion", "--model", "demo", "--json"],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    const events = parseJsonLines(result.stdout);
    const outcomes = events.flatMap((e) => (e.type === "trial-end" ? [e.data.outcome] : []));
    expect(outcomes[0]).not.toBe("success");
    expect(outcomes.at(-1)).toBe("success");
    const reflection = events.find((e) => e.type === "reflection-end");
    expect(reflection?.type === "reflection-end" && reflection.data.text).toMatch(/desklamp/i);
    const evaluation = events.find((e) => e.type === "evaluation-end");
    expect(evaluation).toMatchObject({ data: { evaluatorKind: "environment-success", oracle: false } });
    // Every observation carries the agent's location and inventory for the UI.
    const observation = events.find((e) => e.type === "step-observation" && e.data.text.startsWith("You pick up"));
    expect(observation).toMatchObject({ data: { state: { inventory: ["mug 1"] } } });
  });

  it("the same scene under none (ReAct only) never succeeds", async () => {
    const result = await runCli(
      ["run", "--env", "household", "--tasks", "builtin", "--task-id", "household-builtin-01", "--strategy", "none", "--model", "demo", "--json"],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    const events = parseJsonLines(result.stdout);
    const outcomes = events.flatMap((e) => (e.type === "trial-end" ? [e.data.outcome] : []));
    expect(outcomes).toHaveLength(5);
    expect(outcomes).not.toContain("success");
    // The looping trials are stopped by the Evaluator's heuristic, with the reason recorded.
    const ends = events.filter((e) => e.type === "trial-end");
    expect(ends.every((e) => e.type === "trial-end" && /3 times in a row|Step limit/.test(e.data.reason))).toBe(true);
  });
});
