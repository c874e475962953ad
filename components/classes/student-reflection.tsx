"use client";

import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { REFLECTION_MAX, type ClassStudentView } from "@/lib/domain/class-session";
import { submitClassReflection } from "@/lib/query/class-queries";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { cn } from "@/lib/utils/cn";
import { myFork } from "./my-fork";

/**
 * A practice step on a student's phone: a textarea for their reflection (600-character counter)
 * and Submit (replaceable until the teacher runs the forks); once the forks ran, whether their
 * group's reflection helped and the key facts it named. Their text is shown as text only.
 */
export function StudentReflection({ view, token, onSaved }: { view: ClassStudentView; token: string; onSaved: () => void }) {
  const [draft, setDraft] = useState<string | null>(null);
  const text = draft ?? view.myReflection ?? "";
  const id = useId();
  const save = useMutation({
    mutationFn: () => submitClassReflection(view.classId, token, view.step.index, text.trim()),
    onSuccess: () => {
      setDraft(null);
      onSaved();
    },
  });
  const practice = view.step.practice;
  if (!practice) return null;
  const mine = myFork(view.forks, view.myReflection);
  const locked = view.forks.length > 0 || view.status === "ended";
  const length = text.trim().length;
  return (
    <section aria-label="Your reflection" className="mt-4 flex flex-col gap-2" data-testid="student-reflection">
      {locked ? (
        view.myReflection ? (
          <div className="rounded-lg border border-slate-200 bg-white p-3">
            <p className="text-base font-medium text-slate-800">Your reflection</p>
            <p className="whitespace-pre-wrap break-words text-lg text-slate-900">{view.myReflection}</p>
          </div>
        ) : null
      ) : (
        <>
          <label htmlFor={id} className="text-lg font-medium text-slate-900">
            Why did trial {practice.trial} fail, and what should trial {practice.trial + 1} do instead?
          </label>
          <textarea
            id={id}
            value={text}
            onChange={(event) => setDraft(event.target.value)}
            maxLength={REFLECTION_MAX}
            rows={5}
            className="w-full rounded-md border border-slate-300 bg-white p-2 text-lg text-slate-900"
            data-testid="student-reflection-text"
          />
          <div className="flex items-center justify-between gap-2">
            <span className={cn("text-base", length > REFLECTION_MAX ? "text-red-800" : "text-slate-700")} data-testid="student-reflection-count">
              {length} / {REFLECTION_MAX}
            </span>
            <Button variant="primary" className="h-12 px-5 text-lg" disabled={length === 0 || save.isPending || (draft === null && view.myReflection !== null)} onClick={() => save.mutate()} data-testid="student-reflection-submit">
              {view.myReflection ? "Replace" : "Submit"}
            </Button>
          </div>
          {view.myReflection && draft === null ? (
            <p className="text-base text-slate-800" data-testid="student-reflection-saved" aria-live="polite">
              Saved — you can replace it until the teacher runs the trials.
            </p>
          ) : null}
        </>
      )}
      {mine ? (
        <p className="rounded-lg border border-violet-200 bg-violet-50 p-3 text-lg text-slate-900" data-testid="student-fork-result" data-status={mine.status}>
          {mine.status === "running"
            ? `Your group's reflection is running as trial ${mine.trial}…`
            : `Your group's reflection ${mine.status === "succeeded" ? "helped" : "did not help this time"}: trial ${mine.trial} ${mine.status}.`}
          {mine.matchedFacts.length > 0 ? ` It named: ${mine.matchedFacts.join("; ")}.` : mine.status === "running" ? "" : " It named none of the task's key facts."}
        </p>
      ) : null}
      {save.error ? (
        <Notice tone="error" className="text-base" data-testid="student-error">
          {save.error.message}
        </Notice>
      ) : null}
    </section>
  );
}
