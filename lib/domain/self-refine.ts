import type { RunConfig } from "./config";
import type { TrialView } from "./fold-run";
export type { RefinementView } from "./fold-run";
import { methodDescriptor } from "@/lib/methods/registry";

/**
 * Self-Refine's loop within one trial (Madaan et al. 2023, §2 and Algorithm 1): after the Actor's
 * answer `y0`, round r asks the same model for feedback `fb_r` on the current answer and, unless the
 * feedback says there is nothing left to fix, for a refined answer `y_r`; at most k rounds. The
 * engine (lib/engine/decide.ts) places the next call with {@link nextRefineAction} from the folded
 * log alone, so a run stopped between a feedback and its refinement resumes with the refinement.
 * docs/decisions/0037-self-refine.md.
 */

/**
 * The stop phrase every feedback template asks the model to write when the answer needs no change
 * (the paper's stop indicator, §2 "stop(fb_t, t)"). Matched case-insensitively anywhere in the
 * feedback ({@link feedbackSaysStop}).
 */
export const REFINE_STOP_PHRASE = "NO MORE FEEDBACK";

/** The last line of the built-in feedback templates: the model writes its feedback after it. */
export const FEEDBACK_PROMPT_END = "Feedback:";

/** The last line of the built-in refine templates: the model writes the improved answer after it. */
export const REFINE_PROMPT_END = "Improved answer:";

/** Where the built-in feedback and refine templates put the answer under review (the demo model reads it back). */
export const REFINE_ANSWER_LABEL = "Answer to review:";

/** Where the built-in refine templates put the feedback. */
export const REFINE_FEEDBACK_LABEL = "Feedback on it:";

/** Whether a feedback text says the answer needs no more change: it contains {@link REFINE_STOP_PHRASE}, in any case. */
export function feedbackSaysStop(text: string): boolean {
  return text.toUpperCase().includes(REFINE_STOP_PHRASE);
}

/**
 * How many feedback → refine rounds a trial of this run may have: the run's `refineRounds`, else the
 * method's `trial.refine.maxRounds`; 0 for a method that does not refine.
 */
export function refineRoundsOf(config: Pick<RunConfig, "strategy" | "refineRounds">): number {
  const refine = methodDescriptor(config.strategy).trial.refine;
  if (refine === null) return 0;
  return config.refineRounds ?? refine.maxRounds;
}

/** The next Self-Refine call of an open trial, or `done` with the answer the Evaluator judges. */
export type RefineStep = { kind: "feedback"; round: number } | { kind: "refine"; round: number } | { kind: "done"; answer: string | null };

/**
 * Where a finished trial's refinement stands. `actorAnswer` is the answer the Actor's final action
 * submitted; without one (halted, or a family whose trials end in a world state) nothing is refined.
 * - no round yet → feedback on round 1;
 * - the last round has feedback but no answer → done if the feedback said stop, else refine it;
 * - the last round has its answer → done after `rounds` rounds, else feedback on the next round.
 * `done.answer` is the last refined answer, or the Actor's when no round wrote one.
 */
export function nextRefineAction(trial: Pick<TrialView, "refinements">, actorAnswer: string | null, rounds: number): RefineStep {
  if (actorAnswer === null || rounds <= 0) return { kind: "done", answer: actorAnswer };
  const answer = refinedAnswer(trial) ?? actorAnswer;
  const last = trial.refinements.at(-1);
  if (last === undefined) return { kind: "feedback", round: 1 };
  if (last.answer === null) {
    if (last.feedback === null || last.feedback.stop) return { kind: "done", answer };
    return { kind: "refine", round: last.round };
  }
  if (last.round >= rounds) return { kind: "done", answer };
  return { kind: "feedback", round: last.round + 1 };
}

/** The last refined answer of a trial, or null when no round wrote one. */
export function refinedAnswer(trial: Pick<TrialView, "refinements">): string | null {
  for (let i = trial.refinements.length - 1; i >= 0; i -= 1) {
    const answer = trial.refinements[i]!.answer;
    if (answer !== null) return answer.text;
  }
  return null;
}

/** The generic feedback template, for a family without its own (`refineTemplates`): `{task}` is the task's one-line summary. */
export const GENERIC_FEEDBACK_TEMPLATE = {
  id: "generic/self-refine-feedback",
  version: 1,
  text: `You are reviewing an answer to a task. Point out concretely what is wrong or missing in it, and how to fix it. If the answer is correct and complete, write only "${REFINE_STOP_PHRASE}".

Task: {task}

${REFINE_ANSWER_LABEL}
{answer}

${FEEDBACK_PROMPT_END}`,
};

/** The generic refine template: `{feedback}` is the round's feedback. */
export const GENERIC_REFINE_TEMPLATE = {
  id: "generic/self-refine-refine",
  version: 1,
  text: `You are improving an answer to a task using feedback on it. Write only the improved answer, nothing else.

Task: {task}

${REFINE_ANSWER_LABEL}
{answer}

${REFINE_FEEDBACK_LABEL}
{feedback}

${REFINE_PROMPT_END}`,
};

/**
 * The answer a prompt built from the built-in feedback or refine templates puts under review: the
 * text after the last {@link REFINE_ANSWER_LABEL}, up to the feedback label or the prompt's end
 * marker; null when the prompt has no such label (an edited template). The demo model reads it.
 */
export function reviewedAnswerOf(prompt: string): string | null {
  const start = prompt.lastIndexOf(REFINE_ANSWER_LABEL);
  if (start === -1) return null;
  const rest = prompt.slice(start + REFINE_ANSWER_LABEL.length);
  const ends = [rest.indexOf(REFINE_FEEDBACK_LABEL), rest.lastIndexOf(FEEDBACK_PROMPT_END), rest.lastIndexOf(REFINE_PROMPT_END)].filter((at) => at !== -1);
  return rest.slice(0, ends.length === 0 ? undefined : Math.min(...ends)).trim();
}

/** The feedback a prompt built from a built-in refine template carries (after {@link REFINE_FEEDBACK_LABEL}); null without one. */
export function feedbackInRefinePrompt(prompt: string): string | null {
  const start = prompt.lastIndexOf(REFINE_FEEDBACK_LABEL);
  if (start === -1) return null;
  const rest = prompt.slice(start + REFINE_FEEDBACK_LABEL.length);
  const end = rest.lastIndexOf(REFINE_PROMPT_END);
  return rest.slice(0, end === -1 ? undefined : end).trim();
}
