"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useReducer, useState } from "react";
import type { LessonDocument } from "@/lib/lessons/lesson-schema";
import { lessonRunQuery } from "@/lib/query/lesson-queries";
import { parseRunUrlState, serializeRunUrlState } from "@/lib/query/url-state";
import { RunWorkspace } from "@/components/run";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils/cn";
import { isPresenting, lessonModeReducer, urlPresent } from "./lesson-mode";
import { LessonNarration } from "./lesson-narration";

/** Writes the lesson's `?step=` (1-based) and `present=1` into the URL in place (other keys — cursor, node — kept). */
function writeLessonUrl(stepIndex: number, presenter: boolean): void {
  const current = parseRunUrlState(window.location.search);
  if (current.step === stepIndex + 1 && current.present === presenter) return;
  const query = serializeRunUrlState({ ...current, step: stepIndex + 1, present: presenter }, window.location.search);
  window.history.replaceState(window.history.state, "", `${window.location.pathname}${query}${window.location.hash}`);
}

/**
 * The lesson player: makes (or reuses) the lesson's run, then the
 * ordinary run workspace with the narration docked beside the graph. Presenter mode
 * (`?present=1`, or the Present button) covers the app's chrome, hides the run's controls
 * and sets large type; the step (`?step=`) and presenter flag live in the URL, so a link
 * opens the same moment.
 */
export function LessonPlayer({ document }: { document: LessonDocument }) {
  const { lesson } = document;
  const run = useQuery(lessonRunQuery(lesson.id));
  // The URL's step and presenter flag are the initial state (read on the server too: no flash).
  const searchParams = useSearchParams();
  const [stepIndex, setStepIndex] = useState(() => Math.min(lesson.steps.length, parseRunUrlState(searchParams).step ?? 1) - 1);
  // Esc (explore) pauses presenter mode and `l` resumes it: the flag survives the round trip; `present=1` is in the URL only while presenting.
  const [mode, dispatchMode] = useReducer(lessonModeReducer, searchParams, (params) => ({ presenter: parseRunUrlState(params).present, exploring: false }));
  const { presenter, exploring } = mode;
  const presenting = isPresenting(mode);
  const inUrl = urlPresent(mode);
  useEffect(() => writeLessonUrl(stepIndex, inUrl), [stepIndex, inUrl]);

  const onStep = useCallback((index: number) => setStepIndex(Math.min(lesson.steps.length - 1, Math.max(0, index))), [lesson.steps.length]);
  const onExploring = useCallback((on: boolean) => dispatchMode({ type: on ? "leave" : "back" }), []);
  const setPresenter = useCallback((on: boolean) => dispatchMode({ type: "present", on }), []);

  if (run.error) {
    return (
      <EmptyState
        title="Could not prepare this lesson's run"
        action={
          <div className="flex gap-2">
            <Button onClick={() => void run.refetch()}>Try again</Button>
            <Link href="/lessons" className="self-center text-sm text-sky-700 underline">
              All lessons
            </Link>
          </div>
        }
      >
        <span data-testid="lesson-run-error">{run.error.message}</span>
      </EmptyState>
    );
  }
  if (!run.data) {
    return (
      <div className="flex flex-1 items-center justify-center gap-2 text-sm text-slate-600">
        <Spinner /> Preparing the lesson&apos;s run with the demo model…
      </div>
    );
  }
  return (
    <div
      data-testid="lesson-player"
      data-lesson-id={lesson.id}
      data-presenter={presenting || undefined}
      // Presenting below lg (a phone): the player scrolls as one page — the narration and its card at full height, then the graph — never a clipped inner scroll.
      className={cn("flex min-h-0 flex-1 flex-col", presenting && "fixed inset-0 z-40 bg-white max-lg:block max-lg:overflow-y-auto")}
    >
      <RunWorkspace
        runId={run.data.runId}
        dock={
          <LessonNarration
            document={document}
            runId={run.data.runId}
            stepIndex={stepIndex}
            onStep={onStep}
            presenter={presenter}
            onPresenter={setPresenter}
            exploring={exploring}
            onExploring={onExploring}
          />
        }
      />
    </div>
  );
}
