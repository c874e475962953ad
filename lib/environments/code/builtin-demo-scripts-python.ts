import type { CodeDemoScript } from "./demo-script-types";

/**
 * The demo model's scripts for the built-in Python tasks (builtin-tasks-python.ts),
 * keyed by task id; see builtin-demo-scripts.ts. `code-py-03` has one internal
 * test line that does not parse (an unclosed parenthesis); `code-py-07` is the
 * Python false positive (weak internal tests that miss duplicates).
 */
export const builtinPythonCodeDemoScripts: Readonly<Record<string, CodeDemoScript>> = {
  "code-py-01": {
    kind: "fail-then-pass",
    internalTests: [
      'assert run_length_encode("aabccc") == "a2b1c3"',
      'assert run_length_encode("xyz") == "x1y1z1"',
      'assert run_length_encode("") == ""',
    ],
    naive: `def run_length_encode(text: str) -> str:
    parts = []
    current, count = text[0], 1
    for ch in text[1:]:
        if ch == current:
            count += 1
        else:
            parts.append(current + str(count))
            current, count = ch, 1
    parts.append(current + str(count))
    return "".join(parts)
`,
    reflection:
      'My implementation raised an IndexError for run_length_encode("") because it read text[0] before checking that there was any input. Next time I should return "" for the empty string before looking at the first character.',
    lessonKeywords: ["empty string"],
    informed: `def run_length_encode(text: str) -> str:
    if not text:
        return ""
    parts = []
    current, count = text[0], 1
    for ch in text[1:]:
        if ch == current:
            count += 1
        else:
            parts.append(current + str(count))
            current, count = ch, 1
    parts.append(current + str(count))
    return "".join(parts)
`,
  },
  "code-py-02": {
    kind: "fail-then-pass",
    internalTests: [
      "assert rotate_right([10, 20, 30, 40], 1) == [40, 10, 20, 30]",
      "assert rotate_right([1, 2, 3, 4], 6) == [3, 4, 1, 2]",
      "assert rotate_right([], 3) == []",
    ],
    naive: `def rotate_right(items: list[int], k: int) -> list[int]:
    return items[-k:] + items[:-k]
`,
    reflection:
      "My implementation returned [1, 2, 3, 4] for rotate_right([1, 2, 3, 4], 6) because slicing with -k does not wrap around when k is longer than the list. Next time I should reduce k modulo the length first, and return an empty list early so the modulo never divides by zero.",
    lessonKeywords: ["longer than the list", "modulo"],
    informed: `def rotate_right(items: list[int], k: int) -> list[int]:
    if not items:
        return []
    k %= len(items)
    return items[-k:] + items[:-k] if k else list(items)
`,
  },
  "code-py-03": {
    kind: "fail-then-pass",
    internalTests: [
      "assert merge_intervals([(1, 2), (3, 5), (4, 8)]) == [(1, 2), (3, 8)]",
      "assert merge_intervals([(6, 9), (0, 2), (1, 4)]) == [(0, 4), (6, 9)]",
      "assert merge_intervals([(2, 3), (3, 7)] == [(2, 7)]",
      "assert merge_intervals([(0, 1)]) == [(0, 1)]",
    ],
    naive: `def merge_intervals(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged = []
    for start, end in intervals:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged
`,
    reflection:
      "My implementation returned [(6, 9)] for merge_intervals([(6, 9), (0, 2), (1, 4)]) because it merged the intervals in the order they were given, so the later, earlier-starting ones were swallowed by (6, 9). Next time I should sort the intervals by start before merging.",
    lessonKeywords: ["sort the intervals"],
    informed: `def merge_intervals(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged
`,
  },
  "code-py-04": {
    kind: "fail-then-pass",
    internalTests: [
      'assert word_frequencies("the cat saw the dog") == {"the": 2, "cat": 1, "saw": 1, "dog": 1}',
      'assert word_frequencies("Hi, hi!") == {"hi": 2}',
      'assert word_frequencies("x  y ") == {"x": 1, "y": 1}',
      'assert word_frequencies("   ") == {}',
    ],
    naive: `def word_frequencies(text: str) -> dict[str, int]:
    counts = {}
    for token in text.lower().split(" "):
        word = token.strip(".,!?;:")
        counts[word] = counts.get(word, 0) + 1
    return counts
`,
    reflection:
      "My implementation returned {'x': 1, '': 2, 'y': 1} for word_frequencies(\"x  y \") because splitting on a single space turned the double space and the trailing space into empty words. Next time I should split on any whitespace and skip tokens that are empty after stripping punctuation.",
    lessonKeywords: ["any whitespace", "empty words"],
    informed: `def word_frequencies(text: str) -> dict[str, int]:
    counts = {}
    for token in text.split():
        word = token.strip(".,!?;:").lower()
        if word:
            counts[word] = counts.get(word, 0) + 1
    return counts
`,
  },
  "code-py-05": {
    kind: "fail-then-pass",
    internalTests: [
      'assert is_balanced("([]{})") is True',
      'assert is_balanced("[)") is False',
      'assert is_balanced("{(y)") is False',
      'assert is_balanced("no brackets") is True',
    ],
    naive: `def is_balanced(text: str) -> bool:
    pairs = {")": "(", "]": "[", "}": "{"}
    stack = []
    for ch in text:
        if ch in "([{":
            stack.append(ch)
        elif ch in pairs:
            if not stack or stack.pop() != pairs[ch]:
                return False
    return True
`,
    reflection:
      'My implementation returned True for is_balanced("{(y)") because it only checked the closing brackets and never looked at what was left on the stack at the end. Next time I should return False when an unclosed bracket remains on the stack.',
    lessonKeywords: ["unclosed bracket"],
    informed: `def is_balanced(text: str) -> bool:
    pairs = {")": "(", "]": "[", "}": "{"}
    stack = []
    for ch in text:
        if ch in "([{":
            stack.append(ch)
        elif ch in pairs:
            if not stack or stack.pop() != pairs[ch]:
                return False
    return len(stack) == 0
`,
  },
  "code-py-06": {
    kind: "fail-then-pass",
    internalTests: ["assert digit_sum(12345) == 15", "assert digit_sum(1000) == 1", "assert digit_sum(-408) == 12"],
    naive: `def digit_sum(n: int) -> int:
    return sum(int(ch) for ch in str(n))
`,
    reflection:
      "My implementation raised a ValueError for digit_sum(-408) because it tried to convert the minus sign to an int along with the digits. Next time I should take the absolute value of n so the sign is ignored.",
    lessonKeywords: ["minus sign", "absolute value"],
    informed: `def digit_sum(n: int) -> int:
    return sum(int(ch) for ch in str(abs(n)))
`,
  },
  "code-py-07": {
    kind: "false-positive",
    internalTests: [
      "assert second_largest([1, 3, 2]) == 2",
      "assert second_largest([10, 20]) == 10",
      "assert second_largest([7]) is None",
      "assert second_largest([-4, -9]) == -9",
    ],
    naive: `def second_largest(values: list[int]) -> int | None:
    if len(values) < 2:
        return None
    return sorted(values)[-2]
`,
    reflection:
      "My implementation returned 6 for second_largest([6, 6, 2]) because it took the second element from the end of the sorted list, which counts duplicates of the largest value. Next time I should remove duplicates first and return the second largest distinct value, or None when there are fewer than two.",
    lessonKeywords: ["duplicates", "distinct"],
    informed: `def second_largest(values: list[int]) -> int | None:
    distinct = sorted(set(values))
    if len(distinct) < 2:
        return None
    return distinct[-2]
`,
  },
  "code-py-08": {
    kind: "fail-then-pass",
    internalTests: ["assert median([9, 2, 5]) == 5", "assert median([8, 2, 6, 4]) == 5", "assert median([10]) == 10"],
    naive: `def median(values: list[float]) -> float | None:
    if not values:
        return None
    return sorted(values)[len(values) // 2]
`,
    reflection:
      "My implementation returned 6 for median([8, 2, 6, 4]) because it always took the upper of the two middle elements. Next time I should check for an even number of values and average the two middle elements.",
    lessonKeywords: ["even number", "two middle"],
    informed: `def median(values: list[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2 == 1:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2
`,
  },
  "code-py-09": {
    kind: "fail-then-pass",
    internalTests: [
      'assert parse_duration("2h15m") == 135',
      'assert parse_duration("30m") == 30',
      'assert parse_duration("3h") == 180',
      'assert parse_duration("4h 20m") == 260',
    ],
    naive: `def parse_duration(text: str) -> int:
    hours, minutes = text.split("h")
    return int(hours) * 60 + int(minutes.rstrip("m"))
`,
    reflection:
      'My implementation raised a ValueError for parse_duration("30m") because it assumed the text always contains an "h" and split it into exactly two parts. Next time I should treat the hours and the minutes as optional parts and read each number together with the unit that follows it.',
    lessonKeywords: ["optional"],
    informed: `def parse_duration(text: str) -> int:
    total = 0
    number = ""
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            number += ch
        elif ch in "hm":
            total += int(number) * (60 if ch == "h" else 1)
            number = ""
    return total
`,
  },
  "code-py-10": {
    kind: "fail-then-pass",
    internalTests: [
      "assert is_leap_year(2016) is True",
      "assert is_leap_year(2019) is False",
      "assert is_leap_year(1800) is False",
      "assert is_leap_year(1600) is True",
    ],
    naive: `def is_leap_year(year: int) -> bool:
    return year % 4 == 0
`,
    reflection:
      "My implementation returned True for is_leap_year(1800) because it only checked divisibility by 4. Next time I should treat a century year as a leap year only when it is divisible by 400.",
    lessonKeywords: ["century", "400"],
    informed: `def is_leap_year(year: int) -> bool:
    if year % 400 == 0:
        return True
    if year % 100 == 0:
        return False
    return year % 4 == 0
`,
  },
};
