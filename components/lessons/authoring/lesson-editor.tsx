"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import type { RunEvent } from "@/lib/domain/events";
import { saveLessonResponseSchema } from "@/lib/lessons/lesson-api";
import { draftIssues, issuesAt, moveStep, slugOf, stepAt, type LessonDraft } from "@/lib/lessons/lesson-draft";
import { failedTrialsOf, logPositions, positionAtCursor, questionTargets } from "@/lib/lessons/log-positions";
import { lessonSchema, type LessonSource, type LessonStep } from "@/lib/lessons/lesson-schema";
import { resolveCursor } from "@/lib/lessons/resolve-lesson";
import { fetchJson } from "@/lib/query/fetch-json";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { CONTROL, LABEL, SELECT } from "./field-styles";
import { deleteLesson, downloadLessonFile, importLessonFile } from "./lesson-file-actions";
import { writeDraft, writePreview } from "./draft-storage";
import { FieldIssues } from "./field-issues";
import { StepEditor } from "./step-editor";

type Message = { tone: "success" | "error" | "info"; text: string } | null;

let nextKey = 0;
const newKey = () => `step-${(nextKey += 1)}`;

/**
 * The lesson authoring page's editor (docs/guides/teaching.md, "Writing a lesson in the app"): the
 * lesson's title, id, summary, length and introduction; its steps (StepEditor); the problems by step
 * and field (lessonSchema, then the run's log); Save, Preview as a student (the draft, kept in the
 * tab's sessionStorage, played by the lesson player), Export (.md), Import (a .md file) and Delete.
 * The draft is kept in sessionStorage as it is typed, so a reload or a preview loses nothing.
 */
export function LessonEditor({
  initial,
  mode,
  source,
  events,
  runCursor,
  editorKey,
  runFinished,
}: {
  initial: LessonDraft;
  /** `new`: not saved yet (the first save refuses an id taken by another authored lesson); `edit`: a saved lesson. */
  mode: "new" | "edit";
  /** Where the edited lesson comes from: a folder lesson is saved as a new authored lesson under another id. */
  source: LessonSource | null;
  events: readonly RunEvent[];
  runCursor: number | null;
  editorKey: string;
  runFinished: boolean;
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(initial);
  const [keys, setKeys] = useState(() => initial.lesson.steps.map(newKey));
  const [idTouched, setIdTouched] = useState(mode === "edit");
  const [message, setMessage] = useState<Message>(null);
  const [busy, setBusy] = useState(false);
  const [savedOnce, setSavedOnce] = useState(mode === "edit" && source === "authored");
  const fileInput = useRef<HTMLInputElement>(null);

  const positions = useMemo(() => logPositions(events), [events]);
  const targets = useMemo(() => questionTargets(events), [events]);
  const failedTrials = useMemo(() => failedTrialsOf(events), [events]);
  const issues = useMemo(() => draftIssues(draft, events), [draft, events]);
  const schemaValid = useMemo(() => lessonSchema.safeParse(draft.lesson).success, [draft.lesson]);
  const { lesson } = draft;
  const idLocked = mode === "edit" && source === "authored";

  useEffect(() => writeDraft(editorKey, draft), [editorKey, draft]);

  const update = (change: Partial<LessonDraft["lesson"]>) => setDraft((current) => ({ ...current, lesson: { ...current.lesson, ...change } }));
  const setSteps = (steps: LessonStep[], nextKeys: string[]) => {
    setKeys(nextKeys);
    update({ steps });
  };
  const addStep = (at: "cursor" | "next") => {
    const last = lesson.steps.at(-1);
    let position = positions[0] ?? null;
    if (at === "cursor" && runCursor !== null) position = positionAtCursor(positions, runCursor);
    else if (last) {
      let lastIndex = -1;
      try {
        lastIndex = resolveCursor(events, last.cursor) - 1;
      } catch {
        lastIndex = -1;
      }
      position = positions.find((entry) => entry.index > lastIndex) ?? positions.at(-1) ?? null;
    }
    if (!position) {
      setMessage({ tone: "error", text: "The run's log has no event a step can point at yet: wait for the run to record its first trial." });
      return;
    }
    setSteps([...lesson.steps, stepAt(position)], [...keys, newKey()]);
  };

  const save = async () => {
    setBusy(true);
    setMessage(null);
    try {
      const saved = await fetchJson("/api/lessons", saveLessonResponseSchema, { method: "POST", body: { lesson, introduction: draft.introduction, expectNew: !savedOnce } });
      writeDraft(editorKey, null);
      await queryClient.invalidateQueries({ queryKey: ["lessons"] });
      setSavedOnce(true);
      setMessage({ tone: "success", text: `Saved "${saved.lesson.lesson.title}". It is on the Lessons page as ${saved.lesson.lesson.id}.` });
      if (mode === "new" || source !== "authored") router.replace(`/lessons/${encodeURIComponent(saved.lesson.lesson.id)}/edit?saved=1`);
    } catch (error) {
      setMessage({ tone: "error", text: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  };

  const preview = () => {
    writePreview(draft, `${window.location.pathname}${window.location.search}`);
    router.push("/lessons/new/preview");
  };

  const onImport = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setMessage(null);
    try {
      const imported = await importLessonFile(file);
      await queryClient.invalidateQueries({ queryKey: ["lessons"] });
      const id = imported.lesson.lesson.id;
      router.push(`/lessons/${encodeURIComponent(id)}/edit?imported=1${imported.renamedFrom ? `&renamedFrom=${encodeURIComponent(imported.renamedFrom)}` : ""}`);
    } catch (error) {
      setMessage({ tone: "error", text: `${file.name}: ${error instanceof Error ? error.message : String(error)}` });
    } finally {
      setBusy(false);
      if (fileInput.current) fileInput.current.value = "";
    }
  };

  const remove = async () => {
    if (!window.confirm(`Delete the lesson "${lesson.title}"? Export it first to keep a copy.`)) return;
    setBusy(true);
    try {
      await deleteLesson(lesson.id);
      writeDraft(editorKey, null);
      await queryClient.invalidateQueries({ queryKey: ["lessons"] });
      router.push("/lessons");
    } catch (error) {
      setMessage({ tone: "error", text: error instanceof Error ? error.message : String(error) });
      setBusy(false);
    }
  };

  return (
    <div className="mx-auto w-full max-w-5xl space-y-4 px-4 py-6" data-testid="lesson-editor">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-lg font-semibold text-slate-900">{mode === "new" ? "Author a lesson" : `Edit: ${lesson.title || lesson.id}`}</h1>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">
            Over run{" "}
            <Link className="text-sky-700 underline" href={`/runs/${encodeURIComponent(draft.runId)}`}>
              {draft.runId}
            </Link>
            . Each step moves the graph to a moment of its log; questions take their choices and answers from the log. Your draft is kept in this tab until you save.
          </p>
        </div>
        <div className="flex flex-wrap gap-2" data-testid="lesson-editor-actions">
          <Button variant="primary" onClick={() => void save()} disabled={busy || issues.length > 0} data-testid="lesson-save" title={issues.length > 0 ? "Fix the problems listed first" : undefined}>
            {busy ? "Working…" : "Save"}
          </Button>
          <Button onClick={preview} disabled={!schemaValid} data-testid="lesson-preview" title={schemaValid ? "Plays this draft in the lesson player, as a learner sees it" : "Fix the problems listed first"}>
            Preview as a student
          </Button>
          <Button onClick={() => schemaValid && downloadLessonFile(lessonSchema.parse(lesson), draft.introduction)} disabled={!schemaValid} data-testid="lesson-export">
            Export .md
          </Button>
          <Button onClick={() => fileInput.current?.click()} disabled={busy} data-testid="lesson-import">
            Import .md
          </Button>
          <input ref={fileInput} type="file" accept=".md,text/markdown,text/plain" className="hidden" data-testid="lesson-import-file" onChange={(event) => void onImport(event.target.files?.[0])} />
          {savedOnce ? (
            <Button variant="danger" onClick={() => void remove()} disabled={busy} data-testid="lesson-delete">
              Delete
            </Button>
          ) : null}
        </div>
      </div>

      {message ? (
        <Notice tone={message.tone === "error" ? "error" : message.tone === "success" ? "success" : "info"} data-testid="lesson-editor-message">
          {message.text}
          {message.tone === "success" ? (
            <>
              {" "}
              <Link className="text-sky-700 underline" href={`/lessons/${encodeURIComponent(lesson.id)}`}>
                Open the lesson
              </Link>
            </>
          ) : null}
        </Notice>
      ) : null}
      {source === "folder" ? (
        <Notice tone="info">This lesson is a file of the lessons folder. Saving keeps it as a new lesson written in the app: give it another id.</Notice>
      ) : null}
      {!runFinished ? <Notice tone="warning">The run is still going: the lists offer what it has logged so far. Reload once it has finished to see the rest.</Notice> : null}

      {issues.length > 0 ? (
        <Notice tone="warning" title={`${issues.length} ${issues.length === 1 ? "problem" : "problems"} to fix before saving`} data-testid="draft-issues">
          <ul className="list-disc pl-5">
            {issues.slice(0, 12).map((issue) => (
              <li key={`${issue.key}:${issue.message}`}>
                {issue.where}: {issue.message}
              </li>
            ))}
          </ul>
        </Notice>
      ) : null}

      <section className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 md:grid-cols-2" aria-label="The lesson">
        <label className="flex flex-col gap-0.5">
          <span className={LABEL}>Title</span>
          <input
            className={SELECT}
            value={lesson.title}
            maxLength={120}
            data-testid="lesson-title"
            onChange={(event) => update({ title: event.target.value, ...(idTouched ? {} : { id: slugOf(event.target.value) }) })}
          />
          <FieldIssues issues={issuesAt(issues, "title")} />
        </label>
        <label className="flex flex-col gap-0.5">
          <span className={LABEL}>Id (in the lesson&apos;s address: /lessons/&lt;id&gt;)</span>
          <input
            className={SELECT}
            value={lesson.id}
            readOnly={idLocked}
            data-testid="lesson-id"
            onChange={(event) => {
              setIdTouched(true);
              update({ id: event.target.value });
            }}
          />
          <FieldIssues issues={issuesAt(issues, "id")} />
        </label>
        <label className="flex flex-col gap-0.5 md:col-span-2">
          <span className={LABEL}>Summary (on the Lessons page)</span>
          <input className={SELECT} value={lesson.summary} maxLength={400} data-testid="lesson-summary" onChange={(event) => update({ summary: event.target.value })} />
          <FieldIssues issues={issuesAt(issues, "summary")} />
        </label>
        <label className="flex flex-col gap-0.5">
          <span className={LABEL}>Length when presented (minutes)</span>
          <input className={SELECT} type="number" min={1} max={120} value={lesson.minutes} data-testid="lesson-minutes" onChange={(event) => update({ minutes: Number(event.target.value) || 0 })} />
          <FieldIssues issues={issuesAt(issues, "minutes")} />
        </label>
        <p className="flex flex-col gap-0.5 text-sm">
          <span className={LABEL}>Family</span>
          <span className="text-slate-800">{lesson.family} (the run&apos;s)</span>
        </p>
        <label className="flex flex-col gap-0.5 md:col-span-2">
          <span className={LABEL}>Introduction (Markdown, optional)</span>
          <textarea className={`${CONTROL} py-1`} rows={2} maxLength={4000} value={draft.introduction} data-testid="lesson-introduction" onChange={(event) => setDraft((current) => ({ ...current, introduction: event.target.value }))} />
        </label>
      </section>

      <section aria-label="Steps" className="space-y-2">
        <h2 className="text-base font-semibold text-slate-900">Steps</h2>
        {lesson.steps.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-600" data-testid="no-steps">
            No steps yet. Add one at the run&apos;s cursor (open the run, move the replay slider, then Share → Author a lesson) or pick its moment from the lists.
          </p>
        ) : (
          <ol className="space-y-3">
            {lesson.steps.map((step, index) => (
              <StepEditor
                key={keys[index] ?? index}
                step={step}
                index={index}
                count={lesson.steps.length}
                events={events}
                positions={positions}
                targets={targets}
                failedTrials={failedTrials}
                runCursor={runCursor}
                issues={(key) => issuesAt(issues, key)}
                onChange={(next) => update({ steps: lesson.steps.map((entry, position) => (position === index ? next : entry)) })}
                onMove={(delta) => setSteps(moveStep(lesson.steps, index, delta), moveStep(keys, index, delta))}
                onDelete={() => setSteps(lesson.steps.filter((_, position) => position !== index), keys.filter((_, position) => position !== index))}
              />
            ))}
          </ol>
        )}
        <div className="flex flex-wrap gap-2">
          {runCursor !== null ? (
            <Button onClick={() => addStep("cursor")} data-testid="add-step-at-cursor">
              Add a step at the run&apos;s cursor (event {runCursor})
            </Button>
          ) : null}
          <Button onClick={() => addStep("next")} disabled={lesson.steps.length >= 40} data-testid="add-step">
            Add a step
          </Button>
        </div>
      </section>
    </div>
  );
}
