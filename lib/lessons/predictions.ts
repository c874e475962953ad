import type { RunEvent } from "@/lib/domain/events";
import type { LessonQuestion } from "./lesson-schema";
import { findLessonEvent, LessonResolveError } from "./resolve-lesson";

/**
 * Predict, then reveal: a lesson question's choices, its answer and
 * the cursor that reveals it, all derived from the run's log — a lesson file names
 * only what to ask. Pure.
 */

/** One choice: `id` is stable (what is recorded), `label` is what the learner reads. */
export interface PredictionChoice {
  id: string;
  label: string;
}

/** A question ready to ask: choices in a fixed order, the right one, and where the answer shows. */
export interface DerivedPrediction {
  choices: PredictionChoice[];
  /** Id of the right choice. */
  answer: string;
  /** The cursor (events shown) that reveals the answer; the question is asked before it. */
  revealCursor: number;
  /** What the log says, in words ("The Evaluator: FAIL"), shown with the explanation. */
  fact: string;
}

function actionText(event: RunEvent | undefined): string | null {
  return event?.type === "step-action" ? event.data.text.trim() : null;
}

/** Deterministic, input-order-independent ordering: the right answer is not always first (FNV-1a of the label). */
function stableOrder(labels: readonly string[]): string[] {
  const hash = (text: string) => {
    let value = 0x811c9dc5;
    for (const char of text) value = Math.imul(value ^ char.charCodeAt(0), 0x01000193) >>> 0;
    return value;
  };
  return [...new Set(labels)].sort((a, b) => hash(a) - hash(b) || a.localeCompare(b));
}

/**
 * Derives a question's choices and answer from `events` (the branch's whole log).
 * @throws LessonResolveError when the log does not hold what the question needs (e.g.
 *   no evaluation of that trial, a distractor equal to the logged action).
 */
export function derivePrediction(events: readonly RunEvent[], question: LessonQuestion): DerivedPrediction {
  switch (question.kind) {
    case "evaluator-verdict": {
      const index = findLessonEvent(events, { event: "evaluation", trial: question.trial });
      const event = events[index];
      if (event?.type !== "evaluation-end") throw new LessonResolveError(`The run has no evaluation of trial ${question.trial} to ask about.`);
      const verdict = question.tests === "hidden" ? event.data.hiddenTests?.verdict : event.data.verdict;
      if (verdict === undefined) throw new LessonResolveError(`Trial ${question.trial}'s evaluation has no hidden tests (only code runs do).`);
      const who = question.tests === "hidden" ? "The hidden tests" : "The Evaluator";
      return {
        choices: [
          { id: "pass", label: "Pass" },
          { id: "fail", label: "Fail" },
        ],
        answer: verdict,
        revealCursor: index + 1,
        fact: `${who}: ${verdict.toUpperCase()} (trial ${question.trial}).`,
      };
    }
    case "next-action": {
      const index = findLessonEvent(events, { event: "action", trial: question.trial, step: question.step });
      const logged = actionText(events[index]);
      if (logged === null) throw new LessonResolveError(`The run has no action at trial ${question.trial}, step ${question.step}.`);
      if (question.distractors.some((text) => text.trim() === logged)) throw new LessonResolveError(`A distractor equals the logged action "${logged}"; write a different wrong choice.`);
      const labels = stableOrder([logged, ...question.distractors.map((text) => text.trim())]);
      return {
        choices: labels.map((label, position) => ({ id: `choice-${position + 1}`, label })),
        answer: `choice-${labels.indexOf(logged) + 1}`,
        revealCursor: index + 1,
        fact: `The Actor's action: ${logged}`,
      };
    }
    case "reflection-changes-first-action": {
      const before = findLessonEvent(events, { event: "action", trial: question.trial - 1, step: 1 });
      const after = findLessonEvent(events, { event: "action", trial: question.trial, step: 1 });
      const first = actionText(events[before]);
      const second = actionText(events[after]);
      if (first === null || second === null) throw new LessonResolveError(`The run needs a first action in trials ${question.trial - 1} and ${question.trial} for this question.`);
      const changed = first !== second;
      return {
        choices: [
          { id: "changes", label: `Yes: trial ${question.trial} starts differently` },
          { id: "same", label: `No: the same first action` },
        ],
        answer: changed ? "changes" : "same",
        revealCursor: after + 1,
        fact: changed ? `Trial ${question.trial - 1} began with ${first}; trial ${question.trial} with ${second}.` : `Both trials began with ${first}.`,
      };
    }
    case "curve": {
      const start = events.find((event) => event.type === "run-start");
      const end = findLessonEvent(events, { event: "run-end" });
      const endEvent = events[end];
      if (start?.type !== "run-start" || endEvent?.type !== "run-end") throw new LessonResolveError("The run has not ended yet: a curve question needs the whole run.");
      const maxTrials = start.data.config.maxTrials;
      const trials = endEvent.data.trials;
      const solved = endEvent.data.outcome === "success";
      const choices: PredictionChoice[] = Array.from({ length: maxTrials }, (_, index) => ({ id: `trial-${index + 1}`, label: `Trial ${index + 1}` }));
      choices.push({ id: "never", label: `Not solved in this run (budget: ${maxTrials} trials)` });
      return {
        choices,
        answer: solved ? `trial-${trials}` : "never",
        revealCursor: end + 1,
        fact: solved ? `Solved in trial ${trials}.` : `Not solved: the run ended after ${trials} ${trials === 1 ? "trial" : "trials"} (${endEvent.data.outcome}).`,
      };
    }
  }
}
