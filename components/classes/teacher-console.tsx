"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { ClassTeacherView } from "@/lib/domain/class-session";
import { classKeys, classTeacherAction, runClassForks } from "@/lib/query/class-queries";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { useNow } from "@/components/ui/use-now";
import { cn } from "@/lib/utils/cn";
import { ClassForks } from "./class-forks";
import { ClassScore } from "./class-score";
import { JoinPanel } from "./join-panel";
import { TeacherStep } from "./teacher-step";
import { timeLeft } from "./time-left";
import { CLASS_KEYS, useClassKeys } from "./use-class-keys";

/**
 * The teacher's console (`/classes/<id>`) and the projector (`?view=projector`): the join code
 * and QR beside the current step; Previous / Next / Reveal (and PageDown / PageUp / arrows / r);
 * on the console also nicknames, picking reflections to run, End class and Reset lesson (with a
 * confirmation). The projector covers the app's chrome, shows no nickname and uses large type.
 * Every action is sent with the teacher secret; the new view arrives through the class stream.
 */
export function TeacherConsole({ view, secret, projector }: { view: ClassTeacherView; secret: string; projector: boolean }) {
  const client = useQueryClient();
  const [confirmReset, setConfirmReset] = useState(false);
  const open = view.status !== "ended";
  const now = useNow(open, 1_000);
  const left = open ? timeLeft(view.endsAt, now) : "ended";
  const ended = !open || left === "ended";
  const refresh = () => client.invalidateQueries({ queryKey: classKeys.views(view.id) });
  const action = useMutation({
    mutationFn: ({ kind, step }: { kind: "step" | "reveal" | "end" | "reset"; step?: number }) => classTeacherAction(view.id, secret, kind, step),
    onSettled: refresh,
  });
  const forks = useMutation({ mutationFn: (groupIds: string[]) => runClassForks(view.id, secret, view.step, groupIds), onSettled: refresh });
  const last = view.steps.length - 1;
  const canReveal = view.steps[view.step]?.question !== null && !view.current.answers.revealed;
  const go = (step: number) => {
    if (!ended && step >= 0 && step <= last && step !== view.step && !action.isPending) action.mutate({ kind: "step", step });
  };
  const reveal = () => {
    if (!ended && canReveal && !action.isPending) action.mutate({ kind: "reveal", step: view.step });
  };
  useClassKeys(!ended, { next: () => go(view.step + 1), previous: () => go(view.step - 1), reveal });
  const error = action.error ?? forks.error;
  const large = projector;
  const showScore = view.step === last || ended;

  return (
    <div
      data-testid={projector ? "class-projector" : "class-console"}
      data-status={ended ? "ended" : "open"}
      className={cn("flex flex-1 flex-col", projector && "fixed inset-0 z-40 overflow-y-auto bg-white")}
    >
      <header className="flex flex-none flex-wrap items-center gap-x-4 gap-y-2 border-b border-slate-200 px-4 py-2">
        <div className="min-w-0 flex-1">
          <p className={cn("truncate text-slate-700", large ? "text-lg" : "text-base")}>
            {!projector ? (
              <>
                <Link href="/classes" className="underline">
                  Classes
                </Link>{" "}
                ·{" "}
              </>
            ) : null}
            {view.lesson.title}
          </p>
          <p className={cn("font-semibold text-slate-900", large ? "text-2xl" : "text-lg")} data-testid="class-step-counter" aria-live="polite">
            Step {view.step + 1} of {view.steps.length}
            <span className={cn("ml-3 font-normal", ended ? "text-red-800" : "text-slate-700")} data-testid="class-time-left">
              {ended ? "Class ended" : left}
            </span>
          </p>
        </div>
        <Link
          href={projector ? `/classes/${encodeURIComponent(view.id)}` : `/classes/${encodeURIComponent(view.id)}?view=projector`}
          className={cn("rounded-md border border-slate-300 px-3 py-1.5 font-medium text-slate-800 hover:bg-slate-50", large ? "text-lg" : "text-base")}
          data-testid="class-projector-toggle"
        >
          {projector ? "Leave projector view" : "Projector view"}
        </Link>
      </header>
      {error ? (
        <Notice tone="error" className="mx-4 mt-3 text-base" data-testid="class-action-error">
          {error.message}
        </Notice>
      ) : null}
      {ended ? (
        <Notice tone="warning" className="mx-4 mt-3 text-base" data-testid="class-ended" title="This class has ended">
          Its answers, reflections and forks stay readable here. Start a new class from the Classes page to teach again.
        </Notice>
      ) : null}
      <div className="grid min-w-0 flex-1 grid-cols-1 gap-4 p-4 lg:grid-cols-[minmax(16rem,22rem)_1fr]">
        <div className="flex min-w-0 flex-col gap-3">
          <JoinPanel code={view.code} joinPath={view.joinPath} studentOrigins={view.studentOrigins} students={view.students.length} large={large} ended={ended} />
          {!projector && view.students.length > 0 ? (
            <details className="rounded-lg border border-slate-200 bg-white p-3 text-base text-slate-800" data-testid="class-students">
              <summary className="cursor-pointer font-medium">Who joined</summary>
              <p className="mt-1 break-words">{view.students.map((student) => student.nickname ?? "—").join(", ")}</p>
            </details>
          ) : null}
        </div>
        <div className="min-w-0">
          <TeacherStep view={view} projector={projector} onReveal={reveal} onRunForks={(groupIds) => forks.mutate(groupIds)} busy={action.isPending || forks.isPending} />
          <ClassForks forks={view.forks} large={large} runId={projector ? undefined : view.runId} />
          {showScore ? <ClassScore score={view.score} large={large} /> : null}
        </div>
      </div>
      <footer className="flex flex-none flex-wrap items-center gap-2 border-t border-slate-200 px-4 py-3">
        <Button className={cn(large ? "h-12 px-5 text-xl" : "h-10 px-4 text-base")} onClick={() => go(view.step - 1)} disabled={ended || view.step === 0} data-testid="class-previous">
          ← Previous
        </Button>
        <Button variant="primary" className={cn(large ? "h-12 px-5 text-xl" : "h-10 px-4 text-base")} onClick={() => go(view.step + 1)} disabled={ended || view.step >= last} data-testid="class-next">
          Next →
        </Button>
        {canReveal && !ended ? (
          <Button className={cn(large ? "h-12 px-5 text-xl" : "h-10 px-4 text-base")} onClick={reveal} data-testid="class-reveal-footer">
            Reveal
          </Button>
        ) : null}
        {!projector ? (
          <div className="ml-auto flex flex-wrap items-center gap-2">
            {confirmReset ? (
              <span className="flex flex-wrap items-center gap-2 text-base text-slate-800" data-testid="class-reset-confirm">
                Clear every answer, reflection and fork of this class and go back to step 1?
                <Button
                  variant="danger"
                  className="h-10 px-4 text-base"
                  onClick={() => {
                    setConfirmReset(false);
                    action.mutate({ kind: "reset" });
                  }}
                  data-testid="class-reset-yes"
                >
                  Reset
                </Button>
                <Button className="h-10 px-4 text-base" onClick={() => setConfirmReset(false)}>
                  Cancel
                </Button>
              </span>
            ) : (
              <Button className="h-10 px-4 text-base" onClick={() => setConfirmReset(true)} disabled={ended} data-testid="class-reset">
                Reset lesson…
              </Button>
            )}
            <Button variant="danger" className="h-10 px-4 text-base" onClick={() => action.mutate({ kind: "end" })} disabled={ended} data-testid="class-end">
              End class
            </Button>
          </div>
        ) : null}
        {!projector ? (
          <p className="w-full text-base text-slate-600">
            Keys: {CLASS_KEYS.map((entry) => `${entry.keys.replace(/\s+/g, " / ")} ${entry.does}`).join(" · ")}
          </p>
        ) : null}
      </footer>
    </div>
  );
}
