import type { ActionParse, MemoryRenderOptions, StepCompletion, TrajectoryStep } from "@/lib/domain/environment";
import type { ChatMessage, MemoryItem } from "@/lib/domain/events";
import { JUDGE_SCALE_MAX, type JudgeVerdict } from "@/lib/domain/judge";
import { findLineLabel, takeTaggedBlocks } from "@/lib/domain/linear-text";
import type { OpenTask } from "./task";

/**
 * Prompts of the `open` family, all written by us for this project. The
 * Actor keeps the ReAct shape with one action: `Thought 1: <plan>` then `Action 1: Finish[<the
 * whole answer>]` (the answer may span lines and ends at the last `]`); anything else is an
 * invalid action and the trial's second step asks again. The Actor never sees the rubric or the
 * reference notes: what the judge wants reaches it only through the reflections (docs/decisions/0025).
 */

/** Marks the end of the Actor prompt's example; the demo script reads the memory after it. */
export const OPEN_END_OF_EXAMPLES = "(END OF EXAMPLES)";
/** The label before the task's prompt in the Actor and Self-Reflection prompts. */
export const OPEN_TASK_LABEL = "Task:";
/** Where the judge template puts the answer it grades, between these two lines. */
export const ANSWER_OPEN = "<<<ANSWER";
export const ANSWER_CLOSE = "ANSWER>>>";
/** The judge template's instruction sentence; the demo judge recognises a judge prompt by it. */
export const JUDGE_INSTRUCTION = "You are grading an answer against a rubric.";

const MEMORY_HEADER = "You have attempted this task before and a judge did not pass your answer. The following reflection(s) say what to do differently this time; follow them in your answer.";

/** The Actor template: one worked example, the memory, the task and the scratchpad. */
export const openActorTemplate = {
  id: "open/actor",
  version: 1,
  text: [
    "Answer an open task. Think briefly about what a good answer needs, then give the whole answer in one action.",
    "Write exactly: Thought 1: <your plan> and on the next line Action 1: Finish[<your whole answer>]. The answer may span several lines; it ends at the last ].",
    "Here is an example:",
    "Task: Suggest a name for a cat-sitting app in three words or fewer.",
    "Thought 1: It should be short, friendly and say what the app does.",
    "Action 1: Finish[Whisker Watch]",
    "Observation 1: Answer submitted for judging.",
    OPEN_END_OF_EXAMPLES,
    "",
    "{memory}Task: {prompt}{scratchpad}",
  ].join("\n"),
};

/** The Self-Reflection template: the failed answer and the judge's per-criterion feedback. */
export const openReflectorTemplate = {
  id: "open/reflect",
  version: 1,
  text: [
    "You are an agent that improves by reflecting on its own attempts. In a previous trial you answered the task below; a judge scored your answer against a rubric you could not see, and it did not pass.",
    "Read the judge's per-criterion feedback. In two or three sentences name what your answer missed (the criteria scored low, and why) and say concretely what the next answer will do differently. Write only the reflection.",
    "",
    "Task: {prompt}{scratchpad}",
    "",
    "Judge's feedback:",
    "{feedback}",
    "",
    "Reflection:",
  ].join("\n"),
};

/** The judge template (role `evaluator`): the task, the judge-only notes, the rubric, the answer, and the JSON reply shape. */
export const openJudgeTemplate = {
  id: "open/judge",
  version: 1,
  text: [
    JUDGE_INSTRUCTION,
    "Score the answer on each criterion from 0 (not met at all) to {scaleMax} (fully met), judging only what the answer says. For each criterion write a one-line justification that names what is there or what is missing.",
    "",
    "Task given to the writer:",
    "{prompt}",
    "",
    "Notes for the grader (the writer did not see them):",
    "{referenceNotes}",
    "",
    "Rubric (criterion id, weight, what it asks):",
    "{criteria}",
    "",
    "The answer to grade:",
    ANSWER_OPEN,
    "{answer}",
    ANSWER_CLOSE,
    "",
    'Reply with one JSON object and nothing else, in exactly this shape, one entry per criterion id: {"scores":[{"criterion":"<id>","score":<0-{scaleMax}>,"justification":"<one line>"}]}',
    "JSON:",
  ].join("\n"),
};

/** The placeholders {@link buildJudgeMessages} fills, sorted. */
export const JUDGE_VARIABLE_NAMES: readonly string[] = ["answer", "criteria", "prompt", "referenceNotes", "scaleMax"];

/** The rubric as the judge template's `{criteria}` lines: `- <id> (weight <w>): <description>`. */
export function renderCriteria(task: OpenTask): string {
  return task.rubric.criteria.map((criterion) => `- ${criterion.id} (weight ${criterion.weight}): ${criterion.description}`).join("\n");
}

/** Fills `{name}` placeholders that `values` has; others are left as written (the engine's rule, lib/engine/render-template.ts). */
function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([A-Za-z][A-Za-z0-9_]*)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The judge's first request: the judge template filled for `task` and `answer`, as one user message. */
export function buildJudgeMessages(templateText: string, task: OpenTask, answer: string): ChatMessage[] {
  const content = fill(templateText, {
    prompt: task.prompt,
    referenceNotes: task.referenceNotes?.trim() ? task.referenceNotes.trim() : "(none)",
    criteria: renderCriteria(task),
    answer,
    scaleMax: String(JUDGE_SCALE_MAX),
  });
  return [{ role: "user", content }];
}

/** The judge asked again once after an unreadable answer: the first exchange, then what was wrong and the shape again. */
export function buildJudgeReask(first: readonly ChatMessage[], firstAnswer: string, problem: string, task: OpenTask): ChatMessage[] {
  const ids = task.rubric.criteria.map((criterion) => `"${criterion.id}"`).join(", ");
  return [
    ...first,
    { role: "assistant", content: firstAnswer },
    {
      role: "user",
      content: `Your reply could not be read: ${problem}. Reply again with only the JSON object, no other text, one entry for each of ${ids}: {"scores":[{"criterion":"<id>","score":<0-${JUDGE_SCALE_MAX}>,"justification":"<one line>"}]}`,
    },
  ];
}

/**
 * The Evaluator's feedback for a judged trial, as the Self-Reflection prompt's `{feedback}` reads it:
 * a summary line, then `- <id> (weight <w>): <raw>/5 — <justification>` per criterion.
 */
export function renderJudgeFeedback(judge: Pick<JudgeVerdict, "criteria" | "weightedScore" | "threshold">, verdict: "pass" | "fail"): string {
  const relation = verdict === "pass" ? "reaching" : "below";
  const lines = judge.criteria.map((criterion) => `- ${criterion.id} (weight ${criterion.weight}): ${criterion.rawScore}/${JUDGE_SCALE_MAX} — ${criterion.justification || "(no justification)"}`);
  return [`Judge (a model's opinion): weighted score ${judge.weightedScore.toFixed(2)}, ${relation} the pass threshold ${judge.threshold.toFixed(2)}.`, ...lines].join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}

/** The reflections block for `{memory}`; empty without reflections. */
export function renderOpenMemory(memory: readonly MemoryItem[], _options: MemoryRenderOptions = {}): string {
  const bullets = memory.map((item) => oneLine(item.text)).filter((text) => text !== "");
  if (bullets.length === 0) return "";
  return `${MEMORY_HEADER}\nReflections:\n${bullets.map((text) => `- ${text}`).join("\n")}\n\n`;
}

/** The scratchpad: `\nThought n: …\nAction n: …\nObservation n: …` per recorded step. */
export function renderOpenTrajectory(steps: readonly TrajectoryStep[]): string {
  return steps
    .map((step) => `\nThought ${step.step}: ${oneLine(step.thought)}\nAction ${step.step}: ${step.actionText.trim()}\nObservation ${step.step}: ${oneLine(step.observation)}`)
    .join("");
}

/** The label the Actor's completion follows: `\nThought n:`. */
export function openStepPrefix(step: number): string {
  return `\nThought ${step}:`;
}

/** The Actor must not write the Observation itself. */
export const openActorStopSequences: string[] = ["\nObservation"];

/**
 * Splits an Actor completion: reasoning blocks apart, the thought before the `Action n:` label
 * (or before `Finish[` when the label is missing), the action after it — all of it, since an
 * answer may span lines — up to any `Observation` the model wrote itself (dropped as ignored).
 * Linear in the completion (lib/domain/linear-text.ts): no regex here retries over the whole text.
 */
export function splitOpenCompletion(completion: string): StepCompletion {
  const taken = takeTaggedBlocks(completion);
  const reasoning = taken.blocks.map((block) => block.trim()).join("\n\n");
  let text = taken.text;
  let ignored: string | undefined;
  const observation = findLineLabel(text, "Observation", false);
  if (observation) {
    ignored = text.slice(observation.index).trim();
    text = text.slice(0, observation.index);
  }
  const label = findLineLabel(text, "Action", true);
  const cut = label ? { at: label.index, after: label.end } : (() => {
    const finish = text.search(/Finish\s*\[/);
    return finish === -1 ? null : { at: finish, after: finish };
  })();
  const thoughtPart = cut ? text.slice(0, cut.at) : text;
  const thought = thoughtPart.replace(/^\s*Thought\s*(?:\d+\s*)?:/i, "").trim();
  const actionText = cut ? text.slice(cut.after).trim() : "";
  return { thought, actionText, ...(reasoning ? { reasoning } : {}), ...(ignored ? { ignored } : {}) };
}

/** The one valid action, for messages. */
export const OPEN_ACTION_FORM = "Finish[<your whole answer>]";

/** Total parser of the Actor's action: `Finish[answer]` (the answer runs to the last `]`, may span lines); anything else is an error. */
export function parseOpenAction(actionText: string): ActionParse {
  const text = actionText.trim();
  const open = /^Finish\s*\[/i.exec(text);
  const close = text.lastIndexOf("]");
  if (!open || close < open[0].length) {
    return { ok: false, error: `Invalid Action. Valid action: ${OPEN_ACTION_FORM}.`, text };
  }
  const argument = text.slice(open[0].length, close).trim();
  if (argument === "") return { ok: false, error: `Empty answer. Valid action: ${OPEN_ACTION_FORM}.`, text };
  const rest = text.slice(close + 1).trim();
  return { ok: true, action: { type: "Finish", argument }, text, ...(rest ? { ignored: rest } : {}) };
}
