import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { parseCheckConfig } from "@/lib/domain/ci-check/config";
import { loadHotpotQa } from "@/lib/environments/qa/hotpotqa-loader";
import type { ServerContext } from "@/lib/server/app-context";
import { CheckCouldNotRun, runCheck } from "@/lib/server/ci-check";
import { HOTPOTQA_SAMPLE_PATH, readHotpotQaSample } from "../environments/qa/shared-data";
import { demoContext } from "../templates/helpers";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ci-check-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let context: ServerContext | null = null;
afterEach(async () => {
  await context?.workers.stop();
  context = null;
});

const ids = loadHotpotQa(readHotpotQaSample(), { limit: 2 }).tasks.map((task) => task.id);

function configOn(dataset: string) {
  return parseCheckConfig(
    JSON.stringify({
      name: "uploaded",
      taskSets: [{ family: "qa", dataset, taskIds: ids }],
      arms: [{ label: "reflexion", strategy: "reflexion" }],
      maxTrials: 2,
      assertions: [{ arm: "reflexion", metric: "final-success", op: "<=", value: 0.5 }],
    }),
    "check.json",
  );
}

describe("runCheck: task sets from files and from the uploaded sets", () => {
  it("imports a dataset file, then finds the uploaded set by its name when no such file is next to the config; a name of another family is not found", async () => {
    context = demoContext().context;
    const byFile = await runCheck(context, configOn(HOTPOTQA_SAMPLE_PATH), { baseDir: dir });
    // The demo model has no script for HotpotQA's questions: it answers "unknown", and the assertion holds.
    expect(byFile.assertions.map((a) => [a.value, a.passed])).toEqual([[0, true]]);
    const first = await context.experiments.get(byFile.experiments[0]!.experimentId);
    expect(first.definition.taskSet).not.toBe("builtin");
    expect(first.definition.taskIds).toEqual(ids);

    const byName = await runCheck(context, configOn(path.basename(HOTPOTQA_SAMPLE_PATH)), { baseDir: dir });
    const second = await context.experiments.get(byName.experiments[0]!.experimentId);
    expect(second.definition.taskSet).toBe(first.definition.taskSet);
    // The same calls, in the check's cache scope: none sent the second time.
    expect(byName.calls).toEqual({ live: 0, cached: byFile.calls.live + byFile.calls.cached });

    const household = parseCheckConfig(JSON.stringify({ taskSets: [{ family: "household", dataset: path.basename(HOTPOTQA_SAMPLE_PATH) }], arms: [{ label: "a", strategy: "reflexion" }], assertions: [{ arm: "a", metric: "final-success", op: ">=", value: 0 }] }), "check.json");
    await expect(runCheck(context, household, { baseDir: dir })).rejects.toThrow(CheckCouldNotRun);
    await expect(runCheck(context, household, { baseDir: dir })).rejects.toThrow(/or the id or name of an uploaded household task set\) hotpotqa-distractor-reflexion-sample100\.json was not found/);
  }, 60_000);
});

describe("runCheck: a false-positive rate needs hidden tests", () => {
  it("refuses, before any run, a false-positive-rate on a family whose Evaluator reports no hidden tests", async () => {
    context = demoContext().context;
    const config = parseCheckConfig(
      JSON.stringify({
        name: "fp on qa",
        taskSets: [{ family: "qa", dataset: "builtin" }],
        arms: [{ label: "reflexion", strategy: "reflexion" }],
        assertions: [{ arm: "reflexion", metric: "false-positive-rate", op: "<=", value: 0.05 }],
      }),
      "check.json",
    );
    const attempt = runCheck(context, config, { baseDir: dir });
    await expect(attempt).rejects.toBeInstanceOf(CheckCouldNotRun);
    await expect(attempt).rejects.toThrow(/assertions\[0\]\.metric: false-positive-rate needs hidden tests.*"qa".*families with hidden tests: code/);
    expect(await context.experiments.list(50, { withDerived: true })).toHaveLength(0);
  });
});

describe("runCheck: an unknown family", () => {
  it("is refused before any run, naming the field and the registered families", async () => {
    context = demoContext().context;
    const config = parseCheckConfig(
      JSON.stringify({ name: "typo", taskSets: [{ family: "hotpot", dataset: "builtin" }], arms: [{ label: "reflexion", strategy: "reflexion" }], assertions: [{ arm: "reflexion", metric: "final-success", op: ">=", value: 0.5 }] }),
      "check.json",
    );
    const attempt = runCheck(context, config, { baseDir: dir });
    await expect(attempt).rejects.toBeInstanceOf(CheckCouldNotRun);
    await expect(attempt).rejects.toThrow(/taskSets\[0\]\.family: unknown task family "hotpot"; the registered ones are qa, household, code, open/);
    expect(await context.experiments.list(50, { withDerived: true })).toHaveLength(0);
  });
});
