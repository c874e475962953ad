import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import type { ImportResult } from "@/lib/domain/paper-import";
import { PaperImportService, type FolderImport } from "@/lib/importers/import-service";
import { createServerContext } from "@/lib/server/app-context";

/**
 * Every log under shared/data/reflexion imports without error and reproduces
 * the authors' per-trial figures. Expected values are the published ones —
 * shared/docs/reflexion-reference.md §2.10 (HotpotQA), §3.7 (ALFWorld), §4.5
 * (programming) and shared/data/reflexion/SOURCES.md — typed in here, not read
 * from our own output. The logs are read in place, never copied.
 */
const DATA_ROOT = path.resolve(__dirname, "../../../shared/data");
const HOTPOT = "reflexion/noahshinn-reflexion/hotpotqa_runs/root";
const ALFWORLD = "reflexion/noahshinn-reflexion/alfworld_runs/root";
const CODE = "reflexion/noahshinn-reflexion/programming_runs/root";

let folder: FolderImport;
let service: PaperImportService;
let store: MemoryRunStore;

function bySource(source: string): ImportResult {
  const found = folder.imports.find((result) => result.source === source);
  if (!found) throw new Error(`${source} was not imported; imported: ${folder.imports.map((r) => r.source).join(", ")}`);
  return found;
}

beforeAll(async () => {
  store = new MemoryRunStore();
  const context = createServerContext({ store, startWorkers: false, env: {} });
  service = new PaperImportService(store, context.experiments, { dataRoot: DATA_ROOT });
  folder = await service.importPath(path.join(DATA_ROOT, "reflexion"));
}, 60_000);

describe("importing the authors' shipped logs", () => {
  it("imports every run log of the three families and skips only the test-accuracy log, saying why", () => {
    expect(folder.imports).toHaveLength(17);
    expect(folder.imports.map((result) => result.family).sort()).toEqual([...Array(2).fill("household"), ...Array(8).fill("code"), ...Array(7).fill("qa")].sort());
    expect(folder.skipped).toHaveLength(1);
    expect(folder.skipped[0]?.path).toContain("testacc_humaneval_py");
    expect(folder.skipped[0]?.reason).toMatch(/not a run of the agent/);
  });

  it("HotpotQA: ReAct only 34 every trial; ReAct + Reflexion 32, 42, 48, 50, 51 (reference §2.10)", () => {
    expect(bySource(`${HOTPOT}/ReAct/base/100_questions_5_trials.txt`)).toMatchObject({ label: "ReAct only", runs: 100, trials: 5, successByTrial: [34, 34, 34, 34, 34] });
    expect(bySource(`${HOTPOT}/ReAct/reflexion/100_questions_5_trials.txt`)).toMatchObject({ label: "ReAct + Reflexion", runs: 100, trials: 5, successByTrial: [32, 42, 48, 50, 51] });
  });

  it("HotpotQA CoT variants per §2.10 / SOURCES.md", () => {
    expect(bySource(`${HOTPOT}/CoT/no_context/base/100_questions_5_trials.txt`).successByTrial).toEqual([32, 33, 33, 33, 33]);
    expect(bySource(`${HOTPOT}/CoT/no_context/reflexion/100_questions_5_trials.txt`).successByTrial).toEqual([32, 37, 40, 40, 40]);
    expect(bySource(`${HOTPOT}/CoT/context/last_trial/100_questions_8_trials.txt`).successByTrial).toEqual([62, 66, 66, 66, 66]);
    expect(bySource(`${HOTPOT}/CoT/context/last_trial_and_reflexion/100_questions_5_trials.txt`).successByTrial).toEqual([63, 70, 72, 74, 74]);
    // The reference's 61, 69, 70, 72, 74 (and SOURCES.md's "61→74") are the 8-trial file, which is not shipped;
    // the shipped 5-trial file's own summary lines print 61, 69, 69, 70, 72.
    expect(bySource(`${HOTPOT}/CoT/context/reflexion/100_questions_5_trials.txt`).successByTrial).toEqual([61, 69, 69, 70, 72]);
  });

  it("ALFWorld: Reflexion 84 → 130 at trial 10 → 134; ReAct only 84 → 101 (reference §3.7)", () => {
    const reflexion = bySource(`${ALFWORLD}/reflexion_run_logs`);
    expect(reflexion).toMatchObject({ runs: 134, trials: 15 });
    expect(reflexion.successByTrial).toEqual([84, 103, 111, 113, 117, 118, 123, 126, 128, 129, 130, 130, 131, 133, 134]);
    expect(bySource(`${ALFWORLD}/base_run_logs`)).toMatchObject({ runs: 134, trials: 7, successByTrial: [84, 94, 97, 98, 100, 101, 101] });
  });

  it("programming: HumanEval-Py 150/164 (134 without reflection), MBPP-Py 306 vs 318 of 397, Rust 34/30/26/30 of 50 (reference §4.5)", () => {
    const humaneval = bySource(`${CODE}/reflexion_humaneval_py_pass_at_1/reflexion_humaneval_py_pass_at_1.jsonl`);
    expect(humaneval.runs).toBe(164);
    expect(humaneval.successByTrial[0]).toBe(134);
    expect(humaneval.successByTrial.at(-1)).toBe(150);
    expect(bySource(`${CODE}/simple_test_run/simple_1_gpt-4_pass_at_k_1.jsonl`)).toMatchObject({ runs: 164, trials: 1, successByTrial: [134] });
    expect(bySource(`${CODE}/reflexion_mbpp_py/mbpp-py._reflexion_5_gpt-4_pass_at_k_1_py.jsonl`)).toMatchObject({ runs: 397, trials: 5 });
    expect(bySource(`${CODE}/reflexion_mbpp_py/mbpp-py._reflexion_5_gpt-4_pass_at_k_1_py.jsonl`).successByTrial.at(-1)).toBe(306);
    expect(bySource(`${CODE}/simple_mbpp_py/mbpp-py._simple_1_gpt-4_pass_at_k_1_py.jsonl`).successByTrial).toEqual([318]);
    const rust = (folderName: string) => bySource(folder.imports.find((r) => r.source.includes(`/${folderName}/`))?.source ?? folderName);
    expect(rust("reflexion_humaneval_rs_hard50").successByTrial.at(-1)).toBe(34);
    expect(rust("simple_humaneval_rs_hard50").successByTrial.at(-1)).toBe(30);
    expect(rust("immediate_reflexion_humaneval_rs_hardest50").successByTrial.at(-1)).toBe(26);
    expect(rust("immediate_refinement_humaneval_rs_hardest50").successByTrial.at(-1)).toBe(30);
    for (const name of ["reflexion_humaneval_rs_hard50", "simple_humaneval_rs_hard50", "immediate_reflexion_humaneval_rs_hardest50", "immediate_refinement_humaneval_rs_hardest50"]) {
      expect(rust(name).runs).toBe(50);
    }
  });

  it("keeps the HotpotQA logs' own summary lines and warns where blocks and summary disagree", async () => {
    const base = bySource(`${HOTPOT}/ReAct/base/100_questions_5_trials.txt`);
    const record = await store.experiments.getExperiment(base.experimentId);
    expect(record?.provenance?.logSummary).toEqual([
      { trial: 1, correct: 34, incorrect: 56, halted: 10 },
      { trial: 2, correct: 34, incorrect: 57, halted: 9 },
      { trial: 3, correct: 34, incorrect: 56, halted: 9 },
      { trial: 4, correct: 34, incorrect: 57, halted: 9 },
      { trial: 5, correct: 34, incorrect: 56, halted: 10 },
    ]);
    // 103 blocks for 100 questions in trial 1 (three agents under INCORRECT and HALTED).
    expect(base.warnings[0]).toMatch(/^Trial 1 \(line 3\): .*103 agent\(s\) for 100 of 100 questions; listed twice/);
    // Trial 3: Halted 9 in the summary, 10 questions halted in the blocks: both kept.
    expect(base.warnings.find((w) => w.startsWith("Trial 3"))).toMatch(/Halted 10, which differs from the summary; both figures are kept/);
    const reflexion = bySource(`${HOTPOT}/ReAct/reflexion/100_questions_5_trials.txt`);
    expect(reflexion.warnings).toHaveLength(2);
    expect(reflexion.warnings[0]).toMatch(/^Trial 2 .*\(99 agents\).*not listed .*David Huntsinger/);
    expect(bySource(`${HOTPOT}/CoT/no_context/base/100_questions_5_trials.txt`).warnings).toEqual([]);
  });

  it("registers the 100-question sample as a task set and points the QA experiments at it", async () => {
    const result = bySource(`${HOTPOT}/CoT/context/reflexion/100_questions_5_trials.txt`);
    const record = await store.experiments.getExperiment(result.experimentId);
    const set = await store.getTaskSet(record?.definition.taskSet ?? "");
    expect(set?.tasks).toHaveLength(100);
    // This log prints no questions: every block was matched to the sample by its gold paragraphs.
    expect(new Set(record?.definition.taskIds)).toEqual(new Set(set?.tasks.map((task) => task.id)));
  });

  it("importing a source again returns the existing experiment instead of a duplicate", async () => {
    const before = (await store.experiments.listExperiments(100)).length;
    const again = await service.importPath(path.join(DATA_ROOT, ALFWORLD, "base_run_logs"));
    expect(again.imports).toHaveLength(1);
    expect(again.imports[0]).toMatchObject({ alreadyImported: true, experimentId: bySource(`${ALFWORLD}/base_run_logs`).experimentId, successByTrial: [84, 94, 97, 98, 100, 101, 101] });
    expect((await store.experiments.listExperiments(100)).length).toBe(before);
    const listed = await service.list();
    expect(listed.files).toHaveLength(17);
    expect(listed.files.every((file) => file.importedExperimentId !== null)).toBe(true);
  });
});
