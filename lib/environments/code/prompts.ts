import type { MemoryItem } from "@/lib/domain/events";
import type { CodeLanguage } from "./task";

/**
 * The code family's prompts, after the reference's `generators/py_generate.py`
 * (shared/docs/reflexion-reference.md §4.2), rewritten as one editable
 * completion-style template per role, with our own few-shot examples. Section
 * labels follow the reference: `[func signature]:`, `[unit tests]:`,
 * `[previous impl]:`, `[unit test results from previous impl]:`,
 * `[reflection on previous impl]:`, `[improved impl]:`, `[function impl]:`,
 * `[unit test results]:`, `[self-reflection]:`.
 *
 * Actor placeholders: `{language_name}`, `{fence}`, `{assert_form}`,
 * `{examples}`, `{previous_attempt}` (the previous implementation and its test
 * results, trials ≥ 2 under `reflexion`), `{memory}` (the reflections) and
 * `{scratchpad}` (what is asked now: tests, or an implementation).
 * Self-Reflection placeholders: `{language_name}`, `{reflection_examples}`,
 * `{scratchpad}` (the implementation) and `{feedback}` (the internal test results).
 * The hidden tests are never a placeholder.
 */

/** Section labels, shared with the demo script book. */
export const CODE_LABELS = {
  signature: "[func signature]:",
  unitTests: "[unit tests]:",
  implementation: "[implementation]:",
  previousImpl: "[previous impl]:",
  previousResults: "[unit test results from previous impl]:",
  reflection: "[reflection on previous impl]:",
  reflections: "[reflections on previous impls, oldest first]:",
  improvedImpl: "[improved impl]:",
  functionImpl: "[function impl]:",
  testResults: "[unit test results]:",
  selfReflection: "[self-reflection]:",
} as const;

/** Display name per language. */
export const LANGUAGE_NAMES: Record<CodeLanguage, string> = { python: "Python", javascript: "JavaScript", typescript: "TypeScript" };

const ASSERT_FORMS: Record<CodeLanguage, string> = {
  python: "`assert f(...) == expected`",
  javascript: "`assert.deepStrictEqual(f(...), expected);` (assert is Node's `node:assert`)",
  typescript: "`assert.deepStrictEqual(f(...), expected);` (assert is Node's `node:assert`)",
};

/** The code Actor template (`code/actor`). */
export const CODE_ACTOR_TEMPLATE = {
  id: "code/actor",
  version: 1,
  text: `You are an AI that only responds with {language_name} code, not English. You take part in a programming loop: you write unit tests for a function from its signature and docstring, and you write the function's implementation, improving it after feedback.

When asked for ${CODE_LABELS.unitTests} write at most 5 unique, diverse and intuitive unit tests, one per line, each of the form {assert_form}. Cover edge cases. Do not implement the function.
When asked for an ${CODE_LABELS.implementation} or an ${CODE_LABELS.improvedImpl} write the full implementation, restating the function signature. When you are given a previous implementation, its unit test results and a reflection, use them to write a better implementation.
Answer with one \`\`\`{fence} code block and nothing else.

{examples}

{previous_attempt}{memory}{scratchpad}`,
};

/** The code Self-Reflection template (`code/reflector`). */
export const CODE_REFLECTOR_TEMPLATE = {
  id: "code/reflector",
  version: 1,
  text: `You are a {language_name} programming assistant. You will be given a function implementation and a series of unit test results. Write a few sentences to explain why your implementation is wrong as indicated by the tests. You will need this as guidance when you try again later. Only provide the few-sentence description in your answer, not the implementation.

{reflection_examples}

${CODE_LABELS.functionImpl}
{scratchpad}

${CODE_LABELS.testResults}
{feedback}

${CODE_LABELS.selfReflection}`,
};

/** The JavaScript/TypeScript test-writing example; the two languages differ only in the signature. */
function jsTestExample(fence: "javascript" | "typescript", signature: string): string {
  return `Example:
${CODE_LABELS.signature}
/** Return value limited to the closed range [low, high]. */
${signature}

${CODE_LABELS.unitTests}
\`\`\`${fence}
assert.deepStrictEqual(clamp(5, 0, 10), 5);
assert.deepStrictEqual(clamp(-3, 0, 10), 0);
assert.deepStrictEqual(clamp(42, 0, 10), 10);
assert.deepStrictEqual(clamp(10, 0, 10), 10);
assert.deepStrictEqual(clamp(0, 0, 0), 0);
\`\`\``;
}

/** The JavaScript/TypeScript Self-Reflection example; the two languages differ only in the signature. */
function jsReflectionExample(fence: "javascript" | "typescript", signature: string): string {
  return `Example:
${CODE_LABELS.functionImpl}
\`\`\`${fence}
${signature} {
  return values.reduce((a, b) => a + b) / values.length;
}
\`\`\`

${CODE_LABELS.testResults}
Tested passed:
assert.deepStrictEqual(average([2, 4]), 3);

Tests failed:
assert.deepStrictEqual(average([]), 0); // output: Reduce of empty array with no initial value

${CODE_LABELS.selfReflection}
The implementation reduces the array without an initial value, which throws for an empty array instead of returning 0. I should return 0 when the array is empty, or give reduce an initial value and guard the division.

(END OF EXAMPLE)`;
}

const TEST_EXAMPLES: Record<CodeLanguage, string> = {
  python: `Example:
${CODE_LABELS.signature}
def clamp(value: int, low: int, high: int) -> int:
    """Return value limited to the closed range [low, high]."""

${CODE_LABELS.unitTests}
\`\`\`python
assert clamp(5, 0, 10) == 5
assert clamp(-3, 0, 10) == 0
assert clamp(42, 0, 10) == 10
assert clamp(10, 0, 10) == 10
assert clamp(0, 0, 0) == 0
\`\`\``,
  javascript: jsTestExample("javascript", "function clamp(value, low, high)"),
  typescript: jsTestExample("typescript", "function clamp(value: number, low: number, high: number): number"),
};

const REFLECTION_EXAMPLES: Record<CodeLanguage, string> = {
  python: `Example:
${CODE_LABELS.functionImpl}
\`\`\`python
def longest_word(sentence: str) -> str:
    return max(sentence.split(), key=len)
\`\`\`

${CODE_LABELS.testResults}
Tested passed:
assert longest_word("a bb ccc") == "ccc"

Tests failed:
assert longest_word("") == "" # output: max() arg is an empty sequence

${CODE_LABELS.selfReflection}
The implementation calls max() on the list of words without handling a sentence that has no words, so it raises instead of returning "". I should return "" for an empty sentence before taking the longest word.

(END OF EXAMPLE)`,
  javascript: jsReflectionExample("javascript", "function average(values)"),
  typescript: jsReflectionExample("typescript", "function average(values: number[]): number"),
};

/** The fence tag the Actor is asked to use. */
export function fenceTag(language: CodeLanguage): string {
  return language;
}

/** The family's static prompt variables for a task in `language`. */
export function codePromptVariables(language: CodeLanguage): Record<string, string> {
  return {
    language_name: LANGUAGE_NAMES[language],
    fence: fenceTag(language),
    assert_form: ASSERT_FORMS[language],
    examples: TEST_EXAMPLES[language],
    reflection_examples: REFLECTION_EXAMPLES[language],
    previous_attempt: "",
  };
}

/** A program in a fenced block of its language. */
export function fenced(code: string, language: CodeLanguage): string {
  return `\`\`\`${fenceTag(language)}\n${code}\n\`\`\``;
}

/**
 * The reflections block (`{memory}`): the newest reflection under
 * `[reflection on previous impl]:` (the paper's Ω = 1), or a bulleted list when
 * the run's memory window holds more. Empty without memory.
 */
export function renderCodeMemory(memory: readonly MemoryItem[]): string {
  if (memory.length === 0) return "";
  if (memory.length === 1) return `${CODE_LABELS.reflection}\n${memory[0]!.text}\n\n`;
  return `${CODE_LABELS.reflections}\n${memory.map((item) => `- ${item.text}`).join("\n")}\n\n`;
}

/** The previous trial's implementation and internal test results (`{previous_attempt}`). */
export function renderPreviousAttempt(implementation: string, feedback: string, language: CodeLanguage): string {
  return `${CODE_LABELS.previousImpl}\n${fenced(implementation, language)}\n\n${CODE_LABELS.previousResults}\n${feedback}\n\n`;
}

/** What the Actor is asked now (`{scratchpad}`): tests, a first implementation, or an improved one. */
export function renderRequest(kind: "tests" | "implementation" | "improved", signature: string): string {
  if (kind === "tests") return `${CODE_LABELS.signature}\n${signature}\n\n${CODE_LABELS.unitTests}\n`;
  if (kind === "implementation") return `${CODE_LABELS.signature}\n${signature}\n\n${CODE_LABELS.implementation}\n`;
  return `${CODE_LABELS.improvedImpl}\n${signature}\n`;
}

/**
 * The feedback (observation and Evaluator feedback) for an implementation that
 * no internal test checked: the tests were asked for and none was runnable.
 * Such an implementation is judged `fail`, never a vacuous pass.
 */
export const UNTESTED_FEEDBACK =
  "No runnable internal test was written, so this implementation could not be checked: it is not counted as passing its internal tests";

/**
 * `{previous_attempt}` when the tests are asked for again: why the last block
 * held no runnable test (its observation), so the model does not repeat it.
 */
export function renderTestsAskedAgain(observation: string): string {
  return `[previous unit tests could not be used]:\n${observation}\nWrite each test as one line that parses on its own.\n\n`;
}
