import type { RunEvent } from "@/lib/domain/events";
import type { Lesson, LessonStep } from "./lesson-schema";
import { derivePrediction } from "./predictions";
import { findLessonEvent, LessonResolveError, resolveCursor, resolveNode } from "./resolve-lesson";

/**
 * No question is asked after its answer was shown — checked on the run's log (pure). A lesson
 * plays forwards: each step shows the log up to its cursor, and a question's reveal moves the
 * cursor past its answer (lib/lessons/predictions.ts). A later question is pointless once an
 * earlier step has shown what it asks. Three rules, each stated from the log:
 *
 * 1. **Shown before asked.** For every question, no earlier step's cursor or reveal reaches its
 *    answer. For a `curve` question of a solved run the answer is the first passing evaluation
 *    (not the run's end: a pass ends the loop).
 * 2. **Spotlit before asked.** No step up to a `curve` question spotlights that deciding evaluation.
 * 3. **Gold answer, then its trial.** When a solved run's answer (the deciding trial's submitted
 *    answer, e.g. *River Sallow*) is quoted in the narration, prompt or explanation of any step up
 *    to a `curve` question, that question's cursor must not show the deciding trial submitting it:
 *    knowing the gold answer and seeing it submitted answers "in which trial will it first succeed?".
 */

/** One rule broken, with the step (1-based) and what to do. */
export interface QuestionOrderProblem {
  step: number;
  message: string;
}

/**
 * The deciding evaluation of a solved run: its last trial's (the run ends at the first success), or null
 * when the run did not end in success (never solved, a false positive, not ended yet).
 */
function decidingEvaluation(events: readonly RunEvent[]): { index: number; trial: number } | null {
  const end = events.find((event) => event.type === "run-end");
  if (end?.type !== "run-end" || end.data.outcome !== "success") return null;
  const index = findLessonEvent(events, { event: "evaluation", trial: end.data.trials });
  return index === -1 ? null : { index, trial: end.data.trials };
}

/** The deciding trial's submitted answer and the index of the action that submitted it (null when the trial records none). */
function decidingAnswer(events: readonly RunEvent[], trial: number): { text: string; actionIndex: number } | null {
  const observation = events.find((event) => event.type === "step-observation" && event.data.trial === trial && event.data.answer !== null);
  if (observation?.type !== "step-observation" || observation.data.answer === null) return null;
  const actionIndex = findLessonEvent(events, { event: "action", trial, step: observation.data.step });
  return actionIndex === -1 ? null : { text: observation.data.answer, actionIndex };
}

/** The step's texts a learner reads before answering (and its explanation, read after). */
function stepTexts(step: LessonStep): string {
  return [step.narration, step.question?.prompt ?? "", step.question?.explanation ?? ""].join("\n");
}

const squeeze = (text: string) => text.toLowerCase().replace(/[*_`]/g, "").replace(/\s+/g, " ");

/**
 * Every break of the rules above in `lesson` over its run's `events` (the whole log), in step order.
 * @throws LessonResolveError when a step names a position or node the log lacks (as resolving the lesson would).
 */
export function questionOrderProblems(lesson: Lesson, events: readonly RunEvent[]): QuestionOrderProblem[] {
  const problems: QuestionOrderProblem[] = [];
  const deciding = decidingEvaluation(events);
  const answer = deciding ? decidingAnswer(events, deciding.trial) : null;
  // How far each step shows the log: its cursor, and its reveal when it asks.
  const shown = lesson.steps.map((step) => {
    const cursor = resolveCursor(events, step.cursor);
    return { cursor, extent: step.question ? Math.max(cursor, derivePrediction(events, step.question).revealCursor) : cursor };
  });
  lesson.steps.forEach((step, index) => {
    const question = step.question;
    if (!question) return;
    const number = index + 1;
    const revealedAt = question.kind === "curve" && deciding ? deciding.index + 1 : derivePrediction(events, question).revealCursor;
    const earlier = shown.slice(0, index).findIndex((entry) => entry.extent >= revealedAt);
    if (earlier !== -1) {
      problems.push({
        step: number,
        message: `Step ${number} ("${step.title}") asks a question that step ${earlier + 1} ("${lesson.steps[earlier]?.title}") already answered by showing the log past it: move the question before step ${earlier + 1}, or ask something else.`,
      });
      return;
    }
    if (question.kind !== "curve" || !deciding) return;
    const evaluationId = events[deciding.index]?.id;
    const spotlit = lesson.steps.slice(0, index + 1).findIndex((candidate) =>
      candidate.spotlight.some((selector) => {
        try {
          return resolveNode(events, selector) === evaluationId;
        } catch (error) {
          if (error instanceof LessonResolveError) return false;
          throw error;
        }
      }),
    );
    if (spotlit !== -1) {
      problems.push({
        step: number,
        message: `Step ${number} ("${step.title}") asks in which trial the run first succeeds, but step ${spotlit + 1} spotlights trial ${deciding.trial}'s evaluation: spotlight it only after the question.`,
      });
      return;
    }
    if (!answer || squeeze(answer.text).trim() === "") return;
    const quoted = lesson.steps.slice(0, index + 1).findIndex((candidate) => squeeze(stepTexts(candidate)).includes(squeeze(answer.text)));
    if (quoted !== -1 && (shown[index]?.cursor ?? 0) > answer.actionIndex) {
      problems.push({
        step: number,
        message: `Step ${number} ("${step.title}") asks in which trial the run first succeeds after step ${quoted + 1} named the right answer ("${answer.text}") and with trial ${deciding.trial} already submitting it: ask before trial ${deciding.trial}'s answer is shown, or leave the answer out of the text before the question.`,
      });
    }
  });
  return problems;
}
