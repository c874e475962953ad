import { comparedRole } from "@/lib/domain/ab-experiment";
import type { ExperimentRecord } from "@/lib/domain/experiment";
import type { Template, TemplateListItem, TemplateVersion, VersionDetailResponse } from "@/lib/domain/template-library";

/**
 * The "Compare versions (A/B)" form's choices and checks. Pure.
 */

/** A version arm A can use. */
export interface AbOption {
  versionId: string;
  /** For the select, e.g. "Built-in: HotpotQA reflector v1". */
  label: string;
  /** For the arm label, e.g. "HotpotQA reflector v1". */
  short: string;
}

/**
 * The versions to compare the editor's version with, best first: the built-in
 * the template was made from, the template's other versions (newest first),
 * then the newest version of each other template of the same family and role.
 * Never the current version itself; each version once.
 */
export function abOtherOptions(input: {
  template: Pick<Template, "id" | "name">;
  versions: readonly TemplateVersion[];
  current: Pick<TemplateVersion, "id">;
  base: VersionDetailResponse | null;
  library: readonly TemplateListItem[];
}): AbOption[] {
  const options: AbOption[] = [];
  const seen = new Set<string>([input.current.id]);
  const add = (option: AbOption) => {
    if (seen.has(option.versionId)) return;
    seen.add(option.versionId);
    options.push(option);
  };
  if (input.base) {
    const short = `${input.base.template.name} v${input.base.version.number}`;
    add({ versionId: input.base.version.id, label: `${input.base.template.builtIn ? "Built-in" : "Made from"}: ${short}`, short });
  }
  for (const version of input.versions) {
    const short = `${input.template.name} v${version.number}`;
    add({ versionId: version.id, label: `This template: v${version.number}${version.message ? ` — ${version.message.slice(0, 50)}` : ""}`, short });
  }
  const others = [...input.library].filter((item) => item.id !== input.template.id).sort((a, b) => Number(b.builtIn) - Number(a.builtIn) || a.name.localeCompare(b.name));
  for (const item of others) {
    const short = `${item.name} v${item.latestVersion.number}`;
    add({ versionId: item.latestVersion.id, label: `${item.builtIn ? "Built-in" : "Other template"}: ${short}`, short });
    // Labelled versions too (e.g. `accepted`, `candidate`): the ones people named are the ones they compare.
    for (const [label, versionId] of Object.entries(item.labels).sort(([a], [b]) => a.localeCompare(b))) {
      const labelled = `${item.name} @${label}`;
      add({ versionId, label: `${item.builtIn ? "Built-in" : "Other template"}: ${labelled}`, short: labelled });
    }
  }
  return options;
}

/** The first reason the A/B cannot start yet, in words that say what to do; null when it can. */
export function abProblem(input: { other: string; current: string; dirty: boolean; taskCount: number; trials: number; modelId: string }): string | null {
  if (input.dirty) return "The editor has unsaved changes: save them as a version first (an A/B compares saved versions, so the runs can name them).";
  if (!input.other) return "Pick the version to compare with (save another version, or start from a built-in).";
  if (input.other === input.current) return "A and B are the same version: pick another one for A.";
  if (input.taskCount === 0) return "Tick at least one task.";
  if (!Number.isInteger(input.trials) || input.trials < 1 || input.trials > 50) return "Max trials is a whole number from 1 to 50.";
  if (!input.modelId) return "Pick a model (the model list has not loaded yet).";
  return null;
}

/**
 * Whether the results page should show (and fetch) the A/B read-out: only for an A/B template
 * comparison (lib/domain/ab-experiment.ts), so other experiments make no `GET …/ab` that answers 404.
 */
export function isAbExperiment(experiment: Pick<ExperimentRecord, "definition">): boolean {
  return comparedRole(experiment) !== null;
}
