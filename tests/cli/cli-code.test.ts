import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/domain/events";
import { parseJsonLines, runCli } from "./run-cli";

/** `npm run cli -- run --env code …` and `tasks --env code`, on the built-in set and on a real HumanEval file. */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rp-cli-code-"));
const env = (name: string) => ({ REFLEXION_DB_PATH: path.join(tmp, `${name}.sqlite`) });
const humaneval = path.resolve(__dirname, "../../../shared/data/humaneval/HumanEval.jsonl.gz");

describe("CLI: code tasks", () => {
  it("lists the built-in code tasks and the tasks of HumanEval.jsonl.gz", async () => {
    const builtin = await runCli(["tasks", "--env", "code", "--tasks", "builtin"], env("tasks"));
    expect(builtin.code, builtin.stderr).toBe(0);
    const ids = builtin.stdout.trim().split("\n").map((line) => line.split("\t")[0]);
    expect(ids.filter((id) => id?.startsWith("code-py-"))).toHaveLength(10);
    expect(ids.filter((id) => /^code-(js|ts)-/.test(id ?? ""))).toHaveLength(10);
    const file = await runCli(["tasks", "--env", "code", "--tasks", humaneval], env("tasks"));
    expect(file.code, file.stderr).toBe(0);
    expect(file.stdout.trim().split("\n")).toHaveLength(164);
  }, 60_000);

  it("run --env code: demo fails trial 1, reflects, passes trial 2; every evaluation-end has both verdicts; the process exits", async () => {
    const result = await runCli(["run", "--env", "code", "--tasks", "builtin", "--task-id", "code-js-01", "--model", "demo", "--json"], env("run"));
    expect(result.code, result.stderr).toBe(0);
    const events = parseJsonLines(result.stdout) as RunEvent[];
    const evaluations = events.flatMap((e) => (e.type === "evaluation-end" ? [e.data] : []));
    expect(evaluations.map((e) => [e.verdict, e.hiddenTests?.verdict])).toEqual([
      ["fail", "fail"],
      ["pass", "pass"],
    ]);
    expect(events.some((e) => e.type === "reflection-end")).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "run-end", data: { outcome: "success", trials: 2 } });
  }, 60_000);

  it("run --env code on a HumanEval file: the demo model labels itself and the hidden tests still judge the program", async () => {
    const result = await runCli(["run", "--env", "code", "--tasks", humaneval, "--task-id", "HumanEval/0", "--trials", "1", "--model", "demo"], env("file"));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("scripted stand-in");
    expect(result.stdout).toMatch(/hidden tests \(reporting only, never shown to the agent\): FAIL 0\/1/);
    expect(result.stdout).toMatch(/Run ended: failure after 1 trial/);
  }, 60_000);
});
