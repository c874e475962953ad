/** What names a compared run: its strategy's display name, model, experiment arm and the templates it used. */
export interface CompareNameInput {
  /** The strategy's display name ("Reflexion", "ReAct only", …). */
  strategy: string;
  modelId: string;
  /** The experiment arm's label when the run belongs to one (e.g. "A"), else null. */
  arm: string | null;
  /** The Actor's and Self-Reflection's templates in force at run start (id and version), when known. */
  templates: Partial<Record<"actor" | "reflector", { id: string; version: number } | undefined>>;
}

const ROLE_WORD = { actor: "Actor", reflector: "reflector" } as const;

/**
 * Column headings for runs compared side by side: the arm label first when the
 * run belongs to an experiment arm ("A · Reflexion"), the model when the runs'
 * models differ, and the template version for each role whose template
 * differs between the runs ("reflector qa/reflect v2"), so two runs of one
 * strategy that differ only in a template are told apart. Names still equal
 * after that get "#1", "#2" … in the given order.
 */
export function compareRunNames(runs: readonly CompareNameInput[]): string[] {
  const differs = (key: (run: CompareNameInput) => string) => new Set(runs.map(key)).size > 1;
  const showModel = differs((run) => run.modelId);
  const roles = (["actor", "reflector"] as const).filter((role) => differs((run) => templateKey(run, role)));
  const names = runs.map((run) => {
    const parts = [run.arm ? `${run.arm} · ${run.strategy}` : run.strategy];
    if (showModel) parts.push(run.modelId);
    for (const role of roles) {
      const template = run.templates[role];
      parts.push(template ? `${ROLE_WORD[role]} ${template.id} v${template.version}` : `${ROLE_WORD[role]} default`);
    }
    return parts.join(" · ");
  });
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  const seen = new Map<string, number>();
  return names.map((name) => {
    if ((counts.get(name) ?? 0) < 2) return name;
    const index = (seen.get(name) ?? 0) + 1;
    seen.set(name, index);
    return `${name} #${index}`;
  });
}

function templateKey(run: CompareNameInput, role: "actor" | "reflector"): string {
  const template = run.templates[role];
  return template ? `${template.id}@${template.version}` : "";
}
