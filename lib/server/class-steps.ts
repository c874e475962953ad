import type { ClassStep } from "@/lib/domain/class-session";
import type { RunEvent } from "@/lib/domain/events";
import type { Lesson } from "@/lib/lessons/lesson-schema";
import { derivePrediction } from "@/lib/lessons/predictions";
import { LessonResolveError, resolveCursor, resolveSpotlight } from "@/lib/lessons/resolve-lesson";

/**
 * A lesson's steps as a class sees them (lib/domain/class-session.ts `ClassStep`), resolved on the
 * lesson run's log exactly as the lesson player does (components/lessons/lesson-narration.tsx):
 * the step's cursor, before the answer while its question is open and at least at the answer's
 * `revealCursor` once revealed; the spotlight's node ids on the events shown; the question's
 * choices derived from the log (lib/lessons/predictions.ts). The right answer stays here, on the
 * server: {@link ResolvedClassStep.key} never goes into a view before the reveal.
 */

/** What only the server knows of a step's question until the teacher reveals it. */
export interface ClassAnswerKey {
  answerId: string;
  /** The lesson's explanation, Markdown. */
  explanation: string;
  /** What the log says ("The Evaluator: FAIL (trial 1)."). */
  fact: string;
  /** The cursor (events shown) at which the answer shows. */
  revealCursor: number;
}

/** A step resolved on the log: the view before the reveal, the view after it, and the answer key (null without a question). */
export interface ResolvedClassStep {
  before: ClassStep;
  after: ClassStep;
  key: ClassAnswerKey | null;
}

/**
 * Resolves every step of `lesson` on `events` (the lesson run's root branch). A step the log does
 * not hold yet (the run is still going) gets the cursor at the end of the log and, when its
 * question cannot be derived yet, no choices; it resolves on a later call.
 */
export function resolveClassSteps(lesson: Lesson, events: readonly RunEvent[]): ResolvedClassStep[] {
  return lesson.steps.map((step, index): ResolvedClassStep => {
    let cursor = events.length;
    try {
      cursor = resolveCursor(events, step.cursor);
    } catch (error) {
      if (!(error instanceof LessonResolveError)) throw error;
    }
    let key: ClassAnswerKey | null = null;
    let choices: Array<{ id: string; label: string }> = [];
    if (step.question) {
      try {
        const prediction = derivePrediction(events, step.question);
        choices = prediction.choices;
        key = { answerId: prediction.answer, explanation: step.question.explanation, fact: prediction.fact, revealCursor: prediction.revealCursor };
      } catch (error) {
        if (!(error instanceof LessonResolveError)) throw error;
      }
    }
    const view = (shown: number): ClassStep => ({
      index,
      title: step.title,
      narration: step.narration,
      cursor: shown,
      spotlightNodeIds: resolveSpotlight(events.slice(0, shown), step.spotlight),
      question: step.question ? { kind: step.question.kind, prompt: step.question.prompt, choices } : null,
      practice: step.practice ? { trial: step.practice.trial } : null,
    });
    const before = view(cursor);
    return { before, after: key ? view(Math.max(cursor, key.revealCursor)) : before, key };
  });
}
