import type { ExternalVerdict } from "./external-trace";

/**
 * Reading a score as written by a trace's source (an Inspect score value, a LangSmith feedback score
 * or value, a Langfuse score) as a pass / fail verdict on a 0..1 scale.
 *
 * The scalar rules follow Inspect's `value_to_float` (inspect_ai/scorer/_metric.py): `"C"` → 1,
 * `"P"` → 0.5, `"I"` and `"N"` → 0, booleans and numbers as themselves, `"yes"` / `"true"` → 1,
 * `"no"` / `"false"` → 0, numeric strings as numbers. On top of that:
 *
 * - a score passes when it is ≥ the pass threshold (default {@link DEFAULT_PASS_THRESHOLD}); Inspect's
 *   partial credit `"P"` never passes (a partial answer is a failure worth reflecting on);
 * - a number outside 0..1 has no known scale: it is clamped into 0..1 and a note says so;
 * - a label in {@link PASS_LABELS} passes with score 1, one in {@link FAIL_LABELS} fails with score 0
 *   (case-insensitive) — the "documented pass set" for categorical scores;
 * - anything else (an unknown label, a list, a dict, null) gives no verdict and a note.
 */

/** Scores at or above this pass. */
export const DEFAULT_PASS_THRESHOLD = 0.5;

/** Labels (lower-cased) that read as a pass. */
export const PASS_LABELS: ReadonlySet<string> = new Set(["correct", "pass", "passed", "success", "succeeded", "yes", "true", "right", "good", "accepted", "resolved"]);

/** Labels (lower-cased) that read as a failure. */
export const FAIL_LABELS: ReadonlySet<string> = new Set(["incorrect", "fail", "failed", "failure", "error", "no", "false", "wrong", "bad", "rejected", "unresolved", "partial", "partially correct", "noanswer", "no answer", "refused"]);

/** What the verdict is about and where it came from. */
export interface VerdictLabel {
  /** The score's name in the source. */
  name: string;
  /** E.g. "Inspect scorer `match`". */
  source: string;
  explanation?: string | null;
}

/** Options of {@link verdictFromValue}. */
export interface VerdictOptions {
  /** Scores ≥ this pass; default {@link DEFAULT_PASS_THRESHOLD}. */
  passThreshold?: number;
}

/** A verdict (or null when the value does not read as one) and a note for the problem list, or null. */
export interface ReadVerdict {
  verdict: ExternalVerdict | null;
  note: string | null;
}

const INSPECT_VALUES: Record<string, { score: number; passed: boolean }> = {
  C: { score: 1, passed: true },
  I: { score: 0, passed: false },
  P: { score: 0.5, passed: false },
  N: { score: 0, passed: false },
};

/** Reads `raw` as a verdict by the rules above. Never throws. */
export function verdictFromValue(raw: unknown, label: VerdictLabel, options: VerdictOptions = {}): ReadVerdict {
  const threshold = options.passThreshold ?? DEFAULT_PASS_THRESHOLD;
  const make = (score: number, passed: boolean, note: string | null = null): ReadVerdict => ({
    verdict: { passed, score, name: label.name, source: label.source, explanation: label.explanation ?? "", raw },
    note,
  });
  if (typeof raw === "boolean") return make(raw ? 1 : 0, raw);
  if (typeof raw === "number") return fromNumber(raw, threshold, make);
  if (typeof raw === "string") {
    const inspect = INSPECT_VALUES[raw];
    if (inspect) return make(inspect.score, inspect.passed);
    const lower = raw.trim().toLowerCase();
    if (PASS_LABELS.has(lower)) return make(1, true);
    if (FAIL_LABELS.has(lower)) return make(0, false);
    if (lower.length > 0 && Number.isFinite(Number(lower))) return fromNumber(Number(lower), threshold, make);
    return { verdict: null, note: `${label.source}: the value "${raw}" does not read as pass or fail` };
  }
  const shown = raw === undefined ? "no value" : `the value ${JSON.stringify(raw)}`;
  return { verdict: null, note: `${label.source}: ${shown} does not read as pass or fail` };
}

function fromNumber(value: number, threshold: number, make: (score: number, passed: boolean, note?: string | null) => ReadVerdict): ReadVerdict {
  if (!Number.isFinite(value)) return { verdict: null, note: `the score ${value} is not a finite number` };
  if (value >= 0 && value <= 1) return make(value, value >= threshold);
  const clamped = Math.min(1, Math.max(0, value));
  const passed = clamped >= threshold;
  const verdict = make(clamped, passed);
  return { verdict: verdict.verdict, note: `${verdict.verdict?.source}: the score ${value} is outside 0..1 (scale unknown); read as ${clamped} (${passed ? "passed" : "failed"})` };
}
