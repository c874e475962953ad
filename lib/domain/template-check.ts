import { z } from "zod";
import { AppError } from "./errors";
import { editDistance } from "./edit-distance";

/**
 * The one check every prompt-template text goes through, whatever door it comes in by: the Steer
 * tab and the workbench (warnings while typing), `POST /api/runs/:id/edits`, `POST /api/templates`
 * and `…/versions` (refusals), and `cli templates save` (refusal unless `--allow-unknown`).
 *
 * A template's `{name}`s are filled by the engine (`renderTemplate` in lib/engine): a name the
 * family does not fill is sent to the model as literal text (a typo such as `{memroy}`), and a
 * required name left out leaves the model without its task or its trajectory (an Actor template
 * without `{question}`). Both are refused with the list unless the caller says `allowUnknown`.
 */

/** The largest template text accepted, in UTF-8 bytes (64 KiB: the paper's longest few-shot prompt is ~12 KB). */
export const MAX_TEMPLATE_BYTES = 64 * 1024;

const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9_]*)\}/g;

/** UTF-8 length of `text` in bytes, without encoding it (one pass over its UTF-16 units). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** The message of a template over {@link MAX_TEMPLATE_BYTES}. */
export function templateTooLargeMessage(bytes: number): string {
  // Near the limit one decimal would print "64.0 KB; the limit is 64.0 KB": say the bytes then.
  const size = bytes < MAX_TEMPLATE_BYTES * 1.1 ? `${bytes} bytes` : formatBytes(bytes);
  return `the template is ${size}; the limit is ${formatBytes(MAX_TEMPLATE_BYTES)} (${MAX_TEMPLATE_BYTES} bytes). Shorten it (fewer few-shot examples)`;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} bytes`;
}

/**
 * A template text in a request: not empty, at most {@link MAX_TEMPLATE_BYTES} UTF-8 bytes. Stored
 * events keep their own looser schema, so a run recorded before the cap still reads.
 */
export const templateTextSchema = z
  .string()
  .min(1, "a template cannot be empty")
  .superRefine((text, context) => {
    // Cheap bound first: a string of n UTF-16 units has at least n and at most 3n UTF-8 bytes.
    if (text.length <= MAX_TEMPLATE_BYTES / 3) return;
    const bytes = text.length > MAX_TEMPLATE_BYTES ? text.length : utf8Bytes(text);
    if (bytes > MAX_TEMPLATE_BYTES) context.addIssue({ code: "custom", message: templateTooLargeMessage(bytes) });
  });

/**
 * Braced names the engine would NOT fill although they were meant as placeholders: a known name
 * (or a typo of one) with spaces inside (`{ memory }`) or a field after a dot (`{memory.text}`),
 * and any name starting with `_` (`{__proto__}`). `renderTemplate` fills only `{letter…}` names,
 * so these reach the model as literal text; they are reported as unknown, as written. Code in a
 * template (`const { a } = b`, `{"a": 1}`) does not match unless it names a placeholder. One
 * linear scan.
 */
const LOOKALIKE = /\{([ \t]*[A-Za-z_][A-Za-z0-9_.]*[ \t]*)\}/g;

function lookalikesOf(text: string, known: readonly string[]): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(LOOKALIKE)) {
    const inner = match[1] ?? "";
    if (/^[A-Za-z][A-Za-z0-9_]*$/.test(inner) || names.includes(inner)) continue;
    const head = inner.trim().split(".")[0] ?? "";
    const meant = head.startsWith("_") || known.includes(head) || likelyMeant(head, known) !== null;
    if (meant) names.push(inner);
  }
  return names;
}

/** The `{name}` placeholders of a template, in order of first use (one linear scan). */
export function placeholdersOf(text: string): string[] {
  const names: string[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1];
    if (name && !seen.has(name)) {
      seen.add(name);
      names.push(name);
    }
  }
  return names;
}

/** The known name an unknown one is most likely a typo of (at most two edits away, case ignored), or null. */
export function likelyMeant(name: string, known: readonly string[]): string | null {
  // Names longer than any placeholder are not typos of one; skip the quadratic distance for them.
  if (name.length > 64) return null;
  let best: { name: string; distance: number } | null = null;
  for (const candidate of known) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase(), { swaps: true });
    if (d <= Math.min(2, Math.floor(candidate.length / 3)) && (best === null || d < best.distance)) best = { name: candidate, distance: d };
  }
  return best?.name ?? null;
}

/** Placeholders of a template the engine does not fill: `renderTemplate` leaves them in the prompt as literal text. */
export function unknownPlaceholders(placeholders: readonly string[], known: readonly string[]): string[] {
  const filled = new Set(known);
  return placeholders.filter((name) => !filled.has(name));
}

/** What the engine fills for one family and role: every name it fills, and those a template must use. */
export interface TemplateRules {
  /** Every placeholder the engine fills for this family and role, sorted. */
  known: readonly string[];
  /** Placeholders a template for this role must use (the task and the trajectory, e.g. `{question}`, `{scratchpad}`). */
  required: readonly string[];
}

/** What is wrong with a template text (empty lists: nothing). */
export interface TemplateProblems {
  /** UTF-8 bytes, when over {@link MAX_TEMPLATE_BYTES}; else null. */
  tooLarge: number | null;
  /** `{name}`s the family does not fill, in order of use. */
  unknown: string[];
  /** Required `{name}`s the text leaves out. */
  missing: string[];
}

/** Checks `text` against `rules` (null: only the size is checked, e.g. a role without rules). */
export function checkTemplateText(text: string, rules: TemplateRules | null): TemplateProblems {
  const bytes = text.length > MAX_TEMPLATE_BYTES / 3 ? utf8Bytes(text) : 0;
  if (bytes > MAX_TEMPLATE_BYTES) return { tooLarge: bytes, unknown: [], missing: [] };
  if (!rules) return { tooLarge: null, unknown: [], missing: [] };
  const used = placeholdersOf(text);
  const present = new Set(used);
  return {
    tooLarge: null,
    unknown: [...unknownPlaceholders(used, rules.known), ...lookalikesOf(text, rules.known)],
    missing: rules.required.filter((name) => !present.has(name)),
  };
}

const slot = (name: string) => `{${name}}`;

/**
 * The sentence naming a template's placeholder problems, with typo suggestions; null when there are
 * none. `what` names the template (e.g. "The actor template").
 */
export function placeholderProblemMessage(problems: TemplateProblems, rules: TemplateRules, what: string): string | null {
  const parts: string[] = [];
  if (problems.unknown.length > 0) {
    const suggestions = problems.unknown.flatMap((name) => {
      const meant = likelyMeant(name.trim().split(".")[0] ?? name, rules.known);
      return meant ? [`did you mean ${slot(meant)} for ${slot(name)}?`] : [];
    });
    parts.push(
      `uses ${problems.unknown.map(slot).join(", ")}, which the engine does not fill (it would reach the model as literal text)${suggestions.length > 0 ? ` — ${suggestions.join("; ")}` : ""}; known: ${rules.known.map(slot).join(", ")}`,
    );
  }
  if (problems.missing.length > 0) parts.push(`leaves out ${problems.missing.map(slot).join(", ")}, which every template for this role needs`);
  return parts.length === 0 ? null : `${what} ${parts.join("; and it ")}.`;
}

/**
 * Refuses a template text that is too large, or (unless `allowUnknown`) uses unknown placeholders or
 * leaves out required ones; the message lists them and says how to accept them anyway.
 * @param options.what names the template in the message; options.override names the opt-out for
 *   this door (`allowUnknown: true` for the API, `--allow-unknown` for the CLI).
 * @throws AppError("invalid-input")
 */
export function assertTemplateText(
  text: string,
  rules: TemplateRules | null,
  options: { allowUnknown?: boolean; what: string; override?: string },
): void {
  const problems = checkTemplateText(text, rules);
  if (problems.tooLarge !== null) throw new AppError("invalid-input", `${options.what}: ${templateTooLargeMessage(problems.tooLarge)}.`);
  if (options.allowUnknown || !rules) return;
  const message = placeholderProblemMessage(problems, rules, options.what);
  if (message) throw new AppError("invalid-input", `${message} Fix it, or send it as it is with ${options.override ?? "allowUnknown: true"}.`);
}
