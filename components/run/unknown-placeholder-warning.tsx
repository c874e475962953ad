import { Notice } from "@/components/ui/notice";
import { likelyMeant, unknownPlaceholders } from "@/lib/domain/template-check";

const slot = (name: string) => `{${name}}`;

// The placeholder rules live in lib/domain/template-check.ts (the server refuses with the same ones).
export { likelyMeant, unknownPlaceholders };

/**
 * Warns about `{name}`s in a template that the run's family does not fill (a
 * typo such as `{memroy}`, or a name such as `{hidden_tests}` that no prompt
 * ever gets). The server refuses such a text unless it is saved with `allowUnknown` (the
 * Steer tab's "Save anyway"). Renders
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
