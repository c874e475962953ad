import type { CodeTask } from "./task";

/**
 * The ten built-in JavaScript and TypeScript code tasks (`code-js-01` …
 * `code-js-05`, `code-ts-01` … `code-ts-05`), original problems written for this
 * project (see builtin-tasks.ts). Each prompt is a JSDoc block + the function
 * signature without a body; the reference solution is the prompt followed by a
 * body; the hidden tests are `node:assert` `deepStrictEqual` lines.
 */

interface JsTaskSpec {
  id: string;
  language: "javascript" | "typescript";
  entryPoint: string;
  /** JSDoc block + signature line, no body or brace. */
  prompt: string;
  /** The body, starting with `{`. */
  body: string;
  /** Arguments of each `assert.deepStrictEqual(...)`: `call, expected`. */
  checks: string[];
}

function jsTask({ id, language, entryPoint, prompt, body, checks }: JsTaskSpec): CodeTask {
  const hiddenTests = ['const assert = require("node:assert");', ...checks.map((check) => `assert.deepStrictEqual(${check});`), ""].join("\n");
  return { id, language, prompt, entryPoint, hiddenTests, referenceSolution: `${prompt} ${body}`, setup: null, sourceFormat: "builtin" };
}

/** The JavaScript tasks, then the TypeScript tasks, in id order. */
export const builtinJsCodeTasks: readonly CodeTask[] = [
  jsTask({
    id: "code-js-01",
    language: "javascript",
    entryPoint: "chunk",
    prompt: `/**
 * Splits \`items\` into consecutive chunks of \`size\` elements (size is a
 * positive integer), in order. When the length is not a multiple of size, the
 * last chunk holds what is left. Returns a new array.
 *
 * chunk([1, 2, 3, 4], 2) // [[1, 2], [3, 4]]
 */
function chunk(items, size)`,
    body: `{
  const chunks = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
`,
    checks: [
      "chunk([1, 2, 3, 4], 2), [[1, 2], [3, 4]]",
      "chunk([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]",
      "chunk([], 3), []",
      'chunk(["a", "b", "c"], 5), [["a", "b", "c"]]',
      "chunk([1, 2, 3], 1), [[1], [2], [3]]",
      "chunk([1, 2, 3, 4, 5, 6, 7], 3), [[1, 2, 3], [4, 5, 6], [7]]",
    ],
  }),
  jsTask({
    id: "code-js-02",
    language: "javascript",
    entryPoint: "titleCase",
    prompt: `/**
 * Upper-cases the first character of every word of \`text\` and lower-cases the
 * rest of the word. Words are separated by single spaces; every space is kept as
 * it is, so runs of spaces and leading spaces survive.
 *
 * titleCase("hello world") // "Hello World"
 */
function titleCase(text)`,
    body: `{
  return text
    .split(" ")
    .map((word) => (word === "" ? word : word[0].toUpperCase() + word.slice(1).toLowerCase()))
    .join(" ");
}
`,
    checks: [
      'titleCase("hello world"), "Hello World"',
      'titleCase("hELLO wORLD"), "Hello World"',
      'titleCase("a  b"), "A  B"',
      'titleCase(""), ""',
      'titleCase(" lead"), " Lead"',
      'titleCase("já é"), "Já É"',
      'titleCase("o\'neil"), "O\'neil"',
    ],
  }),
  jsTask({
    id: "code-js-03",
    language: "javascript",
    entryPoint: "safeAverage",
    prompt: `/**
 * Returns the average of the finite numbers in \`values\`. Every other entry
 * (strings, null, NaN, Infinity, ...) is ignored. Returns null when there is no
 * finite number to average.
 *
 * safeAverage([2, "x", 4]) // 3
 */
function safeAverage(values)`,
    body: `{
  const numbers = values.filter((value) => typeof value === "number" && Number.isFinite(value));
  if (numbers.length === 0) return null;
  return numbers.reduce((sum, value) => sum + value, 0) / numbers.length;
}
`,
    checks: [
      "safeAverage([1, 2, 3]), 2",
      'safeAverage([2, "x", 4]), 3',
      "safeAverage([]), null",
      'safeAverage([null, "a"]), null',
      "safeAverage([NaN, 4]), 4",
      "safeAverage([Infinity, 1, 3]), 2",
      "safeAverage([-2, 2]), 0",
      "safeAverage([5]), 5",
    ],
  }),
  jsTask({
    id: "code-js-04",
    language: "javascript",
    entryPoint: "flatten",
    prompt: `/**
 * Flattens arbitrarily nested arrays into one flat array, keeping the order of
 * the values. Values that are not arrays are kept as they are.
 *
 * flatten([1, [2, 3], 4]) // [1, 2, 3, 4]
 */
function flatten(nested)`,
    body: `{
  const flat = [];
  for (const item of nested) {
    if (Array.isArray(item)) flat.push(...flatten(item));
    else flat.push(item);
  }
  return flat;
}
`,
    checks: [
      "flatten([1, [2, 3], 4]), [1, 2, 3, 4]",
      "flatten([1, [2, [3, [4]]]]), [1, 2, 3, 4]",
      "flatten([]), []",
      "flatten([[], [[]]]), []",
      'flatten(["a", ["b"]]), ["a", "b"]',
      "flatten([[1, 2], [3, [4, 5]], 6]), [1, 2, 3, 4, 5, 6]",
      "flatten([null, [undefined]]), [null, undefined]",
    ],
  }),
  jsTask({
    id: "code-js-05",
    language: "javascript",
    entryPoint: "toRoman",
    prompt: `/**
 * Converts an integer from 1 to 3999 to a Roman numeral in standard form.
 *
 * toRoman(3) // "III"
 * toRoman(58) // "LVIII"
 */
function toRoman(n)`,
    body: `{
  const table = [[1000, "M"], [900, "CM"], [500, "D"], [400, "CD"], [100, "C"], [90, "XC"], [50, "L"], [40, "XL"], [10, "X"], [9, "IX"], [5, "V"], [4, "IV"], [1, "I"]];
  let result = "";
  for (const [value, symbol] of table) {
    while (n >= value) {
      result += symbol;
      n -= value;
    }
  }
  return result;
}
`,
    checks: [
      'toRoman(3), "III"',
      'toRoman(58), "LVIII"',
      'toRoman(4), "IV"',
      'toRoman(9), "IX"',
      'toRoman(40), "XL"',
      'toRoman(1994), "MCMXCIV"',
      'toRoman(444), "CDXLIV"',
      'toRoman(3999), "MMMCMXCIX"',
      'toRoman(1), "I"',
    ],
  }),
  jsTask({
    id: "code-ts-01",
    language: "typescript",
    entryPoint: "dedupeIgnoreCase",
    prompt: `/**
 * Removes every word that repeats an earlier word when compared ignoring case,
 * keeping the first spelling seen, in the original order.
 *
 * dedupeIgnoreCase(["b", "a", "b"]) // ["b", "a"]
 */
function dedupeIgnoreCase(words: string[]): string[]`,
    body: `{
  const seen = new Set<string>();
  const result: string[] = [];
  for (const word of words) {
    const key = word.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      result.push(word);
    }
  }
  return result;
}
`,
    checks: [
      'dedupeIgnoreCase(["b", "a", "b"]), ["b", "a"]',
      'dedupeIgnoreCase(["Apple", "apple", "APPLE", "pear"]), ["Apple", "pear"]',
      "dedupeIgnoreCase([]), []",
      'dedupeIgnoreCase(["b", "B", "a"]), ["b", "a"]',
      'dedupeIgnoreCase(["x"]), ["x"]',
      'dedupeIgnoreCase(["Ünïcode", "üNÏCODE"]), ["Ünïcode"]',
      'dedupeIgnoreCase(["", ""]), [""]',
    ],
  }),
  jsTask({
    id: "code-ts-02",
    language: "typescript",
    entryPoint: "maxSubarraySum",
    prompt: `/**
 * Returns the largest sum of a non-empty run of consecutive elements of \`nums\`,
 * or 0 when \`nums\` is empty.
 *
 * maxSubarraySum([-2, 1, -3, 4, -1, 2, 1, -5, 4]) // 6 (from [4, -1, 2, 1])
 */
function maxSubarraySum(nums: number[]): number`,
    body: `{
  if (nums.length === 0) return 0;
  let best = nums[0]!;
  let current = 0;
  for (const n of nums) {
    current = Math.max(n, current + n);
    best = Math.max(best, current);
  }
  return best;
}
`,
    checks: [
      "maxSubarraySum([-2, 1, -3, 4, -1, 2, 1, -5, 4]), 6",
      "maxSubarraySum([-3, -1, -2]), -1",
      "maxSubarraySum([]), 0",
      "maxSubarraySum([5]), 5",
      "maxSubarraySum([-7]), -7",
      "maxSubarraySum([1, 2, 3]), 6",
      "maxSubarraySum([2, -1, 2]), 3",
    ],
  }),
  jsTask({
    id: "code-ts-03",
    language: "typescript",
    entryPoint: "isPalindrome",
    prompt: `/**
 * Tells whether \`text\` reads the same backwards, ignoring case and every
 * character that is not an ASCII letter or digit (spaces, punctuation, ...).
 *
 * isPalindrome("Level") // true
 */
function isPalindrome(text: string): boolean`,
    body: `{
  const cleaned = text.toLowerCase().replace(/[^a-z0-9]/g, "");
  return cleaned === cleaned.split("").reverse().join("");
}
`,
    checks: [
      'isPalindrome("Level"), true',
      'isPalindrome("hello"), false',
      'isPalindrome("A man, a plan, a canal: Panama"), true',
      "isPalindrome(\"No 'x' in Nixon\"), true",
      'isPalindrome(""), true',
      'isPalindrome("ab"), false',
      'isPalindrome("12 21"), true',
      'isPalindrome("race a car"), false',
    ],
  }),
  jsTask({
    id: "code-ts-04",
    language: "typescript",
    entryPoint: "mostFrequent",
    prompt: `/**
 * Returns the word that occurs most often in \`words\` (compared exactly). On a
 * tie, the word among the most frequent that appears first wins. Returns null
 * for an empty array.
 *
 * mostFrequent(["a", "b", "a"]) // "a"
 */
function mostFrequent(words: string[]): string | null`,
    body: `{
  const counts = new Map<string, number>();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  let best: string | null = null;
  let bestCount = 0;
  for (const [word, count] of counts) {
    if (count > bestCount) {
      best = word;
      bestCount = count;
    }
  }
  return best;
}
`,
    checks: [
      'mostFrequent(["a", "b", "a"]), "a"',
      'mostFrequent(["x", "y"]), "x"',
      "mostFrequent([]), null",
      'mostFrequent(["b", "a", "a", "b"]), "b"',
      'mostFrequent(["z"]), "z"',
      'mostFrequent(["p", "q", "q", "p", "r"]), "p"',
      'mostFrequent(["B", "b", "b"]), "b"',
    ],
  }),
  jsTask({
    id: "code-ts-05",
    language: "typescript",
    entryPoint: "formatList",
    prompt: `/**
 * Joins \`items\` into an English list: "" for none, "a" for one, "a and b" for
 * two, and "a, b, and c" (with the Oxford comma) for three or more.
 *
 * formatList(["a", "b"]) // "a and b"
 */
function formatList(items: string[]): string`,
    body: `{
  if (items.length <= 2) return items.join(" and ");
  return items.slice(0, -1).join(", ") + ", and " + items[items.length - 1];
}
`,
    checks: [
      'formatList(["a", "b"]), "a and b"',
      'formatList(["red", "green", "blue"]), "red, green, and blue"',
      'formatList(["solo"]), "solo"',
      'formatList([]), ""',
      'formatList(["w", "x", "y", "z"]), "w, x, y, and z"',
      'formatList(["", "b"]), " and b"',
    ],
  }),
];
