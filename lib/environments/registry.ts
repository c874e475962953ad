import { insightsDemoBook } from "@/lib/domain/insights-demo";
import type { EnvironmentId } from "@/lib/domain/config";
import type { EnvironmentFamily } from "@/lib/domain/environment";
import type { KeyFact } from "@/lib/domain/key-facts";
import { AppError } from "@/lib/domain/errors";
import type { DemoScriptBook } from "@/lib/domain/demo-script";
import { latsValueDemoBook } from "@/lib/domain/lats-value";
import { traceReflectionDemoBook } from "@/lib/domain/trace-reflection-demo";
import { codeDemoScriptBook } from "./code/demo-script";
import { householdDemoScriptBook } from "./household/demo-script";
import { openDemoScriptBook } from "./open/demo-script";
import { qaDemoScriptBook } from "./qa/demo-script";
import { builtinCodeTasks, createCodeEnvironment, loadCodeTasks, type CodeSandbox } from "./code";
import { builtinCodeKeyFacts } from "./code/builtin-key-facts";
import { builtinHouseholdKeyFacts } from "./household/builtin-key-facts";
import { qaDemoKeyFacts } from "./qa/builtin-key-facts";
import { builtinHouseholdTasks, householdEnvironment, importHouseholdTaskSet } from "./household";
import { builtinQaTasks, loadHotpotQa, qaEnvironment } from "./qa";
import { builtinOpenTasks, loadOpenTasks, openEnvironment } from "./open";
import { builtinExternalTasks, externalEnvironment, EXTERNAL_NO_TASK_SET } from "./external";
import { familyDescriptor, familyIds, registerFamilyDescriptor, type FamilyDescriptor } from "./descriptors";

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
  /** What the offline demo model (a scripted stand-in) answers on this family's built-in tasks; null: no scripts. */
  demoScriptBook: DemoScriptBook | null;
}

/** The server parts of a family; label, formats and flags come from its descriptor. */
export type FamilyServerParts = Pick<EnvironmentEntry, "family" | "builtinTasks" | "importTaskSet" | "demoKeyFacts" | "demoScriptBook">;

/** An entry of the server registry: `id`'s descriptor plus its server parts. */
function entryOf(id: EnvironmentId, parts: FamilyServerParts): EnvironmentEntry {
  const descriptor = familyDescriptor(id);
  return { ...parts, descriptor, label: descriptor.label, importFormats: descriptor.importFormats, hiddenTests: descriptor.hiddenTests };
}

let providedSandbox: CodeSandbox | null = null;

/**
 * Gives the registry the sandbox that runs model-written code. The composition root
 * (lib/server/app-context.ts) provides the process's shared pool, so the registry imports no
 * sandbox of its own.
 */
export function provideSandbox(sandbox: CodeSandbox): void {
  providedSandbox = sandbox;
}

/** The code family's sandbox port: the provided sandbox, read at each request. */
const sandboxFromRoot: CodeSandbox = {
  runTests(request) {
    if (!providedSandbox) throw new Error("No sandbox was provided for model-written code: create a server context (lib/server/app-context.ts), which provides the shared pool.");
    return providedSandbox.runTests(request);
  },
};

/** The built-in families' server parts, by id (their descriptors are in ./descriptors.ts). */
const BUILT_IN_PARTS: ReadonlyArray<readonly [string, FamilyServerParts]> = [
  [
    "qa",
    {
      family: qaEnvironment as EnvironmentFamily<unknown>,
      builtinTasks: builtinQaTasks,
      importTaskSet: (content) => loadHotpotQa(content),
      demoKeyFacts: qaDemoKeyFacts,
      demoScriptBook: qaDemoScriptBook,
    },
  ],
  [
    "code",
    {
      // Model-written code runs only in the sandbox the composition root provides (lib/sandbox's shared pool).
      family: createCodeEnvironment({ sandbox: sandboxFromRoot }) as EnvironmentFamily<unknown>,
      builtinTasks: builtinCodeTasks as ReadonlyArray<Record<string, unknown>>,
      importTaskSet: (content) => loadCodeTasks(content) as { tasks: Array<Record<string, unknown>>; problems: string[] },
      demoKeyFacts: (taskId) => builtinCodeKeyFacts[taskId] ?? null,
      demoScriptBook: codeDemoScriptBook,
    },
  ],
  [
    "household",
    {
      family: householdEnvironment as EnvironmentFamily<unknown>,
      builtinTasks: builtinHouseholdTasks,
      importTaskSet: (content) => importHouseholdTaskSet(content),
      demoKeyFacts: (taskId) => builtinHouseholdKeyFacts[taskId] ?? null,
      demoScriptBook: householdDemoScriptBook,
    },
  ],
  [
    "open",
    {
      family: openEnvironment as EnvironmentFamily<unknown>,
      builtinTasks: builtinOpenTasks,
      importTaskSet: (content) => loadOpenTasks(content),
      // Open tasks' demo lessons are keywords in ./open/builtin-demo-scripts.ts, not key facts.
      demoKeyFacts: () => null,
      demoScriptBook: openDemoScriptBook,
    },
  ],
  [
    "external",
    {
      // Runs of this family are only imported (lib/importers/external/): no task files, no demo scripts; the one built-in task is a sample for the template library.
      family: externalEnvironment as EnvironmentFamily<unknown>,
      builtinTasks: builtinExternalTasks,
      importTaskSet: () => {
        throw new AppError("invalid-input", EXTERNAL_NO_TASK_SET);
      },
      demoKeyFacts: () => null,
      demoScriptBook: null,
    },
  ],
];

const entries = new Map<string, EnvironmentEntry>();

/**
 * Adds `id`'s entry.
 * @throws Error when `id` has an entry already, or when `parts.family.id` is not `id`.
 */
function addEntry(id: string, parts: FamilyServerParts): void {
  if (entries.has(id)) throw new Error(`Task family "${id}" is already registered.`);
  if (parts.family.id !== id) throw new Error(`Task family "${id}": its EnvironmentFamily says id "${parts.family.id}".`);
  entries.set(id, entryOf(id, parts));
}

for (const [id, parts] of BUILT_IN_PARTS) addEntry(id, parts);

/**
 * Registers a family defined outside this file: its descriptor goes to the client registry and
 * its server parts here, so every service, form and projection finds it by id. One call per
 * family (docs/adding-a-family.md; the test suite registers a toy family this way).
 * @throws Error when the id is already registered or the descriptor's order is taken, or when
 *   `parts.family.id` is not the descriptor's id.
 */
export function registerFamily(descriptor: FamilyDescriptor, parts: FamilyServerParts): void {
  if (parts.family.id !== descriptor.id) throw new Error(`Task family "${descriptor.id}": its EnvironmentFamily says id "${parts.family.id}".`);
  if (entries.has(descriptor.id)) throw new Error(`Task family "${descriptor.id}" is already registered.`);
  registerFamilyDescriptor(descriptor);
  addEntry(descriptor.id, parts);
}

/**
 * The registered environment family for `id`.
 * @throws AppError("invalid-input") for a family that is not implemented yet.
 */
export function environmentEntry(id: string): EnvironmentEntry {
  const entry = entries.get(id);
  if (!entry) {
    throw new AppError("invalid-input", `Unknown task family "${id}". Available: ${availableEnvironments().join(", ")}.`);
  }
  return entry;
}

/** The demo model's script books of every registered family that has one, in registry order. */
export function demoScriptBooks(): DemoScriptBook[] {
  // The LATS value prompt's and ExpeL extraction prompt's scripted answers come first: each is recognised by its own ending, whatever the family.
  return [latsValueDemoBook, insightsDemoBook, traceReflectionDemoBook, ...[...entries.values()].flatMap((entry) => (entry.demoScriptBook ? [entry.demoScriptBook] : []))];
}

/** Ids of the families a new run can be started in (not those whose runs are only imported), in family order. */
export function runnableEnvironments(): EnvironmentId[] {
  return availableEnvironments().filter((id) => !familyDescriptor(id).runsImportedOnly);
}

/** Ids of the families that are available, in family order (the descriptors' `order`). */
export function availableEnvironments(): EnvironmentId[] {
  return familyIds().filter((id) => entries.has(id));
}
