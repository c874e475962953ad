"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useEffect, useMemo, useRef } from "react";
import type { RunEvent } from "@/lib/domain/events";
import type { LessonDocument, LessonStep } from "@/lib/lessons/lesson-schema";
import { derivePrediction, type DerivedPrediction } from "@/lib/lessons/predictions";
import { forkDifference, forkFloor, forkNote } from "@/lib/lessons/fork-narration";
import { LessonResolveError, resolveCursor, resolveNode, resolveSpotlight } from "@/lib/lessons/resolve-lesson";
import { runEventsQuery } from "@/lib/query";
import { parseRunUrlState } from "@/lib/query/url-state";
import { SIDE_PANEL_MIN, useRunUiStore } from "@/lib/store";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils/cn";
import { TeachAsClassLink } from "@/components/classes/teach-as-class-link";
import { LessonNotes } from "./lesson-notes";
import { scoreOf, useLessonAnswers, type LessonAnswers } from "./lesson-answers";
import { LessonMarkdown } from "./lesson-markdown";
import { PredictionCard, type PredictionState } from "./prediction-card";
import { LESSON_KEYS, useLessonKeys } from "./use-lesson-keys";

const EMPTY_EVENTS: RunEvent[] = [];

/** A step resolved on the run's log: where the cursor goes, what is lit, the question's derived answer. */
interface ResolvedStep {
  cursor: number;
  prediction: DerivedPrediction | null;
  /** Node selected with the step (the first spotlight, or the practice trial's evaluation). */
  focus: LessonStep["spotlight"][number] | null;
}

/** The step on `events`; on a fork (`onFork`) a practice step selects the learner's reflection, which replaced the model's there. */
function resolveStep(events: readonly RunEvent[], step: LessonStep, onFork: boolean): ResolvedStep | LessonResolveError {
  try {
    const cursor = resolveCursor(events, step.cursor);
    const prediction = step.question ? derivePrediction(events, step.question) : null;
    const focus = step.practice ? { kind: onFork ? ("reflection" as const) : ("evaluation" as const), trial: step.practice.trial } : (step.spotlight[0] ?? null);
    return { cursor, prediction, focus };
  } catch (error) {
    if (error instanceof LessonResolveError) return error;
    throw error;
  }
}

function predictionState(answers: LessonAnswers, stepIndex: number): PredictionState {
  const entry = answers[String(stepIndex)];
  if (!entry) return { kind: "pending" };
  return entry.choice === "skipped" ? { kind: "skipped" } : { kind: "answered", choice: entry.choice };
}

/**
 * The lesson's narration, docked beside the live graph and never over it:
 * the step's Markdown, its prediction, "step 3 of 9", previous / next; each step moves the
 * replay cursor, spotlights its nodes and selects the first (the graph pans to it). Esc
 * leaves for free exploration at the same moment (the panel folds to a rail), `l` or the
 * rail's button comes back. Rendered inside the run's UI store (RunWorkspace's `dock`).
 */
export function LessonNarration({
  document,
  runId,
  stepIndex,
  onStep,
  presenter,
  onPresenter,
  exploring,
  onExploring,
}: {
  document: LessonDocument;
  runId: string;
  /** 0-based. */
  stepIndex: number;
  onStep: (index: number) => void;
  presenter: boolean;
  onPresenter: (on: boolean) => void;
  exploring: boolean;
  onExploring: (on: boolean) => void;
}) {
  const { lesson } = document;
  const mainEvents = useQuery(runEventsQuery(runId)).data?.events ?? EMPTY_EVENTS;
  // On a fork (after "Run trial N+1 with mine"), steps resolve on the fork's own log: its cursor, spotlight and selected nodes.
  const branchParam = useSearchParams().get("branch");
  const fork = branchParam !== null && branchParam !== "" && branchParam !== (mainEvents[0]?.branchId ?? null) ? branchParam : null;
  const forkEvents = useQuery({ ...runEventsQuery(runId, fork), enabled: fork !== null }).data?.events ?? EMPTY_EVENTS;
  const events = fork !== null ? forkEvents : mainEvents;
  const difference = useMemo(() => (fork !== null && forkEvents.length > 0 ? forkDifference(mainEvents, forkEvents) : null), [fork, mainEvents, forkEvents]);
  const setCursor = useRunUiStore((store) => store.setCursor);
  const setSpotlight = useRunUiStore((store) => store.setSpotlight);
  const selectNode = useRunUiStore((store) => store.selectNode);
  const setStorePresenter = useRunUiStore((store) => store.setPresenter);
  const { answers, record, reset } = useLessonAnswers(lesson.id);
  const step = lesson.steps[stepIndex] ?? lesson.steps[0]!;
  const ended = events.some((event) => event.type === "run-end");
  const resolved = useMemo(() => resolveStep(events, step, fork !== null), [events, step, fork]);
  const ready = !(resolved instanceof LessonResolveError);
  const state = predictionState(answers, stepIndex);
  const revealed = step.question === undefined || state.kind !== "pending";
  const last = stepIndex === lesson.steps.length - 1;
  const score = scoreOf(answers);
  const questions = lesson.steps.filter((entry) => entry.question).length;

  useEffect(() => setStorePresenter(presenter && !exploring), [presenter, exploring, setStorePresenter]);
  // Presenter mode gives the graph room: the side column at its narrowest, restored afterwards.
  const sidePanelWidth = useRunUiStore((store) => store.sidePanelWidth);
  const setSidePanelWidth = useRunUiStore((store) => store.setSidePanelWidth);
  const savedWidth = useRef<number | null>(null);
  const presenting = presenter && !exploring;
  useEffect(() => {
    if (presenting && savedWidth.current === null) {
      savedWidth.current = sidePanelWidth;
      setSidePanelWidth(SIDE_PANEL_MIN);
    } else if (!presenting && savedWidth.current !== null) {
      setSidePanelWidth(savedWidth.current);
      savedWidth.current = null;
    }
  }, [presenting, sidePanelWidth, setSidePanelWidth]);

  // Apply the step: cursor (before the answer while a question is open), spotlight, selection.
  const stepCursor = ready ? (revealed && resolved.prediction ? Math.max(resolved.cursor, resolved.prediction.revealCursor) : resolved.cursor) : null;
  // On a fork, never before its own first events: the learner's reflection, not the model's, is what the step shows.
  const cursor = stepCursor === null ? null : fork !== null ? Math.max(stepCursor, forkFloor(events)) : stepCursor;
  const focusId = useMemo(() => {
    if (!ready || !resolved.focus || cursor === null) return null;
    try {
      const id = resolveNode(events, resolved.focus);
      return events.findIndex((event) => event.id === id) < cursor ? id : null;
    } catch {
      return null;
    }
  }, [ready, resolved, events, cursor]);
  const spotlightKey = ready && cursor !== null ? resolveSpotlight(events.slice(0, cursor), step.spotlight).join(" ") : "";
  // A shared link's own `node=` wins over the step's first spotlight, the first time the step is applied.
  const linkNode = useRef<"unread" | string | null>("unread");
  useEffect(() => {
    if (exploring || cursor === null) return;
    if (linkNode.current === "unread") linkNode.current = parseRunUrlState(window.location.search).node;
    setCursor(cursor);
    setSpotlight(spotlightKey === "" ? [] : spotlightKey.split(" "));
    const fromLink = linkNode.current;
    linkNode.current = null;
    selectNode(fromLink !== null && events.slice(0, cursor).some((event) => event.id === fromLink) ? fromLink : focusId);
  }, [exploring, cursor, spotlightKey, focusId, events, setCursor, setSpotlight, selectNode]);
  useEffect(() => {
    if (exploring) setSpotlight([]);
  }, [exploring, setSpotlight]);

  const answer = (choiceId: string) => {
    if (!ready || !resolved.prediction || state.kind !== "pending") return;
    record(stepIndex, choiceId, choiceId === resolved.prediction.answer);
  };
  const skip = () => {
    if (step.question && state.kind === "pending") record(stepIndex, "skipped", false);
  };
  useLessonKeys(exploring, {
    next: () => {
      if (step.question && state.kind === "pending" && ready) skip();
      else if (!last) onStep(stepIndex + 1);
    },
    previous: () => onStep(Math.max(0, stepIndex - 1)),
    answer: (index) => {
      const choice = ready ? resolved.prediction?.choices[index] : undefined;
      if (choice) answer(choice.id);
    },
    skip,
    leave: () => onExploring(true),
    back: () => onExploring(false),
  });

  if (exploring) {
    return (
      <aside
        aria-label="Lesson (paused)"
        data-testid="lesson-rail"
        className="flex flex-none items-center gap-2 border-b border-slate-200 bg-amber-50 px-3 py-1 lg:w-10 lg:flex-col lg:border-b-0 lg:border-r lg:px-0 lg:py-3"
      >
        <button
          type="button"
          onClick={() => onExploring(false)}
          data-testid="lesson-back"
          title="Back to the lesson (l)"
          className="rounded border border-amber-300 bg-white px-2 py-1 text-xs font-medium text-amber-900 hover:bg-amber-100 lg:px-1 lg:py-2 lg:[writing-mode:vertical-rl]"
        >
          Back to the lesson (l)
        </button>
      </aside>
    );
  }

  return (
    <aside
      aria-label="Lesson"
      data-testid="lesson-narration"
      data-step={stepIndex + 1}
      data-steps={lesson.steps.length}
      className={cn(
        // Beside the graph from lg up; below it (the panes stack) above the graph, at most half the screen high.
        // Presenting, below lg the page scrolls instead (no height cap, no inner scroll that would clip the prediction card).
        "flex min-h-0 flex-none flex-col border-b border-slate-200 bg-white lg:border-b-0 lg:border-r",
        presenter ? null : "max-lg:max-h-[45vh]",
        presenter ? "lg:w-[min(38vw,36rem)]" : "lg:w-[min(24rem,36vw)]",
      )}
    >
      <header className="flex flex-none items-center gap-2 border-b border-slate-200 px-4 py-2">
        <div className="min-w-0 flex-1">
          <p className="truncate text-[11px] font-semibold uppercase tracking-wide text-slate-500">
            <Link href="/lessons" className="hover:underline">
              Lessons
            </Link>{" "}
            · {lesson.title}
          </p>
          <p className={cn("font-semibold text-slate-900", presenter ? "text-xl" : "text-sm")} data-testid="lesson-step-counter" aria-live="polite">
            Step {stepIndex + 1} of {lesson.steps.length}
          </p>
        </div>
        {presenter ? null : <TeachAsClassLink lessonId={lesson.id} className="px-2 py-1 text-xs" />}
        <button
          type="button"
          onClick={() => onPresenter(!presenter)}
          aria-pressed={presenter}
          data-testid="presenter-toggle"
          className="rounded border border-slate-300 px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50"
        >
          {presenter ? "Leave presenter mode" : "Present"}
        </button>
      </header>
      <div className="flex flex-none gap-0.5 px-4 pt-2" aria-hidden>
        {lesson.steps.map((entry, index) => (
          <span key={index} title={entry.title} className={cn("h-1.5 flex-1 rounded-full", index < stepIndex ? "bg-sky-300" : index === stepIndex ? "bg-sky-700" : "bg-slate-200")} />
        ))}
      </div>
      {/* Focusable so its text can be scrolled from the keyboard even when the step has no control in it. */}
      <div className={cn("min-h-0 flex-1 overflow-y-auto px-4 py-3", presenter && "max-lg:overflow-visible")} tabIndex={0} role="region" aria-label="Lesson step" data-testid="lesson-step-body">
        {/* Presenter type steps down a size on short screens (a 720 px projector): the step and its card fit without an inner scroll. */}
        <h2 className={cn("mb-2 font-semibold text-slate-900", presenter ? "text-3xl [@media(max-height:800px)]:text-2xl" : "text-base")} data-testid="lesson-step-title">
          {step.title}
        </h2>
        {difference !== null && !step.forkNarration ? (
          <p className={cn("mb-2 rounded border border-violet-200 bg-violet-50 p-2 text-violet-950", presenter ? "text-xl" : "text-xs")} data-testid="lesson-fork-note">
            {forkNote(difference)}
          </p>
        ) : null}
        <LessonMarkdown
          text={difference !== null && step.forkNarration ? step.forkNarration : step.narration}
          className={presenter ? "text-2xl [@media(max-height:800px)]:text-xl" : "text-sm"}
          testId={difference !== null && step.forkNarration ? "lesson-fork-narration" : undefined}
        />
        {!ready ? (
          ended ? (
            fork !== null ? (
              <p className="mt-3 rounded border border-amber-200 bg-amber-50 p-2 text-sm text-amber-950" data-testid="lesson-step-error">
                Your fork went another way: this moment of the model&apos;s run is not in it ({resolved.message}) Pick <strong>main</strong> in the Branches strip to see
                it.
              </p>
            ) : (
              <p className="mt-3 rounded border border-red-200 bg-red-50 p-2 text-sm text-red-900" data-testid="lesson-step-error">
                This step does not fit the run: {resolved.message}
              </p>
            )
          ) : (
            <p className="mt-3 flex items-center gap-2 text-sm text-slate-600">
              <Spinner /> The demo model is still recording the run ({events.length} events so far)…
            </p>
          )
        ) : null}
        {ready && step.question && resolved.prediction ? (
          <PredictionCard question={step.question} prediction={resolved.prediction} state={state} onAnswer={answer} onSkip={skip} large={presenter} />
        ) : null}
        {ready && revealed && spotlightKey !== "" ? <LessonNotes runId={runId} eventIds={spotlightKey.split(" ")} large={presenter} /> : null}
        {step.practice && ready ? (
          <p className="mt-3 rounded border border-sky-200 bg-sky-50 p-2 text-sm text-sky-950" data-testid="lesson-practice">
            The inspector shows trial {step.practice.trial}&apos;s evaluation: write your reflection there before the next step reveals the model&apos;s. The demo
            model is scripted to respond to reflections that state the task&apos;s key fact.
          </p>
        ) : null}
        {last ? (
          <p className="mt-4 rounded border border-slate-200 bg-slate-50 p-2 text-sm text-slate-800" data-testid="lesson-score">
            Your predictions: <strong>{score.right}</strong> of {questions} right{score.skipped > 0 ? `, ${score.skipped} skipped` : ""}.{" "}
            <button type="button" onClick={reset} className="text-xs text-sky-700 underline">
              Clear my answers
            </button>
          </p>
        ) : null}
      </div>
      <footer className="flex flex-none items-center gap-2 border-t border-slate-200 px-4 py-2">
        <button type="button" onClick={() => onStep(stepIndex - 1)} disabled={stepIndex === 0} data-testid="lesson-previous" className="rounded border border-slate-300 px-2.5 py-1 text-sm disabled:text-slate-400">
          ← Previous
        </button>
        <button
          type="button"
          onClick={() => (step.question && state.kind === "pending" ? skip() : onStep(stepIndex + 1))}
          disabled={last && revealed}
          data-testid="lesson-next"
          className="rounded bg-slate-900 px-2.5 py-1 text-sm font-medium text-white disabled:bg-slate-200 disabled:text-slate-500"
        >
          {step.question && state.kind === "pending" ? "Reveal" : "Next →"}
        </button>
        <button type="button" onClick={() => onExploring(true)} className="ml-auto text-xs text-slate-600 underline" data-testid="lesson-explore" title="Explore the run freely at this moment (Esc)">
          Explore (Esc)
        </button>
        <details className="relative text-xs text-slate-600">
          <summary className="cursor-pointer list-none rounded px-1 hover:bg-slate-100">Keys</summary>
          <dl className="absolute bottom-6 right-0 z-30 grid w-72 grid-cols-[auto_1fr] gap-x-3 gap-y-1 rounded border border-slate-200 bg-white p-2 shadow">
            {LESSON_KEYS.map((entry) => (
              <div key={entry.keys} className="contents">
                <dt className="font-mono text-slate-900">{entry.keys}</dt>
                <dd>{entry.does}</dd>
              </div>
            ))}
          </dl>
        </details>
      </footer>
    </aside>
  );
}
