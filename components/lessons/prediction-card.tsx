"use client";

import type { LessonQuestion } from "@/lib/lessons/lesson-schema";
import type { DerivedPrediction } from "@/lib/lessons/predictions";
import { cn } from "@/lib/utils/cn";
import { LessonMarkdown } from "./lesson-markdown";

/** What the learner did with a question: not yet answered, a choice id, or skipped. */
export type PredictionState = { kind: "pending" } | { kind: "answered"; choice: string } | { kind: "skipped" };

const QUESTION_LABEL: Record<LessonQuestion["kind"], string> = {
  "evaluator-verdict": "Predict the verdict",
  "next-action": "Predict the next action",
  "reflection-changes-first-action": "Predict the first action",
  curve: "Predict the curve",
};

/**
 * Predict, then reveal: the question with numbered choices (keys 1…n),
 * a Skip (key s); after an answer, right / not quite, what the log says, and the
 * explanation of the gap. Never more than one click or key. `large` (presenter mode): large type,
 * and more than three choices in two columns (a long label takes a whole row).
 */
export function PredictionCard({
  question,
  prediction,
  state,
  onAnswer,
  onSkip,
  large,
}: {
  question: LessonQuestion;
  prediction: DerivedPrediction;
  state: PredictionState;
  onAnswer: (choiceId: string) => void;
  onSkip: () => void;
  large: boolean;
}) {
  const revealed = state.kind !== "pending";
  const correct = state.kind === "answered" && state.choice === prediction.answer;
  return (
    <section
      aria-label="Prediction"
      data-testid="prediction"
      data-kind={question.kind}
      data-state={state.kind === "answered" ? (correct ? "right" : "wrong") : state.kind}
      className="mt-3 rounded-md border border-violet-200 bg-violet-50/60 p-3"
    >
      <p className={cn("mb-1 font-semibold uppercase tracking-wide text-violet-800", large ? "text-sm" : "text-[10px]")}>{QUESTION_LABEL[question.kind]}</p>
      <LessonMarkdown text={question.prompt} className={cn("text-slate-900", large ? "text-xl [@media(max-height:800px)]:text-lg" : "text-sm")} />
      {/* Large (presenter mode), more than three choices go in two columns: the whole card fits a 720 px projector with no inner scroll. */}
      <ol className={cn("mt-2 gap-1.5", large && prediction.choices.length > 3 ? "grid grid-cols-2" : "flex flex-col")}>
        {prediction.choices.map((choice, index) => {
          const chosen = state.kind === "answered" && state.choice === choice.id;
          const isAnswer = revealed && choice.id === prediction.answer;
          return (
            <li key={choice.id} className={cn(large && prediction.choices.length > 3 && choice.label.length > 24 && "col-span-2")}>
              <button
                type="button"
                disabled={revealed}
                onClick={() => onAnswer(choice.id)}
                data-testid={`prediction-choice-${index + 1}`}
                data-answer={isAnswer || undefined}
                data-chosen={chosen || undefined}
                className={cn(
                  "flex w-full items-start gap-2 rounded border bg-white px-2 py-1.5 text-left hover:border-violet-400 disabled:cursor-default",
                  large ? "text-lg" : "text-sm",
                  isAnswer && "border-green-500 bg-green-50",
                  chosen && !isAnswer && "border-red-400 bg-red-50",
                  !isAnswer && !chosen && "border-slate-300",
                )}
              >
                <kbd className="flex-none rounded border border-slate-300 bg-slate-50 px-1.5 font-mono text-xs text-slate-600">{index + 1}</kbd>
                <span className="min-w-0 break-words font-mono">{choice.label}</span>
              </button>
            </li>
          );
        })}
      </ol>
      {revealed ? (
        <div className={cn("mt-3", large ? "text-xl" : "text-sm")} data-testid="prediction-reveal" aria-live="polite">
          <p className={cn("font-semibold", correct ? "text-green-800" : "text-slate-900")}>
            {state.kind === "skipped" ? "Skipped — here is what happened." : correct ? "Right." : "Not quite."} <span className="font-normal text-slate-700">{prediction.fact}</span>
          </p>
          <LessonMarkdown text={question.explanation} className="mt-1" />
        </div>
      ) : (
        <div className="mt-2 flex items-center justify-between gap-2 text-xs text-slate-600">
          <span>Press 1–{prediction.choices.length}, or click.</span>
          <button type="button" onClick={onSkip} data-testid="prediction-skip" className="rounded px-2 py-0.5 underline hover:bg-violet-100">
            Skip (s)
          </button>
        </div>
      )}
    </section>
  );
}
