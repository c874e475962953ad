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
      "assert.deepStrictEqual(chunk([1, 2, 3, 4], 2), [[1, 2], [3, 4]]);",
      "assert.deepStrictEqual(chunk([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);",
      "assert.deepStrictEqual(chunk([], 3), []);",
    ],
    naive: `function chunk(items, size) {
  const chunks = [];
  for (let i = 0; i + size <= items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
`,
    reflection:
      "My implementation returned [[1, 2], [3, 4]] for chunk([1, 2, 3, 4, 5], 2) because the loop stopped before a chunk that would be shorter than size. Next time I should keep the leftover elements as a final, shorter chunk.",
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
      'assert.deepStrictEqual(titleCase("hello world"), "Hello World");',
      'assert.deepStrictEqual(titleCase("hELLO wORLD"), "Hello World");',
      'assert.deepStrictEqual(titleCase("x"), "X";',
      'assert.deepStrictEqual(titleCase("a  b"), "A  B");',
    ],
    naive: `function titleCase(text) {
  return text
    .split(" ")
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join(" ");
}
`,
    reflection:
      'My implementation returned "HELLO WORLD" for titleCase("hELLO wORLD") because it upper-cased the first letter but left the rest of each word unchanged, and it threw a TypeError for "a  b", where the double space makes an empty word. Next time I should lowercase the rest of each word and leave an empty word as it is.',
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
      "assert.deepStrictEqual(safeAverage([1, 2, 3]), 2);",
      'assert.deepStrictEqual(safeAverage([2, "x", 4]), 3);',
      "assert.deepStrictEqual(safeAverage([]), null);",
    ],
    naive: `function safeAverage(values) {
  const numbers = values.filter((value) => typeof value === "number");
  return numbers.reduce((sum, value) => sum + value, 0) / numbers.length;
}
`,
    reflection:
      "My implementation returned NaN for safeAverage([]) because it divided a zero sum by a count of zero. Next time I should check for an empty array, or no usable numbers at all, and return null before dividing.",
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
      "assert.deepStrictEqual(flatten([1, [2, [3, [4]]]]), [1, 2, 3, 4]);",
      "assert.deepStrictEqual(flatten([]), []);",
    ],
    naive: `function flatten(nested) {
  return [].concat(...nested);
}
`,
    reflection:
      "My implementation returned [1, 2, [3, [4]]] for flatten([1, [2, [3, [4]]]]) because concat only removes one level of nesting. Next time I should recurse into nested arrays at every depth.",
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
      'assert.deepStrictEqual(toRoman(3), "III");',
      'assert.deepStrictEqual(toRoman(58), "LVIII");',
      'assert.deepStrictEqual(toRoman(4), "IV");',
      'assert.deepStrictEqual(toRoman(1994), "MCMXCIV");',
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
      'My implementation returned "IIII" for toRoman(4) because its table only had the additive symbols. Next time I should add the subtractive pairs CM, CD, XC, XL, IX and IV to the table.',
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
      'assert.deepStrictEqual(dedupeIgnoreCase(["Apple", "apple", "APPLE", "pear"]), ["Apple", "pear"]);',
      "assert.deepStrictEqual(dedupeIgnoreCase([]), []);",
    ],
    naive: `function dedupeIgnoreCase(words: string[]): string[] {
  return Array.from(new Set(words));
}
`,
    reflection:
      'My implementation returned ["Apple", "apple", "APPLE", "pear"] for dedupeIgnoreCase(["Apple", "apple", "APPLE", "pear"]) because a Set compares strings exactly. Next time I should compare words ignoring case and keep the first spelling seen.',
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
      "assert.deepStrictEqual(maxSubarraySum([-2, 1, -3, 4, -1, 2, 1, -5, 4]), 6);",
      "assert.deepStrictEqual(maxSubarraySum([-3, -1, -2]), -1);",
      "assert.deepStrictEqual(maxSubarraySum([]), 0);",
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
      "My implementation returned 0 for maxSubarraySum([-3, -1, -2]) because it started the best sum at 0 and reset negative running sums to 0, which amounts to choosing an empty run. Next time I should start from the first element so that an all negative array returns its largest element.",
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
      'assert.deepStrictEqual(isPalindrome("Level"), true);',
      'assert.deepStrictEqual(isPalindrome("hello"), false);',
    ],
    naive: `function isPalindrome(text: string): boolean {
  const lower = text.toLowerCase();
  return lower === lower.split("").reverse().join("");
}
`,
    reflection:
      'My implementation returned false for isPalindrome("A man, a plan, a canal: Panama") because it compared the lowercased text with its reverse with the spaces and punctuation still in it. Next time I should drop every character that is not a letter or digit before comparing.',
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
      'assert.deepStrictEqual(mostFrequent(["a", "b", "a"]), "a");',
      'assert.deepStrictEqual(mostFrequent(["x", "y"]), "x");',
      "assert.deepStrictEqual(mostFrequent([]), null);",
      'assert.deepStrictEqual(mostFrequent(["b", "a", "a", "b"]), "b");',
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
      'My implementation returned "y" for mostFrequent(["x", "y"]) because it replaced the best word on a tie, so the last of the most frequent words won. Next time I should replace it only on a strictly greater count, so that a tie goes to the word that appears first.',
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
      'assert.deepStrictEqual(formatList(["a", "b"]), "a and b");',
      'assert.deepStrictEqual(formatList(["red", "green", "blue"]), "red, green, and blue");',
      'assert.deepStrictEqual(formatList(["solo"]), "solo");',
      'assert.deepStrictEqual(formatList([]), "");',
    ],
    naive: `function formatList(items: string[]): string {
  return items.slice(0, -1).join(", ") + " and " + items[items.length - 1];
}
`,
    reflection:
      'My implementation returned " and solo" for formatList(["solo"]) and "red, green and blue" for three items. Next time I should return a single item or an empty list on its own and put the Oxford comma before "and" when there are three or more items.',
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
