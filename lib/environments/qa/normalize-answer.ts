// The official answer normalisation, apart from the EM verdict so that F1 (f1.ts)
// and EM (exact-match.ts) share it without importing each other.

/** Python's `string.punctuation`: the 32 ASCII punctuation characters. */
export const ASCII_PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

const punctuation = new RegExp(`[${ASCII_PUNCTUATION.replace(/[\\\]^-]/g, "\\$&")}]`, "g");

/**
 * Whole-word `a` / `an` / `the`: Python 3's `re.sub(r'\b(a|an|the)\b', ' ', text)`
 * on a `str`, whose `\b` is Unicode-aware. Python's word characters are Unicode
 * letters, numbers and `_` (combining marks are not), hence explicit lookarounds
 * instead of JS's ASCII-only `\b`.
 */
const articles = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;

/**
 * The characters Python's `str.split()` splits on (`str.isspace`). Unlike JS `\s`,
 * it includes U+001C–U+001F and U+0085 and excludes U+FEFF.
 */
const pythonWhitespace = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/gu;

/**
 * Normalises an answer as the official HotpotQA/SQuAD script's `normalize_answer`,
 * in its order, after one step of ours: Unicode NFC (so a decomposed "Zu\u0308rich"
 * and a precomposed "Z\u00fcrich", which look identical, normalise alike) → lowercase
 * → remove every ASCII punctuation character (Unicode quotes and dashes stay) →
 * replace whole words a/an/the with a space → split on whitespace and join with
 * single spaces.
 *
 * Source: HotpotQA `hotpot_evaluate_v1.py` `normalize_answer`, which does not apply
 * NFC; on the paper's 3,396 logged (prediction, gold) pairs the two agree on every
 * one (`npm run agreement:qa`). JS `toLowerCase` stands in for Python's `str.lower`
 * (they agree outside rare special casings).
 *
 * @example normalizeAnswer('Jonny" Craig') === "jonny craig"
 * @example normalizeAnswer("The \u00c1lvaro") === "\u00e1lvaro"
 */
export function normalizeAnswer(text: string): string {
  return collapseWhitespace(stripPunctuation(text).replace(articles, " "));
}

/** NFC, lowercase, ASCII punctuation removed: the official steps before the articles. */
export function stripPunctuation(text: string): string {
  return text.normalize("NFC").toLowerCase().replace(punctuation, "");
}

/** Python's `" ".join(text.split())`. */
export function collapseWhitespace(text: string): string {
  return text
    .split(pythonWhitespace)
    .filter((token) => token !== "")
    .join(" ");
}
