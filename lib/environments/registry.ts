import type { EnvironmentId } from "@/lib/domain/config";
import type { EnvironmentFamily } from "@/lib/domain/environment";
import { AppError } from "@/lib/domain/errors";
import { sharedSandbox } from "@/lib/sandbox/shared-pool";
import { builtinCodeTasks, createCodeEnvironment, loadCodeTasks } from "./code";
import { builtinHouseholdTasks, householdEnvironment, importHouseholdTaskSet } from "./household";
import { builtinQaTasks, loadHotpotQa, qaEnvironment } from "./qa";
import { builtinOpenTasks, loadOpenTasks, openEnvironment } from "./open";

/** A task family with its built-in tasks and its importer for standard dataset files. */
export interface EnvironmentEntry {
  family: EnvironmentFamily<unknown>;
  /** Shown in pickers. */
  label: string;
  /** Tasks written by us and shipped with the app, as JSON snapshots. */
  builtinTasks: ReadonlyArray<Record<string, unknown>>;
  /** The standard formats this family imports, for help texts. */
  importFormats: string;
  /**
   * The family's Evaluator also reports hidden tests besides the ones the agent sees (internal
   * tests), so a false positive — internal pass, hidden fail — is measurable (paper §4.3).
   */
  hiddenTests: boolean;
  /**
   * Parses a dataset file. Broken records are reported in `problems` and the rest
   * load; an unreadable file throws AppError("invalid-dataset").
   */
  importTaskSet(content: string): { tasks: Array<Record<string, unknown>>; problems: string[] };
}

const entries: Partial<Record<EnvironmentId, EnvironmentEntry>> = {
  qa: {
    family: qaEnvironment as EnvironmentFamily<unknown>,
    label: "Multi-hop QA (HotpotQA style)",
    builtinTasks: builtinQaTasks,
    importFormats: "HotpotQA JSON (distractor setting: question, answer, supporting_facts, context)",
    hiddenTests: false,
    importTaskSet: (content) => loadHotpotQa(content),
  },
  code: {
    // Model-written code runs only in the shared sandbox pool (lib/sandbox), created on the first code run.
    family: createCodeEnvironment({ sandbox: sharedSandbox }) as EnvironmentFamily<unknown>,
    label: "Code (HumanEval / MBPP style, Python and JavaScript/TypeScript)",
    builtinTasks: builtinCodeTasks as ReadonlyArray<Record<string, unknown>>,
    importFormats:
      "JSON Lines or a JSON array (optionally .gz): HumanEval (task_id, prompt, canonical_solution, test, entry_point), MBPP (task_id, text, code, test_list, test_setup_code), MultiPL-E JS/TS (name, language, prompt, tests), HumanEval-X JavaScript (task_id, prompt, canonical_solution, test, declaration)",
    hiddenTests: true,
    importTaskSet: (content) => loadCodeTasks(content) as { tasks: Array<Record<string, unknown>>; problems: string[] },
  },
  household: {
    family: householdEnvironment as EnvironmentFamily<unknown>,
    label: "Household (ALFWorld-style text world)",
    builtinTasks: builtinHouseholdTasks,
    importFormats: "a JSON array of household tasks in this app's scene format (see docs/decisions/0007-household-world.md)",
    hiddenTests: false,
    importTaskSet: (content) => importHouseholdTaskSet(content),
  },
  open: {
    family: openEnvironment as EnvironmentFamily<unknown>,
    label: "Open tasks (LLM judge)",
    builtinTasks: builtinOpenTasks,
    importFormats: "a JSON array (or JSON Lines) of open tasks: id, prompt, optional title and referenceNotes, rubric { criteria: [{ id, description, weight }], passThreshold 0–1 } (see docs/decisions/0025-llm-judge-open-tasks.md)",
    hiddenTests: false,
    importTaskSet: (content) => loadOpenTasks(content),
  },
};

/**
 * The registered environment family for `id`.
 * @throws AppError("invalid-input") for a family that is not implemented yet.
 */
export function environmentEntry(id: string): EnvironmentEntry {
  const entry = entries[id as EnvironmentId];
  if (!entry) {
    throw new AppError("invalid-input", `Unknown task family "${id}". Available: ${availableEnvironments().join(", ")}.`);
  }
  return entry;
}

/** Ids of the families that are available. */
export function availableEnvironments(): EnvironmentId[] {
  return Object.keys(entries) as EnvironmentId[];
}
