import { Notice } from "@/components/ui/notice";

const slot = (name: string) => `{${name}}`;

/** Edit distance between two names (insertions, deletions, substitutions, adjacent swaps). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The known name an unknown one is most likely a typo of (at most two edits away, case ignored), or null. */
export function likelyMeant(name: string, known: readonly string[]): string | null {
  let best: { name: string; distance: number } | null = null;
  for (const candidate of known) {
    const d = distance(name.toLowerCase(), candidate.toLowerCase());
    if (d <= Math.min(2, Math.floor(candidate.length / 3)) && (best === null || d < best.distance)) best = { name: candidate, distance: d };
  }
  return best?.name ?? null;
}

/**
 * Placeholders of a template the engine does not fill: `renderTemplate` leaves
 * them in the prompt as literal text.
 */
export function unknownPlaceholders(placeholders: readonly string[], known: readonly string[]): string[] {
  const filled = new Set(known);
  return placeholders.filter((name) => !filled.has(name));
}

/**
 * Warns about `{name}`s in a template that the run's family does not fill (a
 * typo such as `{memroy}`, or a name such as `{hidden_tests}` that no prompt
 * ever gets). Informational: saving such a template stays allowed. Renders
 * nothing while the known names are not loaded (`known` undefined or empty).
 *
 * @param placeholders the template's placeholders (`placeholdersOf`).
 * @param known the names the engine fills for this role (`templateVariables` of `GET /api/environments`).
 */
export function UnknownPlaceholderWarning({ placeholders, known }: { placeholders: readonly string[]; known: readonly string[] | undefined }) {
  if (!known || known.length === 0) return null;
  const unknown = unknownPlaceholders(placeholders, known);
  if (unknown.length === 0) return null;
  const one = unknown.length === 1;
  const suggestions = unknown.flatMap((name) => {
    const meant = likelyMeant(name, known);
    return meant ? [`Did you mean ${slot(meant)} instead of ${slot(name)}?`] : [];
  });
  return (
    <Notice tone="warning" data-testid="unknown-placeholder-warning" className="text-xs">
      <span data-unknown={unknown.join(" ")}>
        {unknown.map(slot).join(", ")} {one ? "is not a placeholder" : "are not placeholders"} this family fills;{" "}
        {one ? "it" : "they"} will be sent to the model as literal text.
      </span>
      {suggestions.length > 0 ? ` ${suggestions.join(" ")}` : null} Known: {known.map(slot).join(", ")}.
    </Notice>
  );
}
