"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import type { ClassStudentView } from "@/lib/domain/class-session";
import { answerClassStep } from "@/lib/query/class-queries";
import { LessonMarkdown } from "@/components/lessons/lesson-markdown";
import { Notice } from "@/components/ui/notice";
import { cn } from "@/lib/utils/cn";
import { AnswerHistogram } from "./answer-histogram";

/**
 * A prediction on a student's phone: the question and its choices as large tap targets; the
 * chosen one marked, "Answer saved — change it until the teacher reveals"; after the reveal the
 * class histogram (theirs marked) and whether they were right, with what the log says.
 */
export function StudentQuestion({ view, token, onSaved }: { view: ClassStudentView; token: string; onSaved: () => void }) {
  const question = view.step.question;
  // The last choice this phone sent (kept while the refetched view catches up); the view's own answer otherwise.
  const [sent, setSent] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (choiceId: string) => answerClassStep(view.classId, token, view.step.index, choiceId),
    onMutate: (choiceId) => setSent(choiceId),
    onError: () => setSent(null),
    onSuccess: onSaved,
  });
  if (!question) return null;
  const mine = sent ?? view.myAnswer;
  const open = view.status !== "ended" && !view.revealed;
  return (
    <section aria-label="Prediction" className="mt-4 rounded-lg border border-violet-200 bg-violet-50 p-3" data-testid="student-question" data-revealed={view.revealed || undefined}>
      <LessonMarkdown text={question.prompt} className="text-xl font-medium text-slate-900" />
      {view.revealed && view.histogram ? (
        <div className="mt-3" data-testid="student-reveal">
          <p className={cn("text-xl font-semibold", view.myAnswer === view.answerId ? "text-green-900" : "text-slate-900")} data-testid="student-result" data-right={view.myAnswer !== null && view.myAnswer === view.answerId}>
            {view.myAnswer === null ? "You did not answer this one." : view.myAnswer === view.answerId ? "You were right." : "Not this time."}
          </p>
          {view.fact ? <p className="mt-1 text-base text-slate-800">{view.fact}</p> : null}
          <AnswerHistogram choices={question.choices} counts={view.histogram} answerId={view.answerId} mine={view.myAnswer} />
          {view.explanation ? <LessonMarkdown text={view.explanation} className="mt-2 text-base" /> : null}
        </div>
      ) : (
        <>
          <ol className="mt-3 flex flex-col gap-2">
            {question.choices.map((choice, index) => {
              const chosen = mine === choice.id;
              return (
                <li key={choice.id}>
                  <button
                    type="button"
                    disabled={!open || save.isPending}
                    onClick={() => save.mutate(choice.id)}
                    aria-pressed={chosen}
                    data-testid={`student-choice-${index + 1}`}
                    data-choice-id={choice.id}
                    className={cn(
                      "flex min-h-14 w-full items-center gap-3 rounded-lg border-2 bg-white px-3 py-2 text-left text-lg text-slate-900",
                      chosen ? "border-violet-600 bg-violet-100" : "border-slate-300",
                    )}
                  >
                    <span className="flex-none font-mono font-semibold">{index + 1}.</span>
                    <span className="min-w-0 flex-1 break-words font-mono">{choice.label}</span>
                    {chosen ? <span className="flex-none text-base font-semibold text-violet-900">✓ yours</span> : null}
                  </button>
                </li>
              );
            })}
          </ol>
          {mine && !save.isPending && !save.isError ? (
            <p className="mt-2 text-base text-slate-800" data-testid="student-answer-saved" aria-live="polite">
              Answer saved — change it until the teacher reveals.
            </p>
          ) : null}
        </>
      )}
      {save.error ? (
        <Notice tone="error" className="mt-2 text-base" data-testid="student-error">
          {save.error.message}
        </Notice>
      ) : null}
    </section>
  );
}
