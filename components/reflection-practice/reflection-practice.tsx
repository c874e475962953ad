"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { foldRun } from "@/lib/domain/fold-run";
import { forkPointsByEventId } from "@/lib/graph";
import { useForkRun, useRunEvents } from "@/lib/query";
import { keyFactsQuery } from "@/lib/query/key-facts";
import { RoleReadOnlyNote } from "@/components/auth/role-read-only-note";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { cn } from "@/lib/utils/cn";
import { assessReflection, PRACTICE_MAX_CHARS, practiceCharCount, type ReflectionRubric } from "./rubric";
import { WordDiff } from "./word-diff";
import { DEMO_MODEL_NOTE } from "@/lib/domain/model-id";

/** Props: the run, the branch (null = the root branch) and the failed trial to reflect on. */
export interface ReflectionPracticeProps {
  runId: string;
  branchId: string | null;
  trial: number;
  /**
   * Called with the new branch after "Run trial N+1 with mine". Default: show
   * that branch on the run page (`/runs/:runId?branch=…`).
   */
  onForked?: (branchId: string) => void;
  /**
   * Called with true while the learner writes (the form is shown — inside a closed `<details>` it is
   * not — and not yet compared), and with false on "Compare", on closing and on unmount: the run
   * workspace moves its replay cursor before the model's reflection meanwhile (`practiceCursor` in ./practice-cursor.ts).
   */
  onWriting?: (writing: boolean) => void;
  /** Why the signed-in person may not fork this run (lib/domain/run-permissions.ts): they still write and compare, but "Run trial N+1 with mine" gives way to "read-only: <reason>". */
  readOnly?: string | null;
}

function Check({ ok, label, detail, testId }: { ok: boolean; label: string; detail: string; testId: string }) {
  return (
    <li className="flex gap-2" data-testid={testId} data-ok={ok}>
      <span aria-hidden className={cn("font-bold", ok ? "text-green-700" : "text-red-700")}>
        {ok ? "✓" : "✗"}
      </span>
      <span>
        <span className="font-medium text-slate-900">{label}</span> <span className="text-slate-600">{detail}</span>
      </span>
    </li>
  );
}

function Rubric({ rubric, nextTrial }: { rubric: ReflectionRubric; nextTrial: number }) {
  const { namesMistake, saysInstead, length, helps } = rubric;
  const says = (ids: readonly string[]) =>
    ids
      .map((id) => helps.facts.find((fact) => fact.id === id)?.says)
      .filter((text): text is string => text !== undefined)
      .join("; ");
  return (
    <div className="space-y-2" data-testid="practice-rubric">
      <ul className="space-y-1 text-xs">
        <Check
          ok={namesMistake.ok}
          label="Names the mistake?"
          detail={
            namesMistake.ok
              ? `Mentions ${namesMistake.mentioned.map((text) => `“${text}”`).join(", ")}.`
              : namesMistake.candidates.length > 0
                ? `Say what went wrong, e.g. ${namesMistake.candidates.slice(0, 2).map((text) => `“${text}”`).join(" or ")}.`
                : "Say what went wrong in this trial."
          }
          testId="rubric-mistake"
        />
        <Check ok={saysInstead.ok} label="Says what to do instead?" detail={
            saysInstead.ok
              ? saysInstead.action
                ? `It names an action for the next trial (${saysInstead.action}).`
                : "It states a key fact for the next trial."
              : "Name an action and what it acts on (search X, look up Y, check the tests), not “think harder”."
          } testId="rubric-instead" />
        <Check
          ok={length.ok}
          label="Short enough for memory?"
          detail={`${length.words} words (${length.min}–${length.max}: the Actor reads up to Ω reflections in every prompt).`}
          testId="rubric-length"
        />
      </ul>
      {helps.known ? (
        <Notice tone={helps.helps ? "success" : "warning"} data-testid="practice-helps" className="text-xs">
          <span data-helps={helps.helps}>
            <strong className="font-semibold">Would help the demo model: {helps.helps ? "yes" : "no"}</strong>
            {helps.helps ? `, because it states ${says(helps.matched)}.` : `, because it misses ${says(helps.missing)}.`}
          </span>{" "}
          The demo model is {DEMO_MODEL_NOTE}: its trial {nextTrial} follows the right path only when the memory states this task&apos;s key facts, in
          any wording. A real model may respond to other things.
        </Notice>
      ) : (
        <Notice tone="info" data-testid="practice-helps" className="text-xs">
          This task has no key facts written for the demo model (it is not a built-in task), so there is no prediction of whether your text helps. Forking still
          runs trial {nextTrial} with it.
        </Notice>
      )}
    </div>
  );
}

/**
 * "Write your own reflection": at a failed trial the
 * learner writes the lesson first; the model's reflection stays hidden until
 * they compare. Then both side by side with a word diff and a short rubric
 * ({@link assessReflection}), and "Run trial N+1 with mine" forks the run at
 * the checkpoint after the trial's reflection with the learner's text as that
 * reflection (a `reflection` edit, like the fork dialog's), then shows the fork.
 */
export function ReflectionPractice({ runId, branchId, trial, onForked, onWriting, readOnly = null }: ReflectionPracticeProps) {
  const { events, isPending } = useRunEvents(runId, branchId);
  const state = useMemo(() => foldRun(events), [events]);
  const forkPoints = useMemo(() => forkPointsByEventId(events), [events]);
  const fork = useForkRun(runId);
  const [text, setText] = useState("");
  const [submitted, setSubmitted] = useState(false);

  const view = state.trials.find((candidate) => candidate.trial === trial);
  const config = state.config;
  const task = useMemo(() => (config ? { environment: config.environment, taskId: config.taskId, strategy: config.strategy } : null), [config]);
  const keyFacts = useQuery(keyFactsQuery(task));
  const facts = keyFacts.data ? (keyFacts.data.known ? keyFacts.data.facts : null) : undefined;
  const rubric = useMemo(() => (view && submitted && facts !== undefined ? assessReflection(text, view, facts) : null), [view, submitted, facts, text]);
  const router = useRouter();
  // Shown: not folded away in a closed <details> (the inspector renders this under one).
  const sectionRef = useRef<HTMLElement | null>(null);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const section = sectionRef.current;
    if (!section) return;
    const details = section.closest("details");
    if (!details) {
      setShown(true);
      return;
    }
    const update = () => setShown(details.open);
    update();
    details.addEventListener("toggle", update);
    return () => details.removeEventListener("toggle", update);
  }, [isPending, view, task]);
  const writing = shown && !submitted && !isPending && view !== undefined && view.outcome !== "success";
  const onWritingRef = useRef(onWriting);
  useEffect(() => {
    onWritingRef.current = onWriting;
  });
  useEffect(() => {
    if (!writing) return;
    onWritingRef.current?.(true);
    return () => onWritingRef.current?.(false);
  }, [writing, trial]);

  if (isPending) return <p className="text-xs text-slate-500">Loading the trial…</p>;
  if (!view || !task) return <p className="text-xs text-slate-500">Trial {trial} is not in this branch.</p>;
  if (view.outcome === "success") return <p className="text-xs text-slate-600">Trial {trial} succeeded: there is no mistake to reflect on.</p>;

  const reflection = view.reflection;
  const point = reflection ? forkPoints.get(reflection.eventId) : undefined;
  const nextTrial = trial + 1;
  const trimmed = text.trim();

  const runWithMine = () => {
    if (!reflection || !point) return;
    fork.mutate(
      { atSeq: point.atSeq, fromBranchId: branchId, replay: "recorded", edits: [{ kind: "reflection", reflectionEventId: reflection.eventId, text: trimmed }] },
      {
        onSuccess: ({ branchId: forked }) => {
          if (onForked) onForked(forked);
          else router.push(`/runs/${encodeURIComponent(runId)}?branch=${encodeURIComponent(forked)}`);
        },
      },
    );
  };

  return (
    <section ref={sectionRef} className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3" aria-label={`Write your own reflection on trial ${trial}`} data-testid="reflection-practice" data-trial={trial}>
      <h3 className="text-sm font-semibold text-slate-900">Write your own reflection</h3>
      {!submitted ? (
        <form
          className="space-y-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (trimmed !== "") setSubmitted(true);
          }}
        >
          <label className="block text-xs text-slate-700" htmlFor={`practice-text-${trial}`}>
            Trial {trial} failed. Before you see the model&apos;s reflection: what went wrong, and what should the Actor do differently in trial {nextTrial}? Two or three sentences
            (at most {PRACTICE_MAX_CHARS.toLocaleString("en-US")} characters).
          </label>
          <textarea
            id={`practice-text-${trial}`}
            value={text}
            onChange={(event) => setText(event.target.value)}
            rows={4}
            maxLength={PRACTICE_MAX_CHARS}
            aria-describedby={`practice-count-${trial}`}
            className="w-full rounded-md border border-slate-300 bg-white p-2 text-sm text-slate-900 focus:border-sky-600 focus:outline-none focus:ring-1 focus:ring-sky-600"
            data-testid="practice-text"
          />
          <p
            id={`practice-count-${trial}`}
            className={cn("-mt-1 text-right text-[11px] tabular-nums", text.length >= PRACTICE_MAX_CHARS ? "font-semibold text-amber-900" : "text-slate-500")}
            aria-live="polite"
            data-testid="practice-count"
          >
            {practiceCharCount(text.length)}
          </p>
          <Button type="submit" variant="primary" size="sm" disabled={trimmed === ""} data-testid="practice-compare">
            Compare with the model&apos;s
          </Button>
        </form>
      ) : (
        <div className="space-y-3">
          <div className="grid gap-2 md:grid-cols-2">
            <div>
              <h4 className="mb-1 text-xs font-semibold text-slate-700">Yours</h4>
              <p className="whitespace-pre-wrap rounded-md border border-slate-200 bg-white p-2 text-xs text-slate-900" data-testid="practice-mine">
                {trimmed}
              </p>
            </div>
            <div>
              <h4 className="mb-1 text-xs font-semibold text-slate-700">The model&apos;s</h4>
              <p className="whitespace-pre-wrap rounded-md border border-slate-200 bg-white p-2 text-xs text-slate-900" data-testid="practice-model">
                {reflection ? reflection.text : "No reflection yet: the Self-Reflection has not written one for this trial."}
              </p>
            </div>
          </div>
          {reflection ? (
            <div>
              <h4 className="mb-1 text-xs font-semibold text-slate-700">Word diff (model → yours)</h4>
              <WordDiff model={reflection.text} mine={trimmed} />
            </div>
          ) : null}
          {rubric ? (
            <Rubric rubric={rubric} nextTrial={nextTrial} />
          ) : keyFacts.error ? (
            <Notice tone="error" className="text-xs">
              Could not load the task&apos;s key facts ({keyFacts.error.message}); the rubric needs them. Reload the page to try again.
            </Notice>
          ) : (
            <p className="text-xs text-slate-500">Checking your reflection…</p>
          )}
          <div className="flex flex-wrap items-center gap-2">
            {readOnly !== null ? (
              <RoleReadOnlyNote reason={readOnly} />
            ) : (
              <Button variant="primary" size="sm" onClick={runWithMine} disabled={!point || fork.isPending} data-testid="practice-fork">
                {fork.isPending ? "Forking…" : `Run trial ${nextTrial} with mine`}
              </Button>
            )}
            <Button size="sm" onClick={() => setSubmitted(false)} data-testid="practice-edit">
              Edit mine
            </Button>
          </div>
          {!point && readOnly === null ? <p className="text-xs text-slate-600">Forking needs the checkpoint after trial {trial}&apos;s reflection; it appears once the reflection is written.</p> : null}
          {fork.error ? (
            <Notice tone="error" className="text-xs">
              Could not fork: {fork.error.message}. Try again; nothing of this branch was changed.
            </Notice>
          ) : null}
        </div>
      )}
    </section>
  );
}
