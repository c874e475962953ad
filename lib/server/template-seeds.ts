import type { EnvironmentId, PromptTemplate, Strategy } from "@/lib/domain/config";
import type { Template, TemplateRole } from "@/lib/domain/template-library";
import { supportedStrategiesOf } from "@/lib/domain/strategies";
import { availableEnvironments, environmentEntry } from "@/lib/environments/registry";
import { builtInSummarizer, builtInValueTemplate } from "./run-config-factory";
import { BUILT_IN_META_PROMPT, metaPromptTemplateId } from "@/lib/domain/optimiser/meta-prompt";

/**
 * The built-in templates of the library: every family's default
 * Actor and Self-Reflection templates, the strategy-specific ones
 * (`templatesFor`, e.g. QA's chain-of-thought pair) and the memory summariser,
 * each with its text as shipped in the code and where the text comes from.
 */
export interface TemplateSeed {
  template: Omit<Template, "createdAt" | "labels">;
  text: string;
}

const ROLE_NAMES: Record<TemplateRole, string> = {
  actor: "Actor",
  reflector: "Self-Reflection",
  summarizer: "Memory summariser",
  evaluator: "Judge",
  optimiser: "Optimiser meta-prompt",
  value: "LATS value prompt",
};

/** Every built-in template with its current text, in a stable order (family, then role, defaults before strategy-specific ones). */
export function builtInSeeds(): TemplateSeed[] {
  const seeds: TemplateSeed[] = [];
  const seen = new Set<string>();
  const add = (family: EnvironmentId, role: TemplateRole, strategy: Strategy | null, prompt: PromptTemplate, source: string): void => {
    if (seen.has(prompt.id)) return;
    seen.add(prompt.id);
    const label = environmentEntry(family).descriptor.shortLabel;
    const name = `${label} ${ROLE_NAMES[role]}${strategy ? ` (${strategy})` : ""}`;
    seeds.push({ template: { id: prompt.id, name, family, role, strategy, builtIn: true, source }, text: prompt.text });
  };
  for (const family of availableEnvironments()) {
    const entry = environmentEntry(family);
    const defaults = entry.family.defaultTemplates;
    add(family, "actor", null, { ...defaults.actor }, entry.descriptor.templateSource);
    add(family, "reflector", null, { ...defaults.reflector }, entry.descriptor.templateSource);
    for (const strategy of supportedStrategiesOf(entry.family)) {
      const own = entry.family.templatesFor?.(strategy);
      if (!own) continue;
      if (own.actor.id !== defaults.actor.id) add(family, "actor", strategy, { ...own.actor }, entry.descriptor.templateSource);
      if (own.reflector.id !== defaults.reflector.id) add(family, "reflector", strategy, { ...own.reflector }, entry.descriptor.templateSource);
    }
    add(family, "summarizer", null, builtInSummarizer(family), "ours (summarise old reflections when memory grows): lib/domain/memory-summary.ts");
    // A family whose Evaluator is a model ships its judge template.
    const judge = entry.family.defaultJudgeTemplate;
    if (entry.family.evaluatorUsesModel && judge) add(family, "evaluator", null, { ...judge }, entry.descriptor.templateSource);
    add(family, "value", null, builtInValueTemplate(family), "ours, after the LATS value prompt's ending (Zhou et al. 2024, §4 'Evaluation'): lib/domain/lats-value.ts");
    add(family, "optimiser", null, { id: metaPromptTemplateId(family), version: 1, text: BUILT_IN_META_PROMPT }, "ours, after GEPA's reflective mutation (Agrawal et al. 2025; none of its wording): lib/domain/optimiser/meta-prompt.ts");
  }
  return seeds;
}
