import type { EnvironmentId } from "@/lib/domain/config";
import type { EnvironmentFamily } from "@/lib/domain/environment";
import type { KeyFact } from "@/lib/domain/key-facts";
import { AppError } from "@/lib/domain/errors";
import { sharedSandbox } from "@/lib/sandbox/shared-pool";
import { builtinCodeTasks, createCodeEnvironment, loadCodeTasks } from "./code";
import { builtinCodeKeyFacts } from "./code/builtin-key-facts";
import { builtinHouseholdKeyFacts } from "./household/builtin-key-facts";
import { qaDemoKeyFacts } from "./qa/builtin-key-facts";
import { builtinHouseholdTasks, householdEnvironment, importHouseholdTaskSet } from "./household";
import { builtinQaTasks, loadHotpotQa, qaEnvironment } from "./qa";
import { builtinOpenTasks, loadOpenTasks, openEnvironment } from "./open";
import { familyDescriptor, type FamilyDescriptor } from "./descriptors";

/**
 * A task family with its built-in tasks and its importer for standard dataset files: the family's
 * descriptor (lib/environments/descriptors.ts) plus its server parts.
 */
export interface EnvironmentEntry {
  family: EnvironmentFamily<unknown>;
  /** The family's pure description, shared with the client. */
  descriptor: FamilyDescriptor;
  /** Shown in pickers (the descriptor's label). */
  label: string;
  /** Tasks written by us and shipped with the app, as JSON snapshots. */
  builtinTasks: ReadonlyArray<Record<string, unknown>>;
  /** The standard formats this family imports, for help texts (the descriptor's). */
  importFormats: string;
  /**
   * The family's Evaluator also reports hidden tests besides the ones the agent sees (internal
   * tests), so a false positive — internal pass, hidden fail — is measurable (paper §4.3). The descriptor's.
   */
  hiddenTests: boolean;
  /**
   * Parses a dataset file. Broken records are reported in `problems` and the rest
   * load; an unreadable file throws AppError("invalid-dataset").
   */
  importTaskSet(content: string): { tasks: Array<Record<string, unknown>>; problems: string[] };
  /**
   * The key facts a reflection on built-in task `taskId` must state for the demo model's Actor to
   * take the informed path (decision 0022); `chainOfThought`: the run's strategy is a CoT Actor's,
   * whose lessons may differ. Null when the demo model has no key facts for the task (an uploaded
   * task, or a family whose demo lessons are not key facts).
   */
  demoKeyFacts(taskId: string, chainOfThought: boolean): readonly KeyFact[] | null;
}

/** The server parts of a family; label, formats and flags come from its descriptor. */
type ServerParts = Pick<EnvironmentEntry, "family" | "builtinTasks" | "importTaskSet" | "demoKeyFacts">;

/** An entry of the server registry: `id`'s descriptor plus its server parts. */
function entryOf(id: EnvironmentId, parts: ServerParts): EnvironmentEntry {
  const descriptor = familyDescriptor(id);
  return { ...parts, descriptor, label: descriptor.label, importFormats: descriptor.importFormats, hiddenTests: descriptor.hiddenTests };
}

const entries: Partial<Record<EnvironmentId, EnvironmentEntry>> = {
  qa: entryOf("qa", {
    family: qaEnvironment as EnvironmentFamily<unknown>,
    builtinTasks: builtinQaTasks,
    importTaskSet: (content) => loadHotpotQa(content),
    demoKeyFacts: qaDemoKeyFacts,
  }),
  code: entryOf("code", {
    // Model-written code runs only in the shared sandbox pool (lib/sandbox), created on the first code run.
    family: createCodeEnvironment({ sandbox: sharedSandbox }) as EnvironmentFamily<unknown>,
    builtinTasks: builtinCodeTasks as ReadonlyArray<Record<string, unknown>>,
    importTaskSet: (content) => loadCodeTasks(content) as { tasks: Array<Record<string, unknown>>; problems: string[] },
    demoKeyFacts: (taskId) => builtinCodeKeyFacts[taskId] ?? null,
  }),
  household: entryOf("household", {
    family: householdEnvironment as EnvironmentFamily<unknown>,
    builtinTasks: builtinHouseholdTasks,
    importTaskSet: (content) => importHouseholdTaskSet(content),
    demoKeyFacts: (taskId) => builtinHouseholdKeyFacts[taskId] ?? null,
  }),
  open: entryOf("open", {
    family: openEnvironment as EnvironmentFamily<unknown>,
    builtinTasks: builtinOpenTasks,
    importTaskSet: (content) => loadOpenTasks(content),
    // Open tasks' demo lessons are keywords in ./open/builtin-demo-scripts.ts, not key facts.
    demoKeyFacts: () => null,
  }),
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
