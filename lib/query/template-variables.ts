import { likelyMeant } from "@/lib/domain/template-check";

/**
 * What the template editor shows about a template's `{name}` placeholders:
 * where each one is (for highlighting), which ones the family does not fill
 * (markers, the same check as the Steer tab's warning: the rules of
 * `lib/domain/template-check.ts`), and which names to offer
 * after a typed `{`. Pure; offsets are UTF-16 code units like Monaco's model.
 * The placeholder syntax is the engine's (`renderTemplate`: `{name}` with a
 * letter first, then letters, digits and underscores).
 */

const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9_]*)\}/g;

/** One `{name}` in a template. */
export interface PlaceholderSpan {
  name: string;
  /** Offset of the `{`. */
  start: number;
  /** Offset just past the `}`. */
  end: number;
  /** Whether the engine fills this name for the role (else it reaches the model as literal text). */
  known: boolean;
}

/** Every `{name}` of `text`, in order, each marked known or not against `known` (the role's variable names). */
export function placeholderSpans(text: string, known: readonly string[]): PlaceholderSpan[] {
  const filled = new Set(known);
  return [...text.matchAll(PLACEHOLDER)].map((match) => ({
    name: match[1]!,
    start: match.index,
    end: match.index + match[0].length,
    known: filled.has(match[1]!),
  }));
}

/** A problem to underline in the editor. */
export interface TemplateMarker {
  start: number;
  end: number;
  message: string;
  /** The known name it is most likely a typo of, or null. */
  meant: string | null;
}

/**
 * One marker per unknown `{name}` occurrence, saying that it stays literal text
 * and, when it is at most two edits from a known name, which one was likely
 * meant. Empty while `known` is empty (the names have not loaded: nothing can be
 * called unknown yet).
 */
export function unknownVariableMarkers(text: string, known: readonly string[]): TemplateMarker[] {
  if (known.length === 0) return [];
  return placeholderSpans(text, known)
    .filter((span) => !span.known)
    .map((span) => {
      const meant = likelyMeant(span.name, known);
      const message =
        `{${span.name}} is not a placeholder this role fills: it will be sent to the model as literal text.` +
        (meant ? ` Did you mean {${meant}}?` : ` Known: ${known.map((name) => `{${name}}`).join(", ")}.`);
      return { start: span.start, end: span.end, message, meant };
    });
}

/** What to offer at the cursor: the names to complete and the offset where the typed part of the name starts. */
export interface VariableCompletion {
  /** Offset just after the `{` (the typed prefix runs from here to the cursor). */
  from: number;
  /** The typed part of the name (may be empty). */
  prefix: string;
  /** Known names starting with the prefix (case ignored), in the order given. */
  names: string[];
  /** Whether a `}` already follows the cursor (then the completion inserts only the name). */
  closed: boolean;
}

/**
 * The completion at `offset` in `text`: when the text before the cursor ends
 * with `{` and an unfinished name, the known names that start with it; null
 * otherwise (no open `{`, or nothing matches).
 */
export function variableCompletionAt(text: string, offset: number, known: readonly string[]): VariableCompletion | null {
  const before = text.slice(0, offset);
  const match = /\{([A-Za-z0-9_]*)$/.exec(before);
  if (!match) return null;
  const prefix = match[1]!;
  const needle = prefix.toLowerCase();
  const names = known.filter((name) => name.toLowerCase().startsWith(needle));
  if (names.length === 0) return null;
  return { from: offset - prefix.length, prefix, names, closed: text[offset] === "}" };
}

/** The distinct names of the known `{name}`s a template uses, in order of first use (for "uses: …" lines). */
export function usedVariables(text: string, known: readonly string[]): string[] {
  const names: string[] = [];
  for (const span of placeholderSpans(text, known)) if (span.known && !names.includes(span.name)) names.push(span.name);
  return names;
}
