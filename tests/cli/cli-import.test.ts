import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import { foldRun } from "@/lib/domain/fold-run";
import type { RunId } from "@/lib/domain/ids";
import { parseJsonLines, runCli } from "./run-cli";

/**
 * `cli import-logs`: the authors' logs from the shared folder, read in place.
 * Expected figures are the published ones (shared/docs/reflexion-reference.md
 * §2.10, §3.7), not our own output.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-import-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const LOGS = path.resolve(__dirname, "../../../shared/data/reflexion/noahshinn-reflexion");

interface SummaryLine {
  type: string;
  experimentId: string;
  source: string;
  alreadyImported: boolean;
  warnings: string[];
  arms: Array<{ label: string; strategy: string; modelId: string; tasks: number; trials: number; successByTrial: number[]; calls: { live: number; cached: number } }>;
}

describe("cli import-logs", { tags: ["slow"] }, () => {
  it("--json prints one experiment-summary line per log of a folder; importing again returns the same experiments", async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "import.sqlite") };
    const target = path.join(LOGS, "hotpotqa_runs/root/CoT/no_context");
    const result = await runCli(["import-logs", target, "--json"], env);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split("\n").map((line) => JSON.parse(line) as SummaryLine);
    expect(lines.map((line) => line.type)).toEqual(["experiment-summary", "experiment-summary"]);
    const byLabel = Object.fromEntries(lines.map((line) => [line.arms[0]!.label, line]));
    expect(byLabel["CoT only"]!.arms[0]).toMatchObject({ strategy: "cot", modelId: "openai:text-davinci-003", tasks: 100, trials: 5, successByTrial: [32, 33, 33, 33, 33], calls: { live: 0, cached: 0 } });
    expect(byLabel["CoT + Reflexion"]!.arms[0]!.successByTrial).toEqual([32, 37, 40, 40, 40]);
    expect(byLabel["CoT only"]!.warnings).toEqual([]);

    const again = await runCli(["import-logs", target, "--json"], env);
    const second = again.stdout.trim().split("\n").map((line) => JSON.parse(line) as SummaryLine);
    expect(second.map((line) => [line.experimentId, line.alreadyImported])).toEqual(lines.map((line) => [line.experimentId, true]));

    // The imported experiment is an ordinary experiment: `experiment show` gives the same curve.
    const shown = await runCli(["experiment", "show", "--id", byLabel["CoT + Reflexion"]!.experimentId, "--json"], env);
    expect(shown.code, shown.stderr).toBe(0);
    expect((JSON.parse(shown.stdout.trim().split("\n").at(-1)!) as SummaryLine).arms[0]!.successByTrial).toEqual([32, 37, 40, 40, 40]);
  }, 60_000);

  it("continue-import forks an imported run after a reflection and continues it with the demo model", async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "import.sqlite") };
    const store = new SqliteRunStore(env.REFLEXION_DB_PATH);
    let target: { runId: string; seq: number } | null = null;
    try {
      for (const run of await store.listRuns(1000)) {
        if (run.config.provenance?.label !== "CoT + Reflexion") continue;
        const events = await store.list(run.id, run.rootBranchId);
        const reflection = events.find((event) => event.type === "reflection-end");
        const checkpoint = reflection && events.find((event) => event.type === "checkpoint" && event.seq > reflection.seq);
        if (checkpoint && foldRun(events).outcome === "failure") {
          target = { runId: run.id, seq: checkpoint.seq };
          break;
        }
      }
    } finally {
      await store.close();
    }
    expect(target).not.toBeNull();
    const result = await runCli(["continue-import", "--run", target!.runId, "--at", String(target!.seq), "--model", "demo", "--json"], env);
    expect(result.code, result.stderr).toBe(0);
    const events = parseJsonLines(result.stdout);
    const calls = events.filter((event) => event.type === "model-call-end");
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((call) => call.type === "model-call-end" && call.data.settings.modelId === "demo")).toBe(true);
    expect(events.at(-1)?.type).toBe("run-end");
    // The authors' branch itself is unchanged and still refuses to change.
    const refused = await runCli(["pause", "--run", target!.runId], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/recorded by the authors in 2023 — fork it to continue/);
  }, 60_000);

  it("continue-import refuses a malformed model id, an unconfigured provider and the last checkpoint before creating a branch", async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "import.sqlite") };
    const store = new SqliteRunStore(env.REFLEXION_DB_PATH);
    let target: { runId: RunId; last: number; branches: number } | null = null;
    try {
      const run = (await store.listRuns(1000)).find((candidate) => candidate.config.provenance?.label === "CoT + Reflexion");
      const events = await store.list(run!.id, run!.rootBranchId);
      target = { runId: run!.id, last: events.filter((event) => event.type === "checkpoint").at(-1)!.seq, branches: (await store.listBranches(run!.id)).length };
    } finally {
      await store.close();
    }
    const malformed = await runCli(["continue-import", "--run", target.runId, "--at", "1", "--model", "foo:bar"], env);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/Unknown model id "foo:bar"/);
    expect(malformed.stderr).not.toMatch(/malformed settings-edit/);
    const unconfigured = await runCli(["continue-import", "--run", target.runId, "--at", "1", "--model", "openai:gpt-4o-mini"], env);
    expect(unconfigured.code).toBe(2);
    expect(unconfigured.stderr).toMatch(/OpenAI is not configured/);
    const last = await runCli(["continue-import", "--run", target.runId, "--at", String(target.last), "--model", "demo"], env);
    expect(last.code).toBe(2);
    expect(last.stderr).toMatch(/nothing to continue after the last trial/);
    const after = new SqliteRunStore(env.REFLEXION_DB_PATH);
    try {
      expect((await after.listBranches(target.runId)).length).toBe(target.branches);
    } finally {
      await after.close();
    }
  }, 60_000);

  it("a log outside the folder layout is imported by its content; by another path it is the same import, with its warnings kept", async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "outside.sqlite") };
    const original = path.join(LOGS, "hotpotqa_runs/root/ReAct/reflexion/100_questions_5_trials.txt");
    const copy = path.join(dir, "x/100_questions_5_trials.txt");
    fs.mkdirSync(path.dirname(copy), { recursive: true });
    fs.copyFileSync(original, copy);
    const first = await runCli(["import-logs", copy, "--json"], env);
    expect(first.code, first.stderr).toBe(0);
    const [line] = first.stdout.trim().split("\n").map((text) => JSON.parse(text) as SummaryLine);
    expect(line).toMatchObject({ alreadyImported: false, source: copy });
    expect(line!.arms[0]).toMatchObject({ label: "ReAct + Reflexion", tasks: 100, trials: 5 });
    expect(line!.warnings.length).toBeGreaterThan(0);
    const again = await runCli(["import-logs", original, "--json"], env);
    expect(again.code, again.stderr).toBe(0);
    const [second] = again.stdout.trim().split("\n").map((text) => JSON.parse(text) as SummaryLine);
    expect(second).toMatchObject({ experimentId: line!.experimentId, alreadyImported: true, warnings: line!.warnings });
    // Its content equals the shipped log: verified, with no "Uploaded copy" caveat.
    const store = new SqliteRunStore(env.REFLEXION_DB_PATH);
    try {
      const [experiment] = await store.experiments.listExperiments(10);
      expect(experiment!.provenance).toMatchObject({ verified: true });
      expect(experiment!.provenance!.notes.join(" ")).not.toMatch(/Uploaded copy/);
    } finally {
      await store.close();
    }
  }, 60_000);

  it("a folder with no log in the authors' layout says what was looked for and where", async () => {
    const empty = path.join(dir, "empty");
    fs.mkdirSync(empty, { recursive: true });
    fs.writeFileSync(path.join(empty, "notes.md"), "nothing here");
    const result = await runCli(["import-logs", empty], { REFLEXION_DB_PATH: path.join(dir, "empty.sqlite") });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`in the folder ${empty}`);
    expect(result.stderr).toMatch(/hotpotqa_runs\/root\/<variant>\/100_questions_N_trials\.txt/);
    expect(result.stderr).toMatch(/single log file .* by its content/);
  }, 60_000);

  it("prints label, runs, per-trial figures and warnings for people", async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "human.sqlite") };
    const result = await runCli(["import-logs", path.join(LOGS, "alfworld_runs/root/base_run_logs")], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^ALFWorld ReAct only: 134 runs, 7 trials, solved by trial 84 → 94 → 97 → 98 → 100 → 101 → 101\n/);
  }, 60_000);

  it("a truncated log exits 2 naming the file and line, and imports nothing", async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "bad.sqlite") };
    const original = fs.readFileSync(path.join(LOGS, "hotpotqa_runs/root/CoT/no_context/base/100_questions_5_trials.txt"), "utf8");
    const cut = path.join(dir, "CoT/no_context/base/100_questions_5_trials.txt");
    fs.mkdirSync(path.dirname(cut), { recursive: true });
    fs.writeFileSync(cut, original.slice(0, Math.floor(original.length / 2)));
    const result = await runCli(["import-logs", cut], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: .*100_questions_5_trials\.txt, line \d+: the file ends inside the block starting here/);
    const listed = await runCli(["experiment", "list"], env);
    expect(listed.stdout.trim()).not.toMatch(/CoT only/);
  }, 60_000);
});
