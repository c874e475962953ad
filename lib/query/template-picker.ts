import type { EnvironmentId, Strategy } from "@/lib/domain/config";
import type { TemplateListItem, TemplateVersionChoice } from "@/lib/domain/template-library";

/**
 * The options of a template version picker (new-run form, experiment arms,
 * fork dialog): for one family × role × strategy, each library template's
 * newest version and the versions its labels point at, as version ids (so a
 * run pins the exact text even if a label moves later). Pure.
 */

/** One option of the picker. `versionId` is what the request sends. */
export interface VersionOption {
  versionId: string;
  templateId: string;
  /** e.g. "My reflector — v3 (latest, candidate)". */
  label: string;
  builtIn: boolean;
}

/** Whether a template can fill a run of `strategy`: made for that strategy, or for any (null). */
export function templateFitsStrategy(template: Pick<TemplateListItem, "strategy">, strategy: Strategy): boolean {
  return template.strategy === null || template.strategy === strategy;
}

/**
 * The picker's options for `role` of `family` under `strategy`, built-ins
 * first then by name; within a template, latest first then its labels'
 * versions (a version named by several labels appears once).
 */
export function versionOptions(
  templates: readonly TemplateListItem[],
  family: EnvironmentId,
  role: "actor" | "reflector",
  strategy: Strategy,
): VersionOption[] {
  const fitting = templates
    .filter((template) => template.family === family && template.role === role && templateFitsStrategy(template, strategy))
    .sort((a, b) => Number(b.builtIn) - Number(a.builtIn) || a.name.localeCompare(b.name));
  const options: VersionOption[] = [];
  for (const template of fitting) {
    const names = new Map<string, string[]>();
    names.set(template.latestVersion.id, ["latest"]);
    for (const [label, versionId] of Object.entries(template.labels).sort(([a], [b]) => a.localeCompare(b))) names.set(versionId, [...(names.get(versionId) ?? []), label]);
    for (const [versionId, labels] of names) {
      const number = versionId === template.latestVersion.id ? `v${template.latestVersion.number} ` : "";
      options.push({
        versionId,
        templateId: template.id,
        label: `${template.name}${template.builtIn ? " (built-in)" : ""} — ${number}(${labels.join(", ")})`,
        builtIn: template.builtIn,
      });
    }
  }
  return options;
}

/** The request's `templateVersions` from the picked ids (empty picks dropped); undefined when nothing was picked (the family's built-ins). */
export function templateVersionsRequest(choice: Partial<Record<"actor" | "reflector", string | null>>): TemplateVersionChoice | undefined {
  const result: TemplateVersionChoice = {};
  if (choice.actor) result.actor = choice.actor;
  if (choice.reflector) result.reflector = choice.reflector;
  return Object.keys(result).length > 0 ? result : undefined;
}
