import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { createServerContext } from "@/lib/server/app-context";
import { DEMO_RUNS, driveDemoRuns, HOUSEHOLD } from "../search/search-fixture";
import { runCli } from "./run-cli";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rp-cli-search-"));
const env = { REFLEXION_DB_PATH: path.join(tmp, "db.sqlite") };

/** `${runId}#${trial}` of every household trial in which one action occurs three times or more, from the folded logs. */
let expected: string[] = [];
let householdTrials = 0;
/** Each action node of those trials: its event id → the action text and `${runId}#${trial}`. */
const actionNodes = new Map<string, { text: string; at: string }>();

beforeAll(async () => {
  const context = createServerContext({ env, workers: { pollMs: 10 } });
  try {
    // Several demo household runs (and a QA one, which must not show).
    const runIds = await driveDemoRuns(context, [...DEMO_RUNS, { environment: HOUSEHOLD, taskId: "household-builtin-04", strategy: "none" }]);
    for (const runId of runIds) {
      const run = (await context.store.getRun(runId as never))!;
      const state = foldRun(await context.store.list(run.id, run.rootBranchId));
      if (state.config?.environment !== HOUSEHOLD) continue;
      for (const trial of state.trials) {
        householdTrials += 1;
        const counts = new Map<string, number>();
        for (const step of trial.steps) if (step.action) counts.set(step.action.text.trim(), (counts.get(step.action.text.trim()) ?? 0) + 1);
        for (const step of trial.steps) if (step.action) actionNodes.set(step.action.eventId, { text: step.action.text.trim(), at: `${runId}#${trial.trial}` });
        if (Math.max(0, ...counts.values()) >= 3) expected.push(`${runId}#${trial.trial}`);
      }
    }
    expected = expected.sort();
  } finally {
    await context.close();
  }
}, 180_000);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("cli search", () => {
  it('"family:household repeat>=3" finds exactly the demo household trials where one action occurs three times', async () => {
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(householdTrials);
    const result = await runCli(["search", "family:household repeat>=3", "--json", "--limit", "1000"], env);
    expect(result.code, result.stderr).toBe(0);
    const parsed = JSON.parse(result.stdout) as { total: number; normalized: string; hits: Array<{ runId: string; branchId: string; trial: number; repeat: number; repeatedAction: string; eventId: string; path: string }> };
    expect(parsed.hits.map((hit) => `${hit.runId}#${hit.trial}`).sort()).toEqual(expected);
    expect(parsed.total).toBe(expected.length);
    expect(parsed.normalized).toBe("family:household repeat>=3");
    for (const hit of parsed.hits) expect(hit.path).toBe(`/runs/${hit.runId}?branch=${hit.branchId}&node=${hit.eventId}`);
    // Each hit opens the repeated action itself (an action node of that trial with that text), not the trial's start.
    for (const hit of parsed.hits) expect(actionNodes.get(hit.eventId)).toEqual({ text: hit.repeatedAction, at: `${hit.runId}#${hit.trial}` });
  });

  it("prints a table with the outcome, repeat, cost, snippet and the link to the node", async () => {
    const result = await runCli(["search", "family:household desklamp", "--limit", "2"], env);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^RUN\s+TASK\s+TRIAL\s+OUTCOME\s+REPEAT\s+COST\s+MATCH\s+LINK$/u);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/household-builtin-0\d\s+\d+\s+(success|failure|halted|—)\s+\d+\s+(\$\d+\.\d{4}|—)\s+.*desklamp.*\/runs\/[0-9a-f-]+\?branch=[0-9a-f-]+&node=[0-9a-f-]+$/iu);
    expect(lines.at(-1)).toMatch(/^2 of \d+ trials \(family:household desklamp; [\d.]+ ms\)$/u);
  });

  it("a bad query exits 2 with the parser's message and a caret under the offset", async () => {
    const result = await runCli(["search", "family:household colour:red"], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown field "colour"');
    expect(result.stderr).toContain(`\n  ${" ".repeat(17)}^ (character 18)`);
  });
});
