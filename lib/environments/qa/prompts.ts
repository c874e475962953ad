import type { PromptTemplate } from "@/lib/domain/config";
import type { TrajectoryStep } from "@/lib/domain/environment";
import type { MemoryItem } from "@/lib/domain/events";
import { qaActorExamples, qaReflectionExamples } from "./prompt-examples";
import type { QaTask } from "./task";

/**
 * The QA family's default prompts, written for this project (same structure as
 * the reference's `REACT_REFLECT_INSTRUCTION` / `REFLECT_INSTRUCTION`,
 * shared/docs/reflexion-reference.md §2.2, §2.6, §2.7; none of its wording).
 *
 * Placeholders (`{name}`, filled by the engine with plain substitution):
 *
 * | template | placeholder | filled with | by |
 * |---|---|---|---|
 * | actor `qa/react-actor` v1 | `{examples}` | few-shot trajectories | {@link qaPromptVariables} |
 * | | `{memory}` | {@link renderMemory} of the windowed memory (`""` when none) | engine |
 * | | `{question}` | the task's question, on one line | {@link qaPromptVariables} |
 * | | `{scratchpad}` | {@link renderScratchpad}`(steps, n)` = `renderTrajectory(steps) + stepPrefix(n)`, where `stepPrefix(n)` = `"\nThought n:"` | engine |
 * | reflector `qa/reflect` v1 | `{reflectionExamples}` | two reflection examples | {@link qaPromptVariables} |
 * | | `{question}` | as above | {@link qaPromptVariables} |
 * | | `{scratchpad}` | `renderTrajectory(steps)` of the failed trial (no step prefix) | engine |
 * | | `{feedback}` | the Evaluator's `Verdict.feedback` | engine |
 *
 * The reflector's examples are under `reflectionExamples`, not `examples`,
 * because both templates draw their variables from one map.
 *
 * One Actor template serves both strategies: with no memory `{memory}` renders
 * empty, so trial 1 is the same prompt under `none` and `reflexion` (unlike the
 * reference, whose two templates differ even at trial 1; §11 item 14). The
 * Actor prompt ends with `Thought n:`; the Reflector prompt ends with `Reflection:`.
 */

/** The line that closes the Actor's few-shot examples; the memory block follows it. */
export const END_OF_EXAMPLES_MARKER = "(END OF EXAMPLES)";

/** Default Actor template (`qa/react-actor`, version 1). */
export const qaActorTemplate: PromptTemplate = {
  id: "qa/react-actor",
  version: 1,
  text: [
    "Answer the question below by working in steps. Each step has three parts: a Thought, where you reason about what you know and what is still missing; an Action; and an Observation, which the environment writes in reply. There are three kinds of Action:",
    "(1) Search[entity] returns the text of the page titled entity. If no page has that title, it lists up to five titles that come close, and you can search one of them instead.",
    "(2) Lookup[keyword] returns the next sentence containing keyword on the page that your last successful Search returned. Repeating the same Lookup moves on to the following match.",
    "(3) Finish[answer] submits answer as your final answer and ends the task. Keep it short: a name, a number, a date, or yes or no.",
    "Write one Thought and one Action per step, then stop and wait for the Observation.",
    "Here are some examples:",
    "{examples}",
    `${END_OF_EXAMPLES_MARKER}`,
    "",
    "{memory}Question: {question}{scratchpad}",
  ].join("\n"),
};

/** Default Self-Reflection template (`qa/reflect`, version 1). */
export const qaReflectorTemplate: PromptTemplate = {
  id: "qa/reflect",
  version: 1,
  text: [
    "You are an agent that improves by reflecting on its own attempts. In a previous trial you tried to answer a question with a small document store, using the actions Search[entity], Lookup[keyword] and Finish[answer]. That trial failed: either the answer you gave with Finish[answer] was wrong, or you ran out of steps before giving one. In a few complete sentences, diagnose the most likely reason for the failure, then write a new, concise, high-level plan that avoids it. Refer to the specific searches or answers that went wrong. Write only the reflection.",
    "Here are some examples:",
    "{reflectionExamples}",
    "",
    "Previous trial:",
    "Question: {question}{scratchpad}",
    "",
    "Evaluator: {feedback}",
    "",
    "Reflection:",
  ].join("\n"),
};

/** Stop sequences for the Actor call: the model must not write the Observation itself. */
export const actorStopSequences: string[] = ["\nObservation"];

/** Newlines and runs of whitespace become one space; the ends are trimmed. */
function oneLine(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}

/** ` text` after a label, or nothing when the text is empty. */
function afterLabel(text: string): string {
  const line = oneLine(text);
  return line === "" ? "" : ` ${line}`;
}

/**
 * Renders steps as the ReAct scratchpad: for each step
 * `\nThought n: …\nAction n: …\nObservation n: …` (n = `step.step`). Newlines
 * inside texts become spaces so every entry stays on its own line; an empty text
 * leaves the bare label (`Thought 2:`). Empty input renders `""`.
 */
export function renderTrajectory(steps: readonly TrajectoryStep[]): string {
  return steps
    .map(
      (step) =>
        `\nThought ${step.step}:${afterLabel(step.thought)}` +
        `\nAction ${step.step}:${afterLabel(step.actionText)}` +
        `\nObservation ${step.step}:${afterLabel(step.observation)}`,
    )
    .join("");
}

/**
 * What the engine appends to the trajectory before Actor step `step`:
 * `"\nThought ${step}:"`, with its leading newline and no trailing space. The
 * engine builds `{scratchpad}` as `renderTrajectory(steps) + stepPrefix(step)`
 * (lib/engine/prompts.ts), so the Actor prompt ends with `Thought n:` on its own line.
 */
export function stepPrefix(step: number): string {
  return `\nThought ${step}:`;
}

/**
 * The Actor's `{scratchpad}` before step `nextStep`, exactly as the engine builds
 * it: `renderTrajectory(steps) + stepPrefix(nextStep)` (for step 1: `"\nThought 1:"`).
 */
export function renderScratchpad(steps: readonly TrajectoryStep[], nextStep: number): string {
  return renderTrajectory(steps) + stepPrefix(nextStep);
}

/** The sentence that introduces the reflections in the Actor prompt. */
export const MEMORY_HEADER =
  "You have attempted this question before and failed. The reflections below are your own notes on what went wrong, with a plan to avoid making the same mistake again.";

/**
 * Renders the episodic memory for the Actor's `{memory}` slot: `""` when there is
 * no item with text; otherwise {@link MEMORY_HEADER} + `\nReflections:\n` + one
 * `- <text>` bullet per item (oldest first, each on one line, empty items
 * skipped) + a blank line, so `{memory}Question:` reads well either way.
 */
export function renderMemory(memory: readonly MemoryItem[]): string {
  const bullets = memory.map((item) => oneLine(item.text)).filter((text) => text !== "");
  if (bullets.length === 0) return "";
  return `${MEMORY_HEADER}\nReflections:\n${bullets.map((text) => `- ${text}`).join("\n")}\n\n`;
}

/** The Actor's few-shot examples as one string (`Question: …` + trajectory, blank line between). */
export const ACTOR_EXAMPLES_TEXT = qaActorExamples
  .map((example) => `Question: ${example.question}${renderTrajectory(example.steps)}`)
  .join("\n\n");

/** The Reflector's examples as one string, each shaped like the live part of the prompt. */
export const REFLECTION_EXAMPLES_TEXT = qaReflectionExamples
  .map(
    (example) =>
      `Previous trial:\nQuestion: ${example.question}${renderTrajectory(example.steps)}\n\nEvaluator: ${example.feedback}\n\nReflection: ${example.reflection}`,
  )
  .join("\n\n");

/**
 * The task's values for the templates: `{ question, examples, reflectionExamples }`.
 * The question is put on one line, so the prompt's last `Question:` line holds all of it.
 */
export function qaPromptVariables(task: QaTask): Record<string, string> {
  return {
    question: oneLine(task.question),
    examples: ACTOR_EXAMPLES_TEXT,
    reflectionExamples: REFLECTION_EXAMPLES_TEXT,
  };
}
