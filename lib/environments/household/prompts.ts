import type { PromptTemplate } from "@/lib/domain/config";
import type { TrajectoryStep } from "@/lib/domain/environment";
import type { MemoryItem } from "@/lib/domain/events";
import { fitLastAttempt } from "@/lib/domain/trajectory-budget";
import { initialObservation } from "./feedback";
import { householdActorExamples, householdReflectionExamples } from "./prompt-examples";
import type { HouseholdTask } from "./task";

/**
 * The household family's default prompts, written for this project in the
 * structure of Reflexion's ALFWorld prompts (reference §3.2, §3.6; none of
 * their wording): instruction → two example games of the task's type →
 * memory → "Here is the task:" → the opening text → the history → `>`.
 *
 * Placeholders (`{name}`, filled by the engine with plain substitution):
 *
 * | template | placeholder | filled with | by |
 * |---|---|---|---|
 * | actor `household/react-actor` v1 | `{examples}` | the two example games of the task's type | {@link householdPromptVariables} |
 * | | `{memory}` | {@link renderMemory} of the windowed memory (`""` when none) | engine |
 * | | `{initialObservation}` | the room line and the task line | {@link householdPromptVariables} |
 * | | `{scratchpad}` | `renderTrajectory(steps) + stepPrefix(n)`, `stepPrefix(n)` = `"\n>"` | engine |
 * | reflector `household/reflect` v1 | `{reflectionExamples}` | two failed games with their reflections | {@link householdPromptVariables} |
 * | | `{initialObservation}` | as above | {@link householdPromptVariables} |
 * | | `{scratchpad}` | `renderTrajectory(steps)` of the failed trial | engine |
 * | | `{feedback}` | the Evaluator's feedback | engine |
 *
 * `{task}` (the task sentence alone) is also available. One Actor call per
 * step writes one command line (stop sequence `"\n"`): the prompt ends with
 * `>`, the model continues the line. One Actor template serves every strategy
 * the family supports (`none`, `reflexion`, `last-attempt`,
 * `last-attempt-and-reflexion`): with no memory the trial-1 prompts are
 * identical. Under the last-attempt strategies the engine puts
 * {@link renderLastAttempt} (the previous trial) before {@link renderMemory} in
 * `{memory}`. The chain-of-thought strategies are QA-only.
 */

/** The line that introduces the reflections in the Actor prompt (ALFWorld wording, reference §3.2). */
export const MEMORY_HEADER = "Your memory for the task below:";

/** Default Actor template (`household/react-actor`, version 1). */
export const householdActorTemplate: PromptTemplate = {
  id: "household/react-actor",
  version: 1,
  text: [
    "Solve a household task in a text world. Each turn, write exactly one command after the > sign; the world replies on the next line. You can also write think: followed by your reasoning, which the world answers with OK. Here are two examples of the same kind of task.",
    "{examples}",
    "",
    "{memory}Here is the task:",
    "{initialObservation}{scratchpad}",
  ].join("\n"),
};

/** Default Self-Reflection template (`household/reflect`, version 1). */
export const householdReflectorTemplate: PromptTemplate = {
  id: "household/reflect",
  version: 1,
  text: [
    'Below is one of your past attempts at a household task in a text world. It failed: the goal was not reached, or the attempt was stopped because it kept repeating itself or took too many steps. Do not describe the room. Work out where your strategy or your path went wrong, then write a short new plan that names the exact commands to use next time (for example: "I looked in A and B but never opened C; next time I will open C first."). You will read this plan before your next attempt at the same task. Here are two examples.',
    "",
    "{reflectionExamples}",
    "",
    "Previous trial:",
    "{initialObservation}{scratchpad}",
    "",
    "Evaluator: {feedback}",
    "",
    "Reflection:",
  ].join("\n"),
};

/** Stop sequences for the Actor call: one command line per call (reference §3.4). */
export const actorStopSequences: string[] = ["\n"];

/** Newlines and runs of whitespace become one space; the ends are trimmed. */
function oneLine(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}

/**
 * Renders steps ALFWorld style: `\n> <action>\n<observation>` per step (ReAct's
 * notebook layout). Actions are put on one line; an empty action renders as
 * `> ` (as in Reflexion's logs). Empty input renders `""`.
 */
export function renderTrajectory(steps: readonly TrajectoryStep[]): string {
  return steps.map((step) => `\n> ${oneLine(step.actionText)}\n${step.observation.trim()}`).join("");
}

/**
 * What the engine appends before Actor step `step`: `"\n>"`, so the prompt ends
 * with the prompt sign and the model writes the command (reference §3.2 fixes
 * the `<last observation>>` quirk this way, as ReAct's notebook does).
 */
export function stepPrefix(_step: number): string {
  return "\n>";
}

/**
 * Renders the memory for the Actor's `{memory}` slot: `""` without items that
 * have text; otherwise {@link MEMORY_HEADER}, then for each item a label and the
 * reflection on its own line, then a blank line. The label is `Trial n:` with the
 * trial the reflection came from (`MemoryItem.trial`), so at trial 6 with Ω = 3 the
 * window reads Trial 3, 4, 5 — the reference numbers by position in the window
 * (`Trial #0…`), which tells the Actor nothing true about when it learned the
 * lesson; an entry without a trial (hand-written, a summary of earlier reflections,
 * one carried over from another run) is labelled `Note:`.
 */
export function renderMemory(memory: readonly MemoryItem[]): string {
  const entries = memory.map((item) => ({ trial: item.trial, text: oneLine(item.text) })).filter((entry) => entry.text !== "");
  if (entries.length === 0) return "";
  const label = (trial: number | null) => (trial === null ? "Note:" : `Trial ${trial}:`);
  return `${MEMORY_HEADER}\n${entries.map((entry) => `${label(entry.trial)}\n${entry.text}`).join("\n")}\n\n`;
}

/** The line that introduces the previous trial under `last-attempt` and `last-attempt-and-reflexion`. */
export const LAST_ATTEMPT_HEADER = "You have tried the task below before and failed. Here is your last attempt in full:";

/** Closes the previous trial's block (the HotpotQA reference's marker, §1.1). */
export const END_PREVIOUS_TRIAL_MARKER = "(END PREVIOUS TRIAL)";

/** What replaces an observation cut to fit the previous trial into `LAST_ATTEMPT_TOKEN_BUDGET` tokens. */
export const TRUNCATED_OBSERVATION = "[truncated]";

/**
 * The previous trial's block for `{memory}` (`last-attempt`,
 * `last-attempt-and-reflexion`; ALFWorld's reference code has no such
 * strategy, so this follows the HotpotQA one, §1.1): {@link LAST_ATTEMPT_HEADER},
 * the task's opening text, the trial's history as {@link renderTrajectory}
 * renders it, {@link END_PREVIOUS_TRIAL_MARKER}, a blank line. While the
 * history is longer than `LAST_ATTEMPT_TOKEN_BUDGET` tokens (the reference's 1600; `budgetTokens`), the
 * longest observation is replaced by {@link TRUNCATED_OBSERVATION}.
 */
export function renderLastAttempt(task: HouseholdTask, steps: readonly TrajectoryStep[]): string {
  const kept = fitLastAttempt(steps, renderTrajectory, TRUNCATED_OBSERVATION);
  return `${LAST_ATTEMPT_HEADER}\n${openingText(task)}${renderTrajectory(kept)}\n${END_PREVIOUS_TRIAL_MARKER}\n\n`;
}

/** The reflection examples as one string, each shaped like the live part of the reflector prompt. */
export const REFLECTION_EXAMPLES_TEXT = householdReflectionExamples
  .map((example) => `Previous trial:\n${example.trial}\n\nEvaluator: ${example.feedback}\n\nReflection: ${example.reflection}`)
  .join("\n\n");

/** The task's opening text (room line and task line), as the Actor sees it. */
export function openingText(task: HouseholdTask): string {
  return initialObservation(
    task.scene.receptacles.map((receptacle) => receptacle.name),
    task.description,
  );
}

/**
 * The task's values for the templates: `{ initialObservation, task, examples,
 * reflectionExamples }`; `examples` are the two games of the task's type,
 * separated by a blank line.
 */
export function householdPromptVariables(task: HouseholdTask): Record<string, string> {
  return {
    initialObservation: openingText(task),
    task: task.description,
    examples: householdActorExamples[task.taskType].join("\n\n"),
    reflectionExamples: REFLECTION_EXAMPLES_TEXT,
  };
}
