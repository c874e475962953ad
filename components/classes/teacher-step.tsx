"use client";

import Link from "next/link";
import type { ClassTeacherView } from "@/lib/domain/class-session";
import { LessonMarkdown } from "@/components/lessons/lesson-markdown";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils/cn";
import { AnswerHistogram } from "./answer-histogram";
import { ReflectionPicker } from "./reflection-picker";

/**
 * The current step on the teacher's console and the projector: title and narration (the lesson's
 * Markdown), a link to the run at the step's cursor, and at a prediction step the question with
 * its choices numbered as on the phones, "N of M answered" live and, after the reveal, the class
 * histogram with the right answer and the lesson's explanation. At a practice step: the class's
 * reflections (picking and running them only on the console, not the projector).
 */
export function TeacherStep({
  view,
  projector,
  onReveal,
  onRunForks,
  busy,
}: {
  view: ClassTeacherView;
  projector: boolean;
  onReveal: () => void;
  onRunForks: (groupIds: string[]) => void;
  busy: boolean;
}) {
  const step = view.steps[view.step];
  if (!step) return null;
  const { answers, reflections } = view.current;
  const open = view.status !== "ended";
  const large = projector;
  return (
    <article aria-label={`Step ${view.step + 1}`} className="min-w-0" data-testid="class-step" data-step={view.step}>
      <h2 className={cn("font-semibold text-slate-900", large ? "text-4xl" : "text-2xl")} data-testid="class-step-title">
        {step.title}
      </h2>
      <LessonMarkdown text={step.narration} className={cn("mt-2", large ? "text-2xl" : "text-base")} />
      {!projector ? (
        <Link href={`/runs/${encodeURIComponent(view.runId)}?cursor=${step.cursor}`} target="_blank"
          rel="noreferrer"
          className="mt-2 inline-block text-base text-sky-700 underline"
          data-testid="class-open-run"
        >
          Open the run at this step
        </Link>
      ) : null}
      {step.question ? (
        <section aria-label="Prediction" className="mt-4 rounded-lg border border-violet-200 bg-violet-50 p-4" data-testid="class-question" data-revealed={answers.revealed || undefined}>
          <LessonMarkdown text={step.question.prompt} className={cn("font-medium text-slate-900", large ? "text-3xl" : "text-xl")} />
          {answers.revealed && answers.byChoice ? (
            <div className="mt-3">
              <AnswerHistogram choices={step.question.choices} counts={answers.byChoice} answerId={answers.answerId} large={large} />
              {answers.fact ? <p className={cn("mt-3 font-semibold text-slate-900", large ? "text-2xl" : "text-lg")}>{answers.fact}</p> : null}
              {answers.explanation ? <LessonMarkdown text={answers.explanation} className={cn("mt-1", large ? "text-xl" : "text-base")} /> : null}
            </div>
          ) : (
            <>
              <ol className={cn("mt-3 flex flex-col gap-1.5", large ? "text-2xl" : "text-lg")}>
                {step.question.choices.map((choice, index) => (
                  <li key={choice.id} className="flex gap-2 rounded border border-slate-300 bg-white px-3 py-1.5">
                    <span className="flex-none font-mono font-semibold">{index + 1}.</span>
                    <span className="min-w-0 break-words font-mono">{choice.label}</span>
                  </li>
                ))}
              </ol>
              <div className="mt-3 flex flex-wrap items-center gap-3">
                <p className={cn("font-semibold text-slate-900", large ? "text-3xl" : "text-xl")} data-testid="class-answer-count" data-count={answers.count} aria-live="polite">
                  {answers.count} of {view.students.length} answered
                </p>
                {open ? (
                  <Button variant="primary" className={cn(large ? "h-12 px-5 text-xl" : "h-10 px-4 text-base")} onClick={onReveal} disabled={busy} data-testid="class-reveal">
                    Reveal (r)
                  </Button>
                ) : null}
              </div>
            </>
          )}
        </section>
      ) : null}
      {step.practice ? (
        <ReflectionPicker
          groups={reflections}
          trial={step.practice.trial + 1}
          large={large}
          onRun={projector || !open ? undefined : onRunForks}
          running={busy}
          showNames={!projector}
        />
      ) : null}
    </article>
  );
}
