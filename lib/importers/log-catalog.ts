import type { EnvironmentId, Strategy } from "@/lib/domain/config";
import type { PaperLogFormat } from "@/lib/domain/paper-import";

/**
 * What each of the authors' published logs is (shared/data/reflexion/SOURCES.md;
 * shared/docs/reflexion-reference.md §2.10, §3.7, §4.5), recognised from its path
 * (or an uploaded file's name). One descriptor per log: the arm it becomes
 * (label, strategy, model as logged) and the caveats shown with its runs.
 * Mapping choices: docs/decisions/0015-importing-the-papers-runs.md.
 */

/** How a log maps to one experiment arm. */
export interface LogDescriptor {
  format: PaperLogFormat;
  family: EnvironmentId;
  /** Arm label, at most 60 characters. */
  label: string;
  strategy: Strategy;
  /** Memory window Ω of the authors' code: HotpotQA shows every reflection (null), ALFWorld the last 3, programming the last 1. */
  memoryWindow: number | null;
  /** The model as the authors logged it, and as a model id of this app. */
  model: string;
  modelId: string;
  /** Caveats shown with every run of the log. */
  notes: string[];
  /** HotpotQA: the printed blocks are ReAct (tools) or CoT (one Thought + Finish). */
  actor?: "react" | "cot";
  /** Programming: the language the log's solutions are in. */
  language?: "python" | "rust";
  /** Programming: whether each row's reflections count its failed iterations (Reflexion with internal tests). */
  iterationsFromReflections?: boolean;
  /** Set by the import service: what identifies this import's content, and whether it equals a shipped log (provenance `contentSha256`, `verified`). */
  identity?: { contentSha256: string; verified: boolean };
}

const DAVINCI = { model: "text-davinci-003", modelId: "openai:text-davinci-003" };
const GPT4 = { model: "gpt-4", modelId: "openai:gpt-4" };

const HOTPOT_NOTE = "Recorded by the authors (text-davinci-003, temperature 0, May 2023); Search/Lookup observations are the live Wikipedia pages they saw.";
const EPM_NOTE =
  "The authors ran episodic memory (EPM: the last trial's trajectory in the prompt) over CoT with the gold paragraphs; this app's EPM strategies are ReAct-based, so a fork continues as ReAct with the same memory rule.";

/** HotpotQA logs by the folder under `hotpotqa_runs/root/`. */
const HOTPOT: Array<{ folder: string; descriptor: Omit<LogDescriptor, "format" | "family" | "model" | "modelId"> }> = [
  { folder: "ReAct/reflexion", descriptor: { label: "ReAct + Reflexion", strategy: "reflexion", memoryWindow: null, actor: "react", notes: [HOTPOT_NOTE] } },
  { folder: "ReAct/base", descriptor: { label: "ReAct only", strategy: "none", memoryWindow: null, actor: "react", notes: [HOTPOT_NOTE] } },
  {
    folder: "CoT/context/reflexion",
    descriptor: {
      label: "CoT (GT) + Reflexion",
      strategy: "cot-gold-context",
      memoryWindow: null,
      actor: "cot",
      notes: [HOTPOT_NOTE, "This log prints neither the questions nor the reflections: questions are matched to the sample by their gold paragraphs, and the reflections are missing."],
    },
  },
  { folder: "CoT/context/last_trial_and_reflexion", descriptor: { label: "CoT (GT) + EPM + Reflexion", strategy: "last-attempt-and-reflexion", memoryWindow: null, actor: "cot", notes: [HOTPOT_NOTE, EPM_NOTE] } },
  {
    folder: "CoT/context/last_trial",
    descriptor: { label: "CoT (GT) + EPM", strategy: "last-attempt", memoryWindow: null, actor: "cot", notes: [HOTPOT_NOTE, EPM_NOTE, "The file is named 8_trials but holds 5 trials."] },
  },
  { folder: "CoT/no_context/reflexion", descriptor: { label: "CoT + Reflexion", strategy: "cot", memoryWindow: null, actor: "cot", notes: [HOTPOT_NOTE] } },
  {
    folder: "CoT/no_context/base",
    descriptor: {
      label: "CoT only",
      strategy: "cot",
      memoryWindow: null,
      actor: "cot",
      notes: [HOTPOT_NOTE, "A baseline: the authors wrote no reflections (failed questions were simply asked again); this app's `cot` strategy reflects, so a fork will."],
    },
  },
];

const ALFWORLD_NOTE = "ALFWorld trajectories were not published: only success and the reflections per trial (env_results_trial_N.json). Each trial shows its verdict and reflection, no steps.";
const ALFWORLD_SCENE_NOTE = "The logs name environments only by index (env_0 … env_133) and do not include the scene, so these runs cannot be forked or run again here.";

const CODE_NOTE = "Only each problem's final solution, its reflections and the solved flag (hidden tests, pass@1) were published; intermediate programs and test output were not.";
const CODE_FORK_NOTE = "Recorded-only runs: they cannot be forked here (no sandboxed tests for the logged programs).";

/** Programming logs by folder under `programming_runs/root/`. */
const PROGRAMMING: Array<{ folder: string; descriptor: Omit<LogDescriptor, "format" | "family" | "model" | "modelId"> }> = [
  {
    folder: "reflexion_humaneval_py_pass_at_1",
    descriptor: { label: "HumanEval-Py Reflexion", strategy: "reflexion", memoryWindow: 1, language: "python", iterationsFromReflections: true, notes: [CODE_NOTE, "Iterations = reflections + 1 (the loop stops when the internal tests pass)."] },
  },
  { folder: "simple_test_run", descriptor: { label: "HumanEval-Py simple", strategy: "none", memoryWindow: 1, language: "python", notes: [CODE_NOTE, "One implementation per problem (no tests, no reflection)."] } },
  {
    folder: "reflexion_mbpp_py",
    descriptor: { label: "MBPP-Py Reflexion", strategy: "reflexion", memoryWindow: 1, language: "python", iterationsFromReflections: true, notes: [CODE_NOTE, "Iterations = reflections + 1, at most 5."] },
  },
  { folder: "simple_mbpp_py", descriptor: { label: "MBPP-Py simple", strategy: "none", memoryWindow: 1, language: "python", notes: [CODE_NOTE, "One implementation per problem (no tests, no reflection)."] } },
  {
    folder: "reflexion_humaneval_rs_hard50",
    descriptor: { label: "HumanEval-Rs hard 50: Reflexion", strategy: "reflexion", memoryWindow: 1, language: "rust", iterationsFromReflections: true, notes: [CODE_NOTE, "Rust ablation (paper Table 3): full Reflexion, iterations = reflections + 1."] },
  },
  { folder: "simple_humaneval_rs_hard50", descriptor: { label: "HumanEval-Rs hard 50: base", strategy: "none", memoryWindow: 1, language: "rust", notes: [CODE_NOTE, "Rust ablation (paper Table 3): base model, no tests, no reflection."] } },
  {
    folder: "immediate_reflexion_humaneval_rs_hardest50",
    descriptor: {
      label: "HumanEval-Rs hard 50: no test generation",
      strategy: "reflexion",
      memoryWindow: 1,
      language: "rust",
      iterationsFromReflections: true,
      notes: [CODE_NOTE, "Rust ablation (paper Table 3): reflections written without test feedback (\"Test cases omitted\"); the hidden tests judge the last program."],
    },
  },
  {
    folder: "immediate_refinement_humaneval_rs_hardest50",
    descriptor: {
      label: "HumanEval-Rs hard 50: no self-reflection",
      strategy: "none",
      memoryWindow: 1,
      language: "rust",
      notes: [CODE_NOTE, "Rust ablation (paper Table 3): tests and refinement without self-reflection; the log does not record the iterations, so each run shows one trial holding the final program."],
    },
  },
];

/** Logs under `programming_runs/root/` that are not runs of the agent, with why they are not imported. */
export const NOT_AGENT_RUNS: Array<{ folder: string; reason: string }> = [
  {
    folder: "testacc_humaneval_py",
    reason:
      "testacc_humaneval_py is not a run of the agent: its `solution` fields are GPT-4's self-generated unit tests and `is_solved` says whether the canonical solution passes them (96/164, reference §4.5). It is not imported.",
  },
];

function normalise(path: string): string {
  return path.replace(/\\/g, "/");
}

/** The descriptor of a log by its path (relative or absolute; an ALFWorld folder's path), or null when it is not one we know. */
export function describeLogPath(path: string): LogDescriptor | null {
  const p = normalise(path);
  // WebShop keeps the same file names; it is not part of this import (its Actor never saw the reflections).
  if (/webshop/i.test(p)) return null;
  if (/env_results_trial_\d+\.json$/.test(p) || /alfworld_runs\//.test(p)) {
    const base = /base_run_logs/.test(p);
    return {
      format: "alfworld-results",
      family: "household",
      label: base ? "ALFWorld ReAct only" : "ALFWorld ReAct + Reflexion",
      strategy: base ? "none" : "reflexion",
      memoryWindow: 3,
      ...DAVINCI,
      notes: base
        ? [ALFWORLD_NOTE, ALFWORLD_SCENE_NOTE, "ReAct-only run: the authors' script still generated reflections after failures, but the Actor never saw them (--use_memory off). They are recorded here, outside the Actor's context."]
        : [ALFWORLD_NOTE, ALFWORLD_SCENE_NOTE, "The Actor saw the last 3 reflections (reference §3.7)."],
    };
  }
  if (/\.jsonl$/.test(p)) {
    const entry = PROGRAMMING.find((candidate) => p.includes(`${candidate.folder}/`));
    if (!entry) return null;
    return { format: "programming-jsonl", family: "code", ...GPT4, ...entry.descriptor, notes: [...entry.descriptor.notes, CODE_FORK_NOTE] };
  }
  if (/\.txt$/.test(p)) {
    const entry = HOTPOT.find((candidate) => p.includes(`/${candidate.folder}/`) || p.startsWith(`${candidate.folder}/`));
    if (!entry) return null;
    return { format: "hotpotqa-text", family: "qa", ...DAVINCI, ...entry.descriptor };
  }
  return null;
}

/** Why a known file is deliberately not imported, or null. */
export function notImportedReason(path: string): string | null {
  const p = normalise(path);
  return NOT_AGENT_RUNS.find((entry) => p.includes(`${entry.folder}/`))?.reason ?? null;
}

/**
 * A descriptor for an uploaded HotpotQA log whose name says nothing about its
 * variant: read from its content (ReAct or CoT blocks, gold context or not,
 * reflections printed or not, EPM trajectories in memory).
 */
export function describeHotpotQaContent(name: string, sample: { react: boolean; withContext: boolean; reflections: boolean; lastTrial: boolean }): LogDescriptor {
  const folder = sample.react
    ? sample.reflections
      ? "ReAct/reflexion"
      : "ReAct/base"
    : sample.withContext
      ? sample.lastTrial
        ? sample.reflections
          ? "CoT/context/last_trial_and_reflexion"
          : "CoT/context/last_trial"
        : sample.reflections
          ? "CoT/context/last_trial_and_reflexion"
          : "CoT/context/reflexion"
      : sample.reflections
        ? "CoT/no_context/reflexion"
        : "CoT/no_context/base";
  const entry = HOTPOT.find((candidate) => candidate.folder === folder);
  if (!entry) throw new Error(`no HotpotQA descriptor for ${folder}`);
  return {
    format: "hotpotqa-text",
    family: "qa",
    ...DAVINCI,
    ...entry.descriptor,
    notes: [...entry.descriptor.notes, `Variant read from the content of ${name} (the file name does not say which run it is).`],
  };
}
