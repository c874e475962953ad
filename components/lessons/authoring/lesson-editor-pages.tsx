"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useMemo, useState, useSyncExternalStore, type ReactNode } from "react";
import type { RunEvent } from "@/lib/domain/events";
import { newDraft, type LessonDraft } from "@/lib/lessons/lesson-draft";
import { logPositions, positionAtCursor } from "@/lib/lessons/log-positions";
import type { LessonDocument } from "@/lib/lessons/lesson-schema";
import { lessonQuery, lessonRunKey, lessonRunQuery } from "@/lib/query/lesson-queries";
import { runEventsQuery, runQuery } from "@/lib/query/queries";
import { Button } from "@/components/ui/button";
import { EmptyState, Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { LessonPlayer } from "../lesson-player";
import { parsePreview, readDraft, readPreviewText } from "./draft-storage";
import { LessonEditor } from "./lesson-editor";

const EMPTY_EVENTS: RunEvent[] = [];

function Loading({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-1 items-center justify-center gap-2 text-sm text-slate-600">
      <Spinner /> {children}
    </div>
  );
}

function Failed({ title, error, retry }: { title: string; error: Error; retry: () => void }) {
  return (
    <EmptyState
      title={title}
      action={
        <div className="flex gap-2">
          <Button onClick={retry}>Try again</Button>
          <Link href="/lessons" className="self-center text-sm text-sky-700 underline">
            All lessons
          </Link>
        </div>
      }
    >
      {error.message}
    </EmptyState>
  );
}

/** The run's summary and its main branch's whole log, for the editor's selects. */
function useRunLog(runId: string | null) {
  const run = useQuery({ ...runQuery(runId ?? ""), enabled: runId !== null });
  const events = useQuery({ ...runEventsQuery(runId ?? ""), enabled: runId !== null });
  return { run, events, log: events.data?.events ?? EMPTY_EVENTS };
}

/**
 * `/lessons/new?run=<runId>[&cursor=<events shown>]`: a new lesson over a stored run, starting with
 * one step at the run's cursor (the run page's Share → Author a lesson passes it) or at its first event.
 */
export function NewLessonPage({ runId, cursor, branch }: { runId: string | null; cursor: number | null; branch: string | null }) {
  const { run, events, log } = useRunLog(runId);
  if (!runId) {
    return (
      <EmptyState title="Pick a run to write a lesson over" action={<Link href="/" className="text-sm font-medium text-sky-700 underline">Runs</Link>}>
        A lesson plays one run: open a run (one you made, an imported log, a shared link or a bundle), then choose Share → Author a lesson.
      </EmptyState>
    );
  }
  if (run.error) return <Failed title="Could not load the run" error={run.error} retry={() => void run.refetch()} />;
  if (events.error) return <Failed title="Could not load the run's log" error={events.error} retry={() => void events.refetch()} />;
  if (!run.data || !events.data) return <Loading>Loading the run&apos;s log…</Loading>;
  const summary = run.data.run;
  const editorKey = `new:${runId}`;
  const initial = readDraft(editorKey) ?? newDraft({ id: summary.id, title: summary.title, environment: summary.environment }, positionAtCursor(logPositions(log), cursor ?? log.length));
  return (
    <>
      {branch && branch !== run.data.run.rootBranchId ? (
        <Notice tone="info" className="mx-auto mt-4 w-full max-w-5xl" data-testid="lesson-branch-note">
          A lesson plays the run&apos;s main branch: the steps offered here come from it, not from branch {branch}.
        </Notice>
      ) : null}
      <LessonEditor initial={initial} mode="new" source={null} events={log} runCursor={cursor} editorKey={editorKey} runFinished={summary.status !== "running" && summary.status !== "queued"} />
    </>
  );
}

/** `/lessons/<id>/edit`: a saved lesson (or a folder lesson, saved as a copy) in the editor, over the run it plays. */
export function EditLessonPage({ lessonId }: { lessonId: string }) {
  const params = useSearchParams();
  const document = useQuery(lessonQuery(lessonId));
  const stored = document.data?.lesson.run.kind === "stored" ? document.data.lesson.run.runId : null;
  const played = useQuery({ ...lessonRunQuery(lessonId), enabled: document.data !== undefined && stored === null });
  const runId = stored ?? played.data?.runId ?? null;
  const { run, events, log } = useRunLog(runId);
  if (document.error) return <Failed title="Could not load this lesson" error={document.error} retry={() => void document.refetch()} />;
  if (played.error) return <Failed title="Could not prepare this lesson's run" error={played.error} retry={() => void played.refetch()} />;
  if (run.error) return <Failed title="Could not load the lesson's run" error={run.error} retry={() => void run.refetch()} />;
  if (events.error) return <Failed title="Could not load the run's log" error={events.error} retry={() => void events.refetch()} />;
  if (!document.data || !runId || !run.data || !events.data) return <Loading>Loading the lesson and its run…</Loading>;
  const editorKey = `edit:${lessonId}`;
  const initial: LessonDraft = readDraft(editorKey) ?? { lesson: document.data.lesson, introduction: document.data.introduction, runId };
  const renamedFrom = params.get("renamedFrom");
  return (
    <>
      {params.get("imported") ? (
        <Notice tone="success" className="mx-auto mt-4 w-full max-w-5xl" data-testid="lesson-imported">
          Imported{renamedFrom ? ` as ${lessonId}: a lesson "${renamedFrom}" was here already, so this one got a free id` : ""}. It is on the Lessons page.
        </Notice>
      ) : null}
      <LessonEditor
        key={lessonId}
        initial={initial}
        mode="edit"
        source={document.data.source}
        events={log}
        runCursor={null}
        editorKey={editorKey}
        runFinished={run.data.run.status !== "running" && run.data.run.status !== "queued"}
      />
    </>
  );
}

/**
 * `/lessons/new/preview`: the draft from "Preview as a student" (the tab's sessionStorage) in the
 * lesson player, as a learner sees it. The player's run is the draft's (no request makes one); its
 * answers are kept apart from the saved lesson's (its id ends in `-preview`).
 */
export function LessonPreviewPage() {
  // The tab's sessionStorage, read on the client only (null while rendered on the server).
  const raw = useSyncExternalStore(noSubscription, readPreviewText, () => undefined);
  const preview = useMemo(() => (raw === undefined ? undefined : parsePreview(raw)), [raw]);
  if (preview === undefined) return <Loading>Opening the preview…</Loading>;
  if (preview === null) {
    return (
      <EmptyState title="Nothing to preview" action={<Link href="/lessons" className="text-sm font-medium text-sky-700 underline">All lessons</Link>}>
        Open a lesson&apos;s editor and press Preview as a student: the draft is kept in this tab only.
      </EmptyState>
    );
  }
  return <PreviewPlayer draft={preview.draft} back={preview.back} />;
}

const noSubscription = () => () => undefined;

/** The player over the draft's run: the run is put in the query cache first, so no request makes one. */
function PreviewPlayer({ draft, back }: { draft: LessonDraft; back: string }) {
  const queryClient = useQueryClient();
  const [document] = useState<LessonDocument>(() => {
    const id = `${draft.lesson.id}-preview`;
    queryClient.setQueryData(lessonRunKey(id), { runId: draft.runId, reused: true });
    return { lesson: { ...draft.lesson, id }, introduction: draft.introduction, file: "preview", source: "authored" };
  });
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex items-center justify-between gap-2 border-b border-violet-200 bg-violet-50 px-4 py-1.5 text-sm text-violet-950" data-testid="lesson-preview-banner">
        <span>Preview as a student: the draft, not saved. Answers here are kept apart from the saved lesson&apos;s.</span>
        <Link href={back} className="font-medium text-sky-700 underline" data-testid="lesson-preview-back">
          Back to editing
        </Link>
      </div>
      <LessonPlayer document={document} />
    </div>
  );
}
