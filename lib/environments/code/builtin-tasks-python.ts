import type { CodeTask } from "./task";

/**
 * The ten built-in Python code tasks (`code-py-01` … `code-py-10`), original
 * problems written for this project (see builtin-tasks.ts). Each prompt is a
 * HumanEval-style signature + docstring; the reference solution is the prompt
 * followed by a body; the hidden tests are a HumanEval `check(candidate)`.
 */

interface PythonTaskSpec {
  id: string;
  entryPoint: string;
  /** Signature line + indented docstring, ending with a newline after the docstring. */
  prompt: string;
  /** The indented function body completing the prompt. */
  body: string;
  /** Expressions asserted in `check`, written with `candidate`. */
  checks: string[];
}

function pythonTask({ id, entryPoint, prompt, body, checks }: PythonTaskSpec): CodeTask {
  const hiddenTests = ["def check(candidate):", ...checks.map((check) => `    assert ${check}`), "", `check(${entryPoint})`, ""].join("\n");
  return { id, language: "python", prompt, entryPoint, hiddenTests, referenceSolution: prompt + body, setup: null, sourceFormat: "builtin" };
}

/** The Python tasks, in id order. */
export const builtinPythonCodeTasks: readonly CodeTask[] = [
  pythonTask({
    id: "code-py-01",
    entryPoint: "run_length_encode",
    prompt: `def run_length_encode(text: str) -> str:
    """Encode every maximal run of one repeated character as that character
    followed by the length of the run. Case matters, and any character
    (spaces included) can form a run. An empty string encodes to "".

    >>> run_length_encode("aaabcc")
    'a3b1c2'
    """
`,
    body: `    if not text:
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
    checks: [
      `candidate("aaabcc") == "a3b1c2"`,
      `candidate("") == ""`,
      `candidate("a") == "a1"`,
      `candidate("abc") == "a1b1c1"`,
      `candidate("zzzzzzzzzzzz") == "z12"`,
      `candidate("aAa") == "a1A1a1"`,
      `candidate("  x") == " 2x1"`,
    ],
  }),
  pythonTask({
    id: "code-py-02",
    entryPoint: "rotate_right",
    prompt: `def rotate_right(items: list[int], k: int) -> list[int]:
    """Return a new list with the items rotated k places to the right.
    k is a non-negative integer and may be larger than the length of the list.

    >>> rotate_right([1, 2, 3, 4, 5], 2)
    [4, 5, 1, 2, 3]
    """
`,
    body: `    if not items:
        return []
    k %= len(items)
    if k == 0:
        return list(items)
    return items[-k:] + items[:-k]
`,
    checks: [
      `candidate([1, 2, 3, 4, 5], 2) == [4, 5, 1, 2, 3]`,
      `candidate([1, 2, 3], 0) == [1, 2, 3]`,
      `candidate([1, 2, 3], 3) == [1, 2, 3]`,
      `candidate([1, 2, 3], 4) == [3, 1, 2]`,
      `candidate([1, 2], 7) == [2, 1]`,
      `candidate([], 5) == []`,
      `candidate([7], 100) == [7]`,
    ],
  }),
  pythonTask({
    id: "code-py-03",
    entryPoint: "merge_intervals",
    prompt: `def merge_intervals(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Merge overlapping closed intervals (start, end) with start <= end.
    Intervals that only touch, like (1, 4) and (4, 5), are merged too. The input
    may be in any order; return the merged intervals sorted by start.

    >>> merge_intervals([(1, 3), (2, 6), (8, 10)])
    [(1, 6), (8, 10)]
    """
`,
    body: `    merged: list[tuple[int, int]] = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged
`,
    checks: [
      `candidate([(1, 3), (2, 6), (8, 10)]) == [(1, 6), (8, 10)]`,
      `candidate([(8, 10), (1, 3), (2, 6)]) == [(1, 6), (8, 10)]`,
      `candidate([]) == []`,
      `candidate([(1, 4), (4, 5)]) == [(1, 5)]`,
      `candidate([(1, 10), (2, 3), (4, 5)]) == [(1, 10)]`,
      `candidate([(5, 5)]) == [(5, 5)]`,
      `candidate([(-3, -1), (-2, 0), (6, 7)]) == [(-3, 0), (6, 7)]`,
    ],
  }),
  pythonTask({
    id: "code-py-04",
    entryPoint: "word_frequencies",
    prompt: `def word_frequencies(text: str) -> dict[str, int]:
    """Count how often each word occurs in text. Words are separated by any run
    of whitespace, compared case-insensitively (the keys are lowercase) and lose
    leading and trailing punctuation from ".,!?;:". Tokens that are nothing but
    punctuation are not words.

    >>> word_frequencies("The cat saw the dog.")
    {'the': 2, 'cat': 1, 'saw': 1, 'dog': 1}
    """
`,
    body: `    counts: dict[str, int] = {}
    for token in text.split():
        word = token.strip(".,!?;:").lower()
        if word:
            counts[word] = counts.get(word, 0) + 1
    return counts
`,
    checks: [
      `candidate("The cat saw the dog.") == {"the": 2, "cat": 1, "saw": 1, "dog": 1}`,
      `candidate("One. two, ONE!") == {"one": 2, "two": 1}`,
      `candidate("") == {}`,
      `candidate("a  b ") == {"a": 1, "b": 1}`,
      `candidate("a" + chr(10) + "b" + chr(9) + " A") == {"a": 2, "b": 1}`,
      `candidate(" ... !! ") == {}`,
      `candidate("don't stop, don't") == {"don't": 2, "stop": 1}`,
    ],
  }),
  pythonTask({
    id: "code-py-05",
    entryPoint: "is_balanced",
    prompt: `def is_balanced(text: str) -> bool:
    """Return True when the brackets (), [] and {} in text are balanced: every
    opening bracket is closed by the matching bracket, in the right order.
    Other characters are ignored.

    >>> is_balanced("a(b[c]{d})")
    True
    >>> is_balanced("(]")
    False
    """
`,
    body: `    pairs = {")": "(", "]": "[", "}": "{"}
    stack: list[str] = []
    for ch in text:
        if ch in "([{":
            stack.append(ch)
        elif ch in pairs:
            if not stack or stack.pop() != pairs[ch]:
                return False
    return not stack
`,
    checks: [
      `candidate("a(b[c]{d})") is True`,
      `candidate("(]") is False`,
      `candidate("") is True`,
      `candidate("((x)") is False`,
      `candidate("[[") is False`,
      `candidate(")(") is False`,
      `candidate("{[(])}") is False`,
      `candidate("}") is False`,
    ],
  }),
  pythonTask({
    id: "code-py-06",
    entryPoint: "digit_sum",
    prompt: `def digit_sum(n: int) -> int:
    """Return the sum of the decimal digits of the integer n, ignoring its sign.
    n can be arbitrarily large.

    >>> digit_sum(1234)
    10
    """
`,
    body: `    return sum(int(ch) for ch in str(abs(n)))
`,
    checks: [
      `candidate(1234) == 10`,
      `candidate(0) == 0`,
      `candidate(-507) == 12`,
      `candidate(-9) == 9`,
      `candidate(10 ** 30) == 1`,
      `candidate(2 ** 100) == 115`,
      `candidate(-(3 ** 50)) == 144`,
    ],
  }),
  pythonTask({
    id: "code-py-07",
    entryPoint: "second_largest",
    prompt: `def second_largest(values: list[int]) -> int | None:
    """Return the second largest distinct value in values, or None when values
    holds fewer than two distinct values.

    >>> second_largest([4, 1, 3])
    3
    """
`,
    body: `    distinct = sorted(set(values))
    return distinct[-2] if len(distinct) >= 2 else None
`,
    checks: [
      `candidate([4, 1, 3]) == 3`,
      `candidate([5, 5, 3]) == 3`,
      `candidate([4, 4]) is None`,
      `candidate([]) is None`,
      `candidate([9]) is None`,
      `candidate([-1, -2, -2]) == -2`,
      `candidate([1, 2, 3, 3]) == 2`,
    ],
  }),
  pythonTask({
    id: "code-py-08",
    entryPoint: "median",
    prompt: `def median(values: list[float]) -> float | None:
    """Return the median of values, which need not be sorted. With an even number
    of values the median is the mean of the two middle values. Return None for an
    empty list.

    >>> median([3, 1, 2])
    2
    """
`,
    body: `    if not values:
        return None
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2 == 1:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2
`,
    checks: [
      `candidate([3, 1, 2]) == 2`,
      `candidate([4, 1, 3, 2]) == 2.5`,
      `candidate([]) is None`,
      `candidate([5]) == 5`,
      `candidate([1, 2]) == 1.5`,
      `candidate([-5, 5]) == 0`,
      `candidate([7, 1, 9, 3, 5]) == 5`,
      `candidate([0.5, 1.5]) == 1.0`,
    ],
  }),
  pythonTask({
    id: "code-py-09",
    entryPoint: "parse_duration",
    prompt: `def parse_duration(text: str) -> int:
    """Parse a duration such as "1h30m" into whole minutes. The hours part
    ("<n>h") and the minutes part ("<n>m") are each optional, but at least one
    is present, hours first. Spaces are ignored.

    >>> parse_duration("1h30m")
    90
    """
`,
    body: `    total = 0
    number = ""
    for ch in text:
        if ch.isdigit():
            number += ch
        elif ch == "h":
            total += int(number) * 60
            number = ""
        elif ch == "m":
            total += int(number)
            number = ""
    return total
`,
    checks: [
      `candidate("1h30m") == 90`,
      `candidate("45m") == 45`,
      `candidate("2h") == 120`,
      `candidate("10h") == 600`,
      `candidate("1h 5m") == 65`,
      `candidate("0h0m") == 0`,
      `candidate("90m") == 90`,
      `candidate("3h07m") == 187`,
    ],
  }),
  pythonTask({
    id: "code-py-10",
    entryPoint: "is_leap_year",
    prompt: `def is_leap_year(year: int) -> bool:
    """Return True when year is a leap year in the Gregorian calendar.

    >>> is_leap_year(2024)
    True
    >>> is_leap_year(2023)
    False
    """
`,
    body: `    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
`,
    checks: [
      `candidate(2024) is True`,
      `candidate(2023) is False`,
      `candidate(1900) is False`,
      `candidate(2000) is True`,
      `candidate(2100) is False`,
      `candidate(2400) is True`,
      `candidate(1996) is True`,
      `candidate(1700) is False`,
    ],
  }),
];
