import { Option } from "commander";
import { defaultFamilyId, familyIds } from "@/lib/environments/descriptors";
import { environmentEntry, runnableEnvironments } from "@/lib/environments/registry";

/**
 * Per-family defaults for CLI help texts, read from the registered families (so a new family shows
 * up without an edit here): "qa 6, household 30, code always 4".
 */
export function stepDefaultsHelp(): string {
  return runnableEnvironments()
    .map((id) => {
      const family = environmentEntry(id).family;
      return family.fixedStepsPerTrial ? `${id}: always ${family.fixedStepsPerTrial}` : `${id} ${family.defaultMaxStepsPerTrial ?? 6}`;
    })
    .join(", ");
}

/** The families whose default memory window Ω differs from the app's 3: "code 1". Empty when none does. */
export function memoryWindowDefaultsHelp(): string {
  return runnableEnvironments()
    .flatMap((id) => {
      const window = environmentEntry(id).family.defaultMemoryWindow;
      return window === undefined || window === 3 ? [] : [`${id} ${window ?? "unbounded"}`];
    })
    .join(", ");
}

/** What `--tasks` takes: "builtin", or a dataset file in one of the family's formats (each descriptor's `importFormats`). */
export function tasksHelp(): string {
  return `"builtin", or a dataset file in the family's format (${runnableEnvironments().map((id) => `${id}: ${environmentEntry(id).importFormats}`).join("; ")})`;
}

/** The `--env <family>` option of every command that takes a family: the registered ones, the first in family order by default. */
export function familyOption(): Option {
  return new Option("--env <family>", `task family: ${familyIds().join(", ")}`).default(defaultFamilyId());
}
