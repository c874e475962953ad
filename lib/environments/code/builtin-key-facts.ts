import type { KeyFact } from "@/lib/domain/key-facts";

/**
 * The key facts of each built-in code task (builtin-tasks-*.ts), keyed by task
 * id: the edge case the first implementation missed, or the fix it needs, that
 * a reflection must state for the offline demo model's Actor to write the
 * informed implementation (lib/domain/key-facts.ts, decision 0022). Written by
 * hand from each problem; the scripted reflection (builtin-demo-scripts-*.ts)
 * states every fact (tests/environments/key-facts.test.ts). `code-py-07` and
 * `code-ts-03` are the false positives: their trial 1 passes its weak tests,
 * so a reflection only exists there when a person forks and writes one.
 */
export const builtinCodeKeyFacts: Readonly<Record<string, readonly KeyFact[]>> = {
  "code-py-01": [{ id: "empty-input", any: ["empty", "blank", "no characters", "zero length", "length 0", "nothing to encode"], says: "the edge case: the empty string" }],
  "code-py-02": [{ id: "reduce-k", any: ["modulo", "mod", "remainder", "wrap around", "wraps around", "k % len", "longer than list", "larger than length", "bigger than list"], says: "to reduce k modulo the list's length" }],
  "code-py-03": [{ id: "sort-first", any: ["sort", "sorted", "order by start", "ordered by start", "by start"], says: "to sort the intervals by start before merging" }],
  "code-py-04": [
    { id: "whitespace", any: ["whitespace", "white space", "multiple spaces", "several spaces", "double space", "two spaces", "consecutive spaces", "runs of spaces", "spaces in a row"], says: "to split on any whitespace" },
    { id: "skip-empty", any: ["empty", "blank"], says: "to skip empty words" },
  ],
  "code-py-05": [
    { id: "leftover-open", any: ["unclosed", "left open", "still open", "remain open", "stack is empty", "stack empty", "empty stack", "left on stack", "leftover", "remaining on stack", "never closed", "not closed", "no partner"], says: "that an unclosed bracket left on the stack means unbalanced" },
  ],
  "code-py-06": [{ id: "sign", any: ["absolute value", "abs", "minus sign", "minus", "negative", "sign"], says: "to ignore the sign of a negative number (absolute value)" }],
  "code-py-07": [{ id: "distinct", any: ["duplicate", "duplicates", "distinct", "unique", "repeated", "repeats", "dedupe", "deduplicate", "appears twice"], says: "to skip duplicates of the largest value (second largest distinct value)" }],
  "code-py-08": [{ id: "even-count", any: ["even", "two middle", "both middle", "middle two", "middle pair", "pair in centre", "pair in center", "average", "mean"], says: "to average the two middle values when the count is even" }],
  "code-py-09": [
    { id: "optional-parts", any: ["optional", "may be missing", "might be missing", "can be missing", "absent", "not always", "minutes only", "only minutes", "either part", "each number with its unit", "each number + unit"], says: "that the hours or the minutes may be missing" },
  ],
  "code-py-10": [{ id: "century-rule", any: ["century", "400", "divisible by 100", "100"], says: "the century rule: divisible by 100 is a leap year only when divisible by 400" }],
  "code-js-01": [{ id: "leftover", any: ["leftover", "left over", "remainder", "remaining", "remains", "last chunk", "final chunk", "shorter chunk", "partial chunk", "smaller chunk", "final group", "last group", "rest of elements", "tail"], says: "to keep the leftover elements as a final, shorter chunk" }],
  "code-js-02": [
    { id: "lowercase", any: ["lowercase", "lower case", "toLowerCase", "lower"], says: "to lowercase the rest of each word" },
    { id: "empty-word", any: ["empty", "blank", "double space", "two spaces", "consecutive spaces", "spaces in a row"], says: "to leave an empty word (a double space) as it is" },
  ],
  "code-js-03": [{ id: "no-numbers", any: ["return null", "null", "no numbers", "no usable number", "no valid number", "no number", "nothing numeric", "zero count", "count is zero", "divide by zero", "division by zero", "empty"], says: "to return null when no usable number is left" }],
  "code-js-04": [{ id: "every-depth", any: ["every depth", "any depth", "all depths", "every level", "all levels", "any level", "recurse", "recursion", "recursive", "recursively", "deeply nested", "deep"], says: "to flatten nested arrays at every depth (recursion)" }],
  "code-js-05": [{ id: "subtractive", any: ["subtractive", "subtract", "subtraction", "iv", "ix", "xl", "xc", "cd", "cm", "smaller symbol before", "smaller before larger"], says: "the subtractive pairs (CM, CD, XC, XL, IX, IV)" }],
  "code-ts-01": [
    { id: "ignore-case", any: ["ignoring case", "ignore case", "case insensitive", "case insensitively", "regardless of case", "lowercase", "lower case", "toLowerCase", "same word"], says: "to compare words ignoring case" },
    { id: "keep-first", any: ["first spelling", "first one", "first seen", "first occurrence", "first appearance", "earliest", "original spelling", "keep first", "first version"], says: "to keep the first spelling seen" },
  ],
  "code-ts-02": [{ id: "all-negative", any: ["all negative", "negative", "first element", "largest element", "empty run", "empty subarray", "minus values"], says: "that an all negative array returns its largest element" }],
  "code-ts-03": [{ id: "letters-only", any: ["punctuation", "spaces", "non alphanumeric", "alphanumeric", "letter or digit", "letters and digits", "letters or digits", "symbols", "only letters"], says: "to drop every character that is not a letter or digit" }],
  "code-ts-04": [{ id: "tie", any: ["tie", "tied", "ties", "equal count", "same count", "equal counts", "strictly greater", "strictly higher", "strictly more", "appears first"], says: "that a tie goes to the word that appears first" }],
  "code-ts-05": [
    { id: "single-item", any: ["single item", "one item", "only item", "lone item", "single element", "one element", "just one"], says: "to return a single item on its own" },
    { id: "oxford-comma", any: ["oxford comma", "serial comma", "comma before and", "comma + before + and"], says: "the Oxford comma before \"and\" for three or more items" },
  ],
};
