import type { PromptTemplate, Strategy } from "@/lib/domain/config";
import type { MemoryRenderOptions, StrategyTemplates, TrajectoryStep } from "@/lib/domain/environment";
import type { MemoryItem } from "@/lib/domain/events";
import { fitLastAttempt } from "@/lib/domain/trajectory-budget";
import { finishObservation } from "./environment";
import {
  qaActorExamples,
  qaCotContextExamples,
  qaCotContextReflectionExamples,
  qaCotExamples,
  qaCotReflectionExamples,
  qaReflectionExamples,
  type QaContextParagraph,
  type QaCotExample,
  type QaCotReflectionExample,
} from "./prompt-examples";
import { joinSentences, type QaTask } from "./task";

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
 * One Actor template serves `none`, `reflexion`, `last-attempt` and
 * `last-attempt-and-reflexion`: with no memory `{memory}` renders empty, so
 * trial 1 is the same prompt under all four (unlike the reference, whose
 * templates differ even at trial 1; §11 item 14). The engine fills `{memory}`
 * with {@link renderLastAttempt} (previous trial, EPM strategies) followed by
 * {@link renderMemory} (reflections). The Actor prompt ends with `Thought n:`;
 * the Reflector prompt ends with `Reflection:`.
 *
 * The chain-of-thought strategies have templates of their own
 * ({@link qaTemplatesFor}; docs/decisions/0008-strategies.md):
 *
 * | template | placeholders |
 * |---|---|
 * | actor `qa/cot-actor` v1 (`cot`) | `{examples}` (closed-book CoT examples), `{memory}`, `{question}`, `{scratchpad}` |
 * | actor `qa/cot-context-actor` v1 (`cot-gold-context`) | as above with the with-context examples, plus `{context}` (the supporting paragraphs) |
 * | reflector `qa/cot-reflect` v1 (`cot`) | `{reflectionExamples}` (CoT reflections), `{question}`, `{scratchpad}`, `{feedback}` |
 * | reflector `qa/cot-context-reflect` v1 (`cot-gold-context`) | as above, plus `{context}` |
 *
 * {@link qaPromptVariables}`(task, strategy)` gives `examples` and
 * `reflectionExamples` for the strategy, and `context` under `cot-gold-context`.
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

/** Closes the previous trial's block in the Actor prompt (reference wording, §1.1). */
export const END_PREVIOUS_TRIAL_MARKER = "(END PREVIOUS TRIAL)";

/** The sentence that introduces the previous trial under `last-attempt` and `last-attempt-and-reflexion`. */
export const LAST_ATTEMPT_HEADER =
  "You have attempted this question before and failed. Below is your last attempt in full, so that you can see what you did.";

/** What replaces an observation cut to fit the previous trial into `LAST_ATTEMPT_TOKEN_BUDGET` tokens. */
export const TRUNCATED_OBSERVATION = "[truncated page excerpt]";

/**
 * The shorter header of the reflections when they follow the previous trial
 * (`last-attempt-and-reflexion`): the previous-trial header already said that
 * the question was attempted and failed (reference §2.7).
 */
export function reflectionsHeaderAfterLastAttempt(count: number): string {
  return count === 1
    ? "The reflection below is your own note on what went wrong, with a plan to avoid making the same mistake again."
    : "The reflections below are your own notes on what went wrong, with a plan to avoid making the same mistake again.";
}

/**
 * Renders the episodic memory for the Actor's `{memory}` slot: `""` when there is
 * no item with text; otherwise the header + `\nReflections:\n` + one `- <text>`
 * bullet per item (oldest first, each on one line, empty items skipped) + a
 * blank line, so `{memory}Question:` reads well either way. The header is
 * {@link MEMORY_HEADER}, or {@link reflectionsHeaderAfterLastAttempt} when
 * `options.afterLastAttempt` (the previous trial's block comes first).
 */
export function renderMemory(memory: readonly MemoryItem[], options: MemoryRenderOptions = {}): string {
  const bullets = memory.map((item) => oneLine(item.text)).filter((text) => text !== "");
  if (bullets.length === 0) return "";
  const header = options.afterLastAttempt ? reflectionsHeaderAfterLastAttempt(bullets.length) : MEMORY_HEADER;
  return `${header}\nReflections:\n${bullets.map((text) => `- ${text}`).join("\n")}\n\n`;
}

/**
 * The previous trial's block for `{memory}` (`last-attempt`,
 * `last-attempt-and-reflexion`; the paper's EPM, reference §1.1, §2.7):
 * {@link LAST_ATTEMPT_HEADER}, `Question: <question>`, the trial's trajectory
 * as {@link renderTrajectory} renders it, {@link END_PREVIOUS_TRIAL_MARKER}, a
 * blank line. While the rendered trajectory is longer than
 * `LAST_ATTEMPT_TOKEN_BUDGET` tokens (the reference's 1600; `budgetTokens`, lib/domain/tokenizer.ts),
 * the longest observation is replaced by {@link TRUNCATED_OBSERVATION}.
 */
export function renderLastAttempt(task: QaTask, steps: readonly TrajectoryStep[]): string {
  const kept = fitLastAttempt(steps, renderTrajectory, TRUNCATED_OBSERVATION);
  return `${LAST_ATTEMPT_HEADER}\nQuestion: ${oneLine(task.question)}${renderTrajectory(kept)}\n${END_PREVIOUS_TRIAL_MARKER}\n\n`;
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

/** The label before the supporting paragraphs in the `cot-gold-context` prompts. */
export const CONTEXT_LABEL = "Relevant Context:";

/**
 * A phrase that the instructions of all four chain-of-thought templates contain
 * and the ReAct ones do not (the demo model tells the two apart by it).
 */
export const COT_NO_TOOLS_PHRASE = "without any tools";

/** Actor template of `cot` (`qa/cot-actor`, version 1): closed book, one Thought, then Finish. */
export const qaCotActorTemplate: PromptTemplate = {
  id: "qa/cot-actor",
  version: 1,
  text: [
    `Answer the question below from what you already know, ${COT_NO_TOOLS_PHRASE}: you cannot search or look anything up. Write a single Thought in which you reason step by step towards the answer, then a single Action, Finish[answer], which submits your final answer and ends the attempt. Finish is the only action. Keep the answer short: a name, a number, a date, or yes or no.`,
    "Here are some examples:",
    "{examples}",
    `${END_OF_EXAMPLES_MARKER}`,
    "",
    "{memory}Question: {question}{scratchpad}",
  ].join("\n"),
};

/** Actor template of `cot-gold-context` (`qa/cot-context-actor`, version 1): the supporting paragraphs, one Thought, then Finish. */
export const qaCotContextActorTemplate: PromptTemplate = {
  id: "qa/cot-context-actor",
  version: 1,
  text: [
    `Answer the question below using the relevant context given with it, ${COT_NO_TOOLS_PHRASE}: everything you need is in the context. Write a single Thought in which you reason step by step over the context, then a single Action, Finish[answer], which submits your final answer and ends the attempt. Finish is the only action. Keep the answer short: a name, a number, a date, or yes or no.`,
    "Here are some examples:",
    "{examples}",
    `${END_OF_EXAMPLES_MARKER}`,
    "",
    `{memory}${CONTEXT_LABEL}`,
    "{context}",
    "Question: {question}{scratchpad}",
  ].join("\n"),
};

/** What the CoT reflection instructions say about exact match and phrasing (reference §2.8: "phrasing discrepancy"). */
const EXACT_MATCH_NOTE =
  "Answers are scored by exact match against an answer key, so a trial fails in one of two ways: your reasoning led to a wrong answer, or your answer was right in substance but worded differently from the key (a phrasing discrepancy: a whole sentence instead of a name, an extra detail, part of a name, another unit or date format).";

/** Self-Reflection template of `cot` (`qa/cot-reflect`, version 1). */
export const qaCotReflectorTemplate: PromptTemplate = {
  id: "qa/cot-reflect",
  version: 1,
  text: [
    `You are an agent that improves by reflecting on its own attempts. In a previous trial you answered a question from what you already know, ${COT_NO_TOOLS_PHRASE}: you reasoned in one Thought and answered with Finish[answer]. That trial failed. ${EXACT_MATCH_NOTE} In a few complete sentences, diagnose the most likely reason for the failure, then write a new, concise, high-level plan that avoids it. Write only the reflection.`,
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

/** Self-Reflection template of `cot-gold-context` (`qa/cot-context-reflect`, version 1): the context is shown again. */
export const qaCotContextReflectorTemplate: PromptTemplate = {
  id: "qa/cot-context-reflect",
  version: 1,
  text: [
    `You are an agent that improves by reflecting on its own attempts. In a previous trial you answered a question using the relevant context given with it, ${COT_NO_TOOLS_PHRASE}: you reasoned in one Thought and answered with Finish[answer]. That trial failed. ${EXACT_MATCH_NOTE} In a few complete sentences, diagnose the most likely reason for the failure, then write a new, concise, high-level plan that avoids it. Write only the reflection.`,
    "Here are some examples:",
    "{reflectionExamples}",
    "",
    "Previous trial:",
    CONTEXT_LABEL,
    "{context}",
    "Question: {question}{scratchpad}",
    "",
    "Evaluator: {feedback}",
    "",
    "Reflection:",
  ].join("\n"),
};

/** The templates of each QA strategy: the CoT ones for `cot` and `cot-gold-context`, the ReAct defaults otherwise. */
export function qaTemplatesFor(strategy: Strategy): StrategyTemplates {
  switch (strategy) {
    case "cot":
      return { actor: qaCotActorTemplate, reflector: qaCotReflectorTemplate };
    case "cot-gold-context":
      return { actor: qaCotContextActorTemplate, reflector: qaCotContextReflectorTemplate };
    default:
      return { actor: qaActorTemplate, reflector: qaReflectorTemplate };
  }
}

/** Context paragraphs one per line, `Title: text`. */
export function renderContext(paragraphs: readonly QaContextParagraph[]): string {
  return paragraphs.map((paragraph) => `${oneLine(paragraph.title)}: ${oneLine(paragraph.text)}`).join("\n");
}

/**
 * The gold context of a task (`{context}` under `cot-gold-context`): the
 * paragraphs named in `supportingTitles`, in that order, each title once
 * (the reference repeats a paragraph once per supporting sentence, §2.1; we
 * do not), rendered by {@link renderContext}. A task without supporting
 * titles gets all its paragraphs, so the prompt never lacks a context.
 */
export function goldContext(task: QaTask): string {
  const titles = [...new Set(task.supportingTitles)];
  const supporting = titles.flatMap((title) => task.paragraphs.filter((paragraph) => paragraph.title === title).slice(0, 1));
  const chosen = supporting.length > 0 ? supporting : task.paragraphs;
  return renderContext(chosen.map((paragraph) => ({ title: paragraph.title, text: joinSentences(paragraph.sentences) })));
}

/** A CoT example's one step, as the live scratchpad would show it after Finish. */
function cotStep(example: QaCotExample): TrajectoryStep {
  return { step: 1, thought: example.thought, actionText: `Finish[${example.answer}]`, observation: finishObservation(example.answer) };
}

/** `Relevant Context:` + paragraphs + newline for a with-context example; `""` for a closed-book one. */
function contextLines(example: QaCotExample): string {
  return example.context.length === 0 ? "" : `${CONTEXT_LABEL}\n${renderContext(example.context)}\n`;
}

/**
 * CoT Actor examples as one string: `[Relevant Context:\n…\n]Question: …\nThought 1: …\nAction 1: Finish[…]`,
 * blank line between (no Observation: the one step ends with the answer).
 */
function cotExamplesText(examples: readonly QaCotExample[]): string {
  return examples
    .map((example) => {
      const step = cotStep(example);
      return `${contextLines(example)}Question: ${example.question}\nThought 1:${afterLabel(step.thought)}\nAction 1: ${step.actionText}`;
    })
    .join("\n\n");
}

/** CoT reflection examples as one string, each shaped like the live part of the CoT reflector prompt. */
function cotReflectionExamplesText(examples: readonly QaCotReflectionExample[]): string {
  return examples
    .map(
      (example) =>
        `Previous trial:\n${contextLines(example)}Question: ${example.question}${renderTrajectory([cotStep(example)])}\n\nEvaluator: ${example.feedback}\n\nReflection: ${example.reflection}`,
    )
    .join("\n\n");
}

/** The closed-book CoT examples (`cot`). */
export const COT_EXAMPLES_TEXT = cotExamplesText(qaCotExamples);
/** The with-context CoT examples (`cot-gold-context`). */
export const COT_CONTEXT_EXAMPLES_TEXT = cotExamplesText(qaCotContextExamples);
/** The closed-book CoT reflection examples (`cot`). */
export const COT_REFLECTION_EXAMPLES_TEXT = cotReflectionExamplesText(qaCotReflectionExamples);
/** The with-context CoT reflection examples (`cot-gold-context`). */
export const COT_CONTEXT_REFLECTION_EXAMPLES_TEXT = cotReflectionExamplesText(qaCotContextReflectionExamples);

/**
 * The task's values for the templates of `strategy`: `{ question, examples,
 * reflectionExamples }` with the ReAct examples (no strategy, or a ReAct
 * strategy), the closed-book CoT ones (`cot`), or the with-context CoT ones plus
 * `context` = {@link goldContext} (`cot-gold-context`). The question is put on
 * one line, so the prompt's last `Question:` line holds all of it.
 */
export function qaPromptVariables(task: QaTask, strategy?: Strategy): Record<string, string> {
  const question = oneLine(task.question);
  switch (strategy) {
    case "cot":
      return { question, examples: COT_EXAMPLES_TEXT, reflectionExamples: COT_REFLECTION_EXAMPLES_TEXT };
    case "cot-gold-context":
      return {
        question,
        examples: COT_CONTEXT_EXAMPLES_TEXT,
        reflectionExamples: COT_CONTEXT_REFLECTION_EXAMPLES_TEXT,
        context: goldContext(task),
      };
    default:
      return { question, examples: ACTOR_EXAMPLES_TEXT, reflectionExamples: REFLECTION_EXAMPLES_TEXT };
  }
}
