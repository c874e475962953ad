import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./run-cli";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-insights-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface SummaryLine {
  experimentId: string;
  arms: Array<{ label: string; successByTrial: number[] }>;
}
const lastLine = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1)!) as SummaryLine;

const LEARN = "qa-builtin-01,qa-builtin-02,qa-builtin-03,qa-builtin-04,qa-builtin-05,qa-builtin-06";
const NEW = "qa-builtin-07,qa-builtin-08,qa-builtin-09,qa-builtin-10,qa-builtin-11,qa-builtin-12";

describe("cli insights (ExpeL)", { tags: ["slow"] }, () => {
  it("extracts insights from a demo experiment with their provenance, lists them, refuses an expel arm without them and runs one with them", { timeout: 240_000 }, async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "insights.sqlite") };
    const learn = await runCli(["experiment", "run", "--env", "qa", "--tasks", "builtin", "--task-ids", LEARN, "--arms", "reflexion", "--trials", "2", "--json"], env);
    expect(learn.code, learn.stderr).toBe(0);
    const experimentId = lastLine(learn.stdout).experimentId;

    const extracted = await runCli(["insights", "extract", "--experiment", experimentId, "--store", "insights-qa", "--json"], env);
    expect(extracted.code, extracted.stderr).toBe(0);
    const [family] = JSON.parse(extracted.stdout) as Array<{ environment: string; provenance: { experimentId: string; runIds: string[]; template: { id: string; version: number }; model: string }; insights: Array<{ text: string }> }>;
    expect(family?.environment).toBe("qa");
    expect(family?.provenance).toMatchObject({ experimentId, template: { id: "expel/insights", version: 1 }, model: "demo" });
    expect(family?.provenance.runIds).toHaveLength(6);
    expect(family?.insights.length).toBeGreaterThanOrEqual(2);
    expect(family?.insights.length).toBeLessThanOrEqual(4);

    const listed = await runCli(["insights", "list", "--store", "insights-qa"], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`1. ${family?.insights[0]?.text}`);
    expect(listed.stdout).toContain(`experiment ${experimentId}, 6 run(s)`);
    const empty = await runCli(["insights", "list", "--store", "nothing-here"], env);
    expect(empty.stdout).toMatch(/holds no insights; extract them with: cli insights extract/u);

    const unknown = await runCli(["insights", "extract", "--experiment", "no-such-experiment", "--store", "insights-qa"], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/No experiment no-such-experiment\./u);

    const refused = await runCli(["experiment", "run", "--env", "qa", "--tasks", "builtin", "--task-ids", NEW, "--arms", "reflexion,expel", "--trials", "2"], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/The arm expel needs insights: .*cli insights extract --experiment <id> --store <name>.*--insights <name>/u);

    const compared = await runCli(["experiment", "run", "--env", "qa", "--tasks", "builtin", "--task-ids", NEW, "--arms", "reflexion,expel", "--insights", "insights-qa", "--trials", "2", "--json"], env);
    expect(compared.code, compared.stderr).toBe(0);
    const arms = lastLine(compared.stdout).arms;
    const first = (label: string) => arms.find((arm) => arm.label === label)!.successByTrial[0]!;
    // On tasks the insights were not drawn from, ExpeL's first trials do better than Reflexion's.
    expect(first("expel")).toBeGreaterThan(first("reflexion"));
  });
});
