import { describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import type { RunStore } from "@/lib/db/store";
import { runConfigSchema } from "@/lib/domain/config";
import { draft } from "@/lib/domain/events";
import { PaperImportService, type LogFileInput } from "@/lib/importers/import-service";
import { createServerContext } from "@/lib/server/app-context";

/**
 * Broken logs (small fixtures written here) are refused with an error naming
 * the file and the line, and nothing of them is stored.
 */

function setup(store: RunStore = new MemoryRunStore()) {
  const context = createServerContext({ store, startWorkers: false, env: {} });
  return { store, service: new PaperImportService(store, context.experiments, { dataRoot: null }) };
}

const BLOCK = (question: string, group: "ok" | "bad" = "ok") =>
  [
    `Question: ${question}`,
    "Thought 1: I need to search it.",
    "Action 1: Search[It]",
    "Observation 1: It is a thing.",
    "It spans two lines.",
    "Thought 2: So the answer is yes.",
    "Action 2: Finish[yes]",
    `Observation 2: Answer is ${group === "ok" ? "CORRECT" : "INCORRECT"}`,
    `Correct answer: ${group === "ok" ? "yes" : "no"}`,
    "",
  ].join("\n");

const TRIAL = (n: number, summary: string, body: string) =>
  ["", "########################################", `BEGIN TRIAL ${n}`, summary, "#######################################", "------------- BEGIN CORRECT AGENTS -------------", "", body].join("\n");

const GOOD_HOTPOT = TRIAL(1, "Trial summary: Correct: 1, Incorrect: 0, Halted: 0", BLOCK("Is it?"));

async function expectRefused(files: LogFileInput[], message: RegExp, store?: RunStore) {
  const { service, store: used } = setup(store);
  await expect(service.importUploads(files)).rejects.toThrow(message);
  expect(await used.experiments.listExperiments(10)).toEqual([]);
  expect(await used.listRuns(10)).toEqual([]);
}

describe("malformed HotpotQA logs", () => {
  it("a well-formed two-step fixture imports (the baseline of the cases below)", async () => {
    const { service, store } = setup();
    const [result] = await service.importUploads([{ name: "100_questions_1_trials.txt", content: GOOD_HOTPOT }]);
    expect(result).toMatchObject({ runs: 1, trials: 1, successByTrial: [1] });
    // Not in the (absent) sample: the task was built from the log, and the warnings say so.
    expect(result?.warnings.join(" ")).toMatch(/not in the 100-question sample/);
    const [run] = await store.listRuns(1);
    const events = await store.list(run!.id, run!.rootBranchId);
    expect(events.find((e) => e.type === "step-observation")?.data).toMatchObject({ text: "It is a thing.\nIt spans two lines." });
  });

  it("the same upload imported twice at once makes one experiment", async () => {
    const { service, store } = setup();
    const file = { name: "100_questions_1_trials.txt", content: GOOD_HOTPOT };
    const [a, b] = await Promise.all([service.importUploads([file]), service.importUploads([file])]);
    expect(a[0]?.experimentId).toBe(b[0]?.experimentId);
    expect(await store.experiments.listExperiments(10)).toHaveLength(1);
    expect((await service.importUploads([file]))[0]).toMatchObject({ experimentId: a[0]?.experimentId, alreadyImported: true });
  });

  it("a truncated log (a block without its Correct answer line) names the file and the block's line", async () => {
    const truncated = GOOD_HOTPOT.split("\n").slice(0, -3).join("\n");
    await expectRefused([{ name: "cut.txt", content: truncated }], /^cut\.txt, line 8: the file ends inside the block starting here .*truncated/);
  });

  it("a second trial cut after its banner imports nothing of the first", async () => {
    const content = `${GOOD_HOTPOT}\n########################################\nBEGIN TRIAL 2\n`;
    await expectRefused([{ name: "two.txt", content }], /^two\.txt, line 19: the file ends right after a "BEGIN TRIAL" banner/);
  });

  it("a malformed summary line and trials out of order name their lines", async () => {
    await expectRefused([{ name: "summary.txt", content: GOOD_HOTPOT.replace("Correct: 1, Incorrect: 0, Halted: 0", "Correct: one") }], /^summary\.txt, line 4: expected the trial summary line/);
    const skipped = `${GOOD_HOTPOT}${TRIAL(3, "Trial summary: Correct: 1, Incorrect: 0, Halted: 0", BLOCK("Is it?"))}`;
    await expectRefused([{ name: "order.txt", content: skipped }], /^order\.txt, line 19: expected "BEGIN TRIAL 2", found "BEGIN TRIAL 3"/);
  });

  it("a block cut by the next group names where it started", async () => {
    const content = GOOD_HOTPOT.replace("Correct answer: yes\n", "------------- BEGIN INCORRECT AGENTS -----------\n");
    await expectRefused([{ name: "edited.txt", content }], /^edited\.txt, line 8: the block starting here has no "Correct answer:" line before line 16/);
  });

  it("a file that is not a log at all says what is expected", async () => {
    await expectRefused([{ name: "notes.txt", content: "hello\nworld\n" }], /^notes\.txt, line 1: not a log this importer reads/);
  });
});

describe("malformed ALFWorld results", () => {
  const record = (name: string, success: boolean, memory: string[] = []) => ({ name, memory, is_success: success });
  const file = (n: number, records: unknown[]) => ({ name: `env_results_trial_${n}.json`, content: JSON.stringify(records, null, 2) });

  it("well-formed trial files import as one run per environment, reflections in memory", async () => {
    const { service } = setup();
    const [result] = await service.importUploads([file(1, [record("env_0", true, [" lesson"]), record("env_1", false, [" lesson", " again"])]), file(0, [record("env_0", false, [" lesson"]), record("env_1", false, [" lesson"])])]);
    expect(result).toMatchObject({ family: "household", runs: 2, trials: 2, successByTrial: [0, 1] });
  });

  it("truncated JSON names the file and the line", async () => {
    const good = file(0, [record("env_0", false)]);
    const bad = file(1, [record("env_0", true), record("env_1", false)]);
    await expectRefused([good, { ...bad, content: bad.content.slice(0, 60) }], /^env_results_trial_1\.json, line \d+: not valid JSON/);
  });

  it("a record without is_success names the record's line", async () => {
    const content = JSON.stringify([record("env_0", false), { name: "env_1", memory: [] }], null, 2);
    await expectRefused([{ name: "env_results_trial_0.json", content }], /^env_results_trial_0\.json, line 7: record 2 is not \{ name, memory: \[strings\], is_success: boolean \} \(is_success/);
  });

  it("a missing trial file is named", async () => {
    await expectRefused([file(0, [record("env_0", false)]), file(2, [record("env_0", true)])], /^env_results_trial_2\.json, line 1: expected env_results_trial_1\.json before it/);
  });
});

describe("malformed programming logs", () => {
  const line = (id: string, solved: boolean) => JSON.stringify({ task_id: id, prompt: "def f():\n", entry_point: "f", test: "assert f()", solution: "def f(): return 1", reflections: [], is_solved: solved });

  it("a truncated last line names the file and line", async () => {
    const content = `${line("HumanEval/0", true)}\n${line("HumanEval/1", false)}\n${line("HumanEval/2", true).slice(0, 40)}`;
    await expectRefused([{ name: "simple_1_gpt-4_pass_at_k_1.jsonl", content }], /^simple_1_gpt-4_pass_at_k_1\.jsonl, line 3: not a JSON object/);
  });

  it("a record without is_solved names its line", async () => {
    const content = `${line("HumanEval/0", true)}\n${JSON.stringify({ task_id: "HumanEval/1", prompt: "p", entry_point: "f", solution: "s" })}\n`;
    await expectRefused([{ name: "simple_1_gpt-4_pass_at_k_1.jsonl", content }], /^simple_1_gpt-4_pass_at_k_1\.jsonl, line 2: not a record of a programming run \(is_solved/);
  });

  it("the test-accuracy log is refused with the reason", async () => {
    await expectRefused([{ name: "testacc_humaneval_py/x.jsonl", content: line("HumanEval/0", true) }], /not a run of the agent/);
  });
});

describe("RunStore.importExperiment stores a log all or nothing", () => {
  for (const [name, make] of [
    ["memory", () => new MemoryRunStore()],
    ["sqlite", () => new SqliteRunStore(":memory:")],
  ] as const) {
    it(`${name}: an invalid event in the last run stores no experiment, run or event`, async () => {
      const store: RunStore = make();
      const config = runConfigSchema.parse({
        environment: "qa",
        taskSetName: "t",
        taskId: "a",
        task: { id: "a", question: "q", answer: "x", paragraphs: [{ title: "T", sentences: ["s"] }], supportingTitles: [] },
        strategy: "none",
        models: { actor: { modelId: "demo" }, reflector: { modelId: "demo" } },
        templates: { actor: { id: "a", version: 1, text: "a" }, reflector: { id: "r", version: 1, text: "r" } },
      });
      const good = [draft("trial-start", { trial: 1, memory: [], evicted: [] }), draft("run-end", { outcome: "failure", trials: 1 })];
      const bad = [draft("trial-start", { trial: 0, memory: [], evicted: [] })];
      const definition = { name: "x", environment: "qa" as const, taskSet: "paper-log", taskIds: ["a", "b"], arms: [{ label: "A", strategy: "none" as const, modelId: "demo" }], maxTrials: 1, concurrency: 1 };
      const provenance = { kind: "paper-log" as const, label: "A", source: "x", recordedBy: "authors" as const, year: 2023, model: "m", notes: [], logSummary: null };
      await expect(
        store.importExperiment({
          definition,
          taskSetName: "t",
          provenance,
          runs: [
            { config, title: "a", cell: { taskId: "a", arm: "A" }, drafts: good },
            { config: { ...config, taskId: "b" }, title: "b", cell: { taskId: "b", arm: "A" }, drafts: bad },
          ],
        }),
      ).rejects.toThrow(/malformed "trial-start" event/);
      expect(await store.experiments.listExperiments(10)).toEqual([]);
      expect(await store.listRuns(10)).toEqual([]);
      await store.close();
    });
  }
});
