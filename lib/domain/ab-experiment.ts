import type { Arm, ExperimentRecord } from "./experiment";

/**
 * The role an experiment compares, when it is an A/B one ("Compare versions"): two
 * arms equal in everything but one role's template version; null for any other experiment.
 * Pure: the server's read-out (`GET /api/experiments/:id/ab`) and the results page (which asks
 * for the read-out only when this is not null) decide alike.
 */
export function comparedRole(record: Pick<ExperimentRecord, "definition">): "actor" | "reflector" | null {
  const arms = record.definition.arms;
  if (arms.length !== 2) return null;
  const [a, b] = arms as [Arm, Arm];
  const rest = (arm: Arm) => JSON.stringify({ ...arm, label: "", templateVersions: undefined });
  if (rest(a) !== rest(b)) return null;
  const differs = (["actor", "reflector"] as const).filter((role) => a.templateVersions?.[role] !== b.templateVersions?.[role]);
  if (differs.length !== 1) return null;
  const role = differs[0]!;
  return a.templateVersions?.[role] && b.templateVersions?.[role] ? role : null;
}
