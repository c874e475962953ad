import type { EnvironmentId, Strategy } from "@/lib/domain/config";
import type { PairedTest, Template, TemplateListItem, TemplateRole, TemplateVersion } from "@/lib/domain/template-library";
import { pValueText } from "@/lib/domain/stats/p-value";
import { FAMILY_DESCRIPTORS, findFamilyDescriptor } from "@/lib/environments/descriptors";

/**
 * View models of the template library pages (lists, version history, labels,
 * the A/B paired-test line). Pure; the shapes are the contract's
 * (lib/domain/template-library.ts).
 */

/** Display names of the roles a template fills. */
export const TEMPLATE_ROLE_NAME: Record<TemplateRole, string> = {
  actor: "Actor",
  reflector: "Self-Reflection",
  summarizer: "Memory summariser",
  evaluator: "Judge",
  optimiser: "Optimiser meta-prompt",
  value: "LATS value prompt",
};

/** A family's place in the library's order (its descriptor's `order`); an unknown family sorts last. */
function familyOrder(family: string): number {
  return findFamilyDescriptor(family)?.order ?? FAMILY_DESCRIPTORS.length;
}

const ROLE_ORDER: Record<TemplateRole, number> = { actor: 0, reflector: 1, summarizer: 2, evaluator: 3, optimiser: 4, value: 5 };

/** One row group of the library page: the templates of one family × role × strategy. */
export interface TemplateGroup {
  key: string;
  family: EnvironmentId;
  role: TemplateRole;
  /** null: any strategy that uses the family's default templates. */
  strategy: Strategy | null;
  /** Built-ins first, then by name. */
  templates: TemplateListItem[];
}

/**
 * The library's templates grouped by family × role × strategy, in family order
 * (QA, household, code), then role (Actor, Self-Reflection, summariser), then
 * strategy (the any-strategy group first, then by name).
 */
export function groupTemplates(items: readonly TemplateListItem[]): TemplateGroup[] {
  const groups = new Map<string, TemplateGroup>();
  for (const item of items) {
    const key = `${item.family}/${item.role}/${item.strategy ?? "*"}`;
    const group = groups.get(key) ?? { key, family: item.family, role: item.role, strategy: item.strategy, templates: [] };
    group.templates.push(item);
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    group.templates.sort((a, b) => Number(b.builtIn) - Number(a.builtIn) || a.name.localeCompare(b.name));
  }
  return [...groups.values()].sort(
    (a, b) =>
      familyOrder(a.family) - familyOrder(b.family) ||
      ROLE_ORDER[a.role] - ROLE_ORDER[b.role] ||
      (a.strategy ?? "").localeCompare(b.strategy ?? ""),
  );
}

/** The labels pointing at each version (version id → label names, sorted). `latest` is implicit and not included. */
export function labelsByVersion(template: Pick<Template, "labels">): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const [label, versionId] of Object.entries(template.labels)) map.set(versionId, [...(map.get(versionId) ?? []), label].sort());
  return map;
}

/** "v3", with the labels pointing at it: "v3 · baseline, candidate"; "(latest)" for the newest. */
export function versionTitle(version: Pick<TemplateVersion, "id" | "number">, template: Pick<Template, "labels">, newestNumber?: number): string {
  const labels = labelsByVersion(template).get(version.id) ?? [];
  const latest = newestNumber !== undefined && version.number === newestNumber ? ["latest"] : [];
  const names = [...labels, ...latest];
  return names.length > 0 ? `v${version.number} · ${names.join(", ")}` : `v${version.number}`;
}

/**
 * The version to diff a template against by default: its parent lineage's
 * origin outside the template (the built-in it was created from, by the first
 * version's `parentId`), else — for a built-in template — its first version.
 * `versions` newest first, as the detail route sends them. Null when there is
 * nothing to compare with.
 */
export function baseVersionRef(template: Pick<Template, "builtIn">, versions: readonly Pick<TemplateVersion, "id" | "parentId" | "number">[]): string | null {
  const first = versions.reduce<(typeof versions)[number] | null>((oldest, version) => (oldest === null || version.number < oldest.number ? version : oldest), null);
  if (!first) return null;
  if (first.parentId && !versions.some((version) => version.id === first.parentId)) return first.parentId;
  return template.builtIn || versions.length > 1 ? first.id : null;
}

/**
 * The built-in template a template of the library stands beside: the
 * built-in of the same family × role × strategy (else of the same family ×
 * role for any strategy); null for a built-in itself or when none exists.
 * The fallback base for a diff or an A/B when the template's first version
 * names no parent (a template made from another one may start its own history).
 */
export function builtInCounterpart<T extends Pick<TemplateListItem, "id" | "family" | "role" | "strategy" | "builtIn">>(
  items: readonly T[],
  template: Pick<Template, "id" | "family" | "role" | "strategy" | "builtIn">,
): T | null {
  if (template.builtIn) return null;
  const candidates = items.filter((item) => item.builtIn && item.id !== template.id && item.family === template.family && item.role === template.role);
  return candidates.find((item) => item.strategy === template.strategy) ?? candidates.find((item) => item.strategy === null) ?? null;
}

/** A short, honest reading of a paired test over tasks, with the sample size and the discordant counts. */
export function pairedTestSentence(test: PairedTest, labels: { a: string; b: string } = { a: "A", b: "B" }): string {
  const tasks = `n = ${test.n} ${test.n === 1 ? "task" : "tasks"}`;
  const discordant = `${test.aOnly} vs ${test.bOnly} discordant (solved by ${labels.a} only vs ${labels.b} only)`;
  const p = pValueText(test.pValue);
  return `${tasks}, ${discordant}, ${p}: ${pairedTestVerdict(test, labels)}`;
}

/** The verdict part of {@link pairedTestSentence}: a difference is called evidence only at p < 0.05. */
export function pairedTestVerdict(test: PairedTest, labels: { a: string; b: string } = { a: "A", b: "B" }): string {
  if (test.n === 0) return "no task has ended in both arms yet";
  if (test.aOnly + test.bOnly === 0) return "the arms solved the same tasks; no difference to test";
  if (test.pValue < 0.05) return `evidence that ${test.aOnly > test.bOnly ? labels.a : labels.b} solves more tasks (at the 5% level)`;
  return test.aOnly + test.bOnly < 6
    ? "no evidence of a difference (too few tasks differ to tell; run more tasks)"
    : "no evidence of a difference";
}

/** A p-value in two significant digits ("0.62", "0.031"), "< 0.001" below that. */
export function formatP(p: number): string {
  if (p < 0.001) return "< 0.001";
  if (p >= 0.995) return "1";
  return String(Number(p.toPrecision(2)));
}

/** "solved at trial 2" / "not solved". */
export function solvedText(solvedAtTrial: number | null): string {
  return solvedAtTrial === null ? "not solved" : `solved at trial ${solvedAtTrial}`;
}
