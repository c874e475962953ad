import type { CodeDemoScript } from "./demo-script-types";

/**
 * The demo model's scripts for the built-in JavaScript and TypeScript tasks
 * (builtin-tasks-js.ts), keyed by task id; see builtin-demo-scripts.ts.
 * `code-js-02` has one internal test line that does not parse (an unclosed
 * parenthesis); `code-ts-03` is the TypeScript false positive (weak internal
 * tests without punctuation).
 */
export const builtinJsCodeDemoScripts: Readonly<Record<string, CodeDemoScript>> = {
  "code-js-01": {
    kind: "fail-then-pass",
    internalTests: [
      "assert.deepStrictEqual(chunk([1, 2, 3, 4, 5, 6], 3), [[1, 2, 3], [4, 5, 6]]);",
      "assert.deepStrictEqual(chunk([1, 2, 3, 4, 5], 3), [[1, 2, 3], [4, 5]]);",
      "assert.deepStrictEqual(chunk([], 2), []);",
    ],
    naive: `function chunk(items, size) {
  const chunks = [];
  for (let i = 0; i + size <= items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
`,
    reflection:
      "My implementation returned [[1, 2, 3]] for chunk([1, 2, 3, 4, 5], 3) because the loop stopped before a chunk that would be shorter than size. Next time I should keep the leftover elements as a final, shorter chunk.",
    lessonKeywords: ["leftover"],
    informed: `function chunk(items, size) {
  const chunks = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
`,
  },
  "code-js-02": {
    kind: "fail-then-pass",
    internalTests: [
      'assert.deepStrictEqual(titleCase("good morning"), "Good Morning");',
      'assert.deepStrictEqual(titleCase("gOOD mORNING"), "Good Morning");',
      'assert.deepStrictEqual(titleCase("y"), "Y";',
      'assert.deepStrictEqual(titleCase("x  y"), "X  Y");',
    ],
    naive: `function titleCase(text) {
  return text
    .split(" ")
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join(" ");
}
`,
    reflection:
      'My implementation returned "GOOD MORNING" for titleCase("gOOD mORNING") because it upper-cased the first letter but left the rest of each word unchanged, and it threw a TypeError for "x  y", where the double space makes an empty word. Next time I should lowercase the rest of each word and leave an empty word as it is.',
    lessonKeywords: ["lowercase the rest", "empty word"],
    informed: `function titleCase(text) {
  return text
    .split(" ")
    .map((word) => (word.length === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()))
    .join(" ");
}
`,
  },
  "code-js-03": {
    kind: "fail-then-pass",
    internalTests: [
      "assert.deepStrictEqual(safeAverage([4, 6, 8]), 6);",
      'assert.deepStrictEqual(safeAverage([1, "2", 5]), 3);',
      'assert.deepStrictEqual(safeAverage(["x", null]), null);',
    ],
    naive: `function safeAverage(values) {
  const numbers = values.filter((value) => typeof value === "number");
  return numbers.reduce((sum, value) => sum + value, 0) / numbers.length;
}
`,
    reflection:
      'My implementation returned NaN for safeAverage(["x", null]) because no entry was a number, so it divided a zero sum by a count of zero. Next time I should return null before dividing when no usable number is left, as with an empty array.',
    lessonKeywords: ["empty array", "return null"],
    informed: `function safeAverage(values) {
  const numbers = values.filter((value) => typeof value === "number" && Number.isFinite(value));
  if (numbers.length === 0) return null;
  let sum = 0;
  for (const value of numbers) sum += value;
  return sum / numbers.length;
}
`,
  },
  "code-js-04": {
    kind: "fail-then-pass",
    internalTests: [
      "assert.deepStrictEqual(flatten([1, [2, 3]]), [1, 2, 3]);",
      "assert.deepStrictEqual(flatten([[0, [1, [2]]], 3]), [0, 1, 2, 3]);",
      "assert.deepStrictEqual(flatten([[]]), []);",
    ],
    naive: `function flatten(nested) {
  return [].concat(...nested);
}
`,
    reflection:
      "My implementation returned [0, [1, [2]], 3] for flatten([[0, [1, [2]]], 3]) because concat only removes one level of nesting. Next time I should recurse into nested arrays at every depth.",
    lessonKeywords: ["every depth"],
    informed: `function flatten(nested) {
  const flat = [];
  for (const item of nested) {
    if (Array.isArray(item)) {
      for (const inner of flatten(item)) flat.push(inner);
    } else {
      flat.push(item);
    }
  }
  return flat;
}
`,
  },
  "code-js-05": {
    kind: "fail-then-pass",
    internalTests: [
      'assert.deepStrictEqual(toRoman(8), "VIII");',
      'assert.deepStrictEqual(toRoman(27), "XXVII");',
      'assert.deepStrictEqual(toRoman(14), "XIV");',
      'assert.deepStrictEqual(toRoman(2024), "MMXXIV");',
    ],
    naive: `function toRoman(n) {
  const table = [[1000, "M"], [500, "D"], [100, "C"], [50, "L"], [10, "X"], [5, "V"], [1, "I"]];
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
    reflection:
      'My implementation returned "XIIII" for toRoman(14) because its table only had the additive symbols. Next time I should add the subtractive pairs CM, CD, XC, XL, IX and IV to the table.',
    lessonKeywords: ["subtractive"],
    informed: `function toRoman(n) {
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
  },
  "code-ts-01": {
    kind: "fail-then-pass",
    internalTests: [
      'assert.deepStrictEqual(dedupeIgnoreCase(["a", "b", "a"]), ["a", "b"]);',
      'assert.deepStrictEqual(dedupeIgnoreCase(["Kiwi", "kiwi", "KIWI", "fig"]), ["Kiwi", "fig"]);',
      'assert.deepStrictEqual(dedupeIgnoreCase(["one", "two"]), ["one", "two"]);',
    ],
    naive: `function dedupeIgnoreCase(words: string[]): string[] {
  return Array.from(new Set(words));
}
`,
    reflection:
      'My implementation returned ["Kiwi", "kiwi", "KIWI", "fig"] for dedupeIgnoreCase(["Kiwi", "kiwi", "KIWI", "fig"]) because a Set compares strings exactly. Next time I should compare words ignoring case and keep the first spelling seen.',
    lessonKeywords: ["ignoring case", "first spelling"],
    informed: `function dedupeIgnoreCase(words: string[]): string[] {
  const seen = new Set<string>();
  return words.filter((word) => {
    const key = word.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
`,
  },
  "code-ts-02": {
    kind: "fail-then-pass",
    internalTests: [
      "assert.deepStrictEqual(maxSubarraySum([3, -4, 5, -1, 2]), 6);",
      "assert.deepStrictEqual(maxSubarraySum([-5, -2, -8]), -2);",
      "assert.deepStrictEqual(maxSubarraySum([4, -1, 3]), 6);",
    ],
    naive: `function maxSubarraySum(nums: number[]): number {
  let best = 0;
  let current = 0;
  for (const n of nums) {
    current = Math.max(0, current + n);
    best = Math.max(best, current);
  }
  return best;
}
`,
    reflection:
      "My implementation returned 0 for maxSubarraySum([-5, -2, -8]) because it started the best sum at 0 and reset negative running sums to 0, which amounts to choosing an empty run. Next time I should start from the first element so that an all negative array returns its largest element.",
    lessonKeywords: ["all negative"],
    informed: `function maxSubarraySum(nums: number[]): number {
  if (nums.length === 0) return 0;
  let best = -Infinity;
  let current = 0;
  for (const n of nums) {
    current = Math.max(n, current + n);
    best = Math.max(best, current);
  }
  return best;
}
`,
  },
  "code-ts-03": {
    kind: "false-positive",
    internalTests: [
      'assert.deepStrictEqual(isPalindrome("racecar"), true);',
      'assert.deepStrictEqual(isPalindrome("Noon"), true);',
      'assert.deepStrictEqual(isPalindrome("world"), false);',
    ],
    naive: `function isPalindrome(text: string): boolean {
  const lower = text.toLowerCase();
  return lower === lower.split("").reverse().join("");
}
`,
    reflection:
      'My implementation returned false for isPalindrome("Was it a car or a cat I saw?") because it compared the lowercased text with its reverse with the spaces and punctuation still in it. Next time I should drop every character that is not a letter or digit before comparing.',
    lessonKeywords: ["punctuation", "letter or digit"],
    informed: `function isPalindrome(text: string): boolean {
  const kept = text.toLowerCase().replace(/[^a-z0-9]/g, "");
  for (let i = 0, j = kept.length - 1; i < j; i += 1, j -= 1) {
    if (kept[i] !== kept[j]) return false;
  }
  return true;
}
`,
  },
  "code-ts-04": {
    kind: "fail-then-pass",
    internalTests: [
      'assert.deepStrictEqual(mostFrequent(["c", "d", "c"]), "c");',
      'assert.deepStrictEqual(mostFrequent(["m", "n"]), "m");',
      'assert.deepStrictEqual(mostFrequent(["solo"]), "solo");',
      'assert.deepStrictEqual(mostFrequent(["k", "j", "j", "k"]), "k");',
    ],
    naive: `function mostFrequent(words: string[]): string | null {
  const counts = new Map<string, number>();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  let best: string | null = null;
  let bestCount = 0;
  for (const [word, count] of counts) {
    if (count >= bestCount) {
      best = word;
      bestCount = count;
    }
  }
  return best;
}
`,
    reflection:
      'My implementation returned "n" for mostFrequent(["m", "n"]) because it replaced the best word on a tie, so the last of the most frequent words won. Next time I should replace it only on a strictly greater count, so that a tie goes to the word that appears first.',
    lessonKeywords: ["tie", "appears first"],
    informed: `function mostFrequent(words: string[]): string | null {
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
  },
  "code-ts-05": {
    kind: "fail-then-pass",
    internalTests: [
      'assert.deepStrictEqual(formatList(["tea", "milk"]), "tea and milk");',
      'assert.deepStrictEqual(formatList(["x", "y", "z"]), "x, y, and z");',
      'assert.deepStrictEqual(formatList(["only"]), "only");',
    ],
    naive: `function formatList(items: string[]): string {
  return items.slice(0, -1).join(", ") + " and " + items[items.length - 1];
}
`,
    reflection:
      'My implementation returned " and only" for formatList(["only"]) and "x, y and z" for formatList(["x", "y", "z"]). Next time I should return a single item on its own and put the Oxford comma before "and" when there are three or more items.',
    lessonKeywords: ["single item", "Oxford comma"],
    informed: `function formatList(items: string[]): string {
  if (items.length === 0) return "";
  if (items.length === 1) return items[0]!;
  if (items.length === 2) return items[0] + " and " + items[1];
  return items.slice(0, -1).join(", ") + ", and " + items[items.length - 1];
}
`,
  },
};
