"use client";

import { useQuery } from "@tanstack/react-query";
import { annotationsQuery } from "@/lib/query/annotation-queries";
import { runLessonsQuery } from "@/lib/query/cost-queries";
import { ContentMarks, NoteText } from "@/components/inspector/annotation-thread";
import { formatTime } from "@/components/ui/format";
import { cn } from "@/lib/utils/cn";

/**
 * People's notes on the nodes a lesson step spotlights (docs/annotations.md): what a teacher wrote in
 * the inspector shows beside the narration, so a lesson carries the teacher's own remarks on the
 * run without editing the lesson file — and a reviewer's corrected version of a spotlighted
 * reflection (a gold reflection, docs/review-queues.md). Shown only once the step's question is
 * answered (a note could give the answer away); deleted notes are left out.
 */
export function LessonNotes({ runId, eventIds, large }: { runId: string; eventIds: readonly string[]; large: boolean }) {
  const annotations = useQuery(annotationsQuery(runId, null)).data?.annotations ?? [];
  const wanted = new Set(eventIds);
  const notes = annotations.filter((note) => !note.deleted && wanted.has(note.target.eventId));
  const corrections = (useQuery(runLessonsQuery(runId)).data?.entries ?? []).flatMap((entry) => (entry.correctedFrom && wanted.has(entry.correctedFrom.eventId) ? [{ id: entry.id, text: entry.text, reviewer: entry.correctedFrom.reviewer }] : []));
  if (notes.length === 0 && corrections.length === 0) return null;
  return (
    <section className="mt-3 rounded border border-amber-200 bg-amber-50 p-2" aria-label="Notes on these nodes" data-testid="lesson-notes">
      <h3 className={cn("mb-1 font-semibold text-amber-950", large ? "text-xl" : "text-xs")}>Notes on these nodes</h3>
      <ul className="space-y-2">
        {notes.map((note) => (
          <li key={note.id} className={cn(note.parentId ? "ml-4 border-l border-amber-200 pl-2" : "", large ? "text-lg" : "")}>
            <p className="text-xs text-amber-900">
              {note.author} · {note.target.kind}
              {note.target.trial !== null ? ` · trial ${note.target.trial}` : ""}
              {note.target.step !== null ? ` step ${note.target.step}` : ""} · {formatTime(note.createdAt)}
            </p>
            <NoteText text={note.content.text} />
            <ContentMarks content={note.content} />
          </li>
        ))}
        {corrections.map((entry) => (
          <li key={entry.id} className={large ? "text-lg" : ""} data-testid="lesson-correction">
            <p className="text-xs text-amber-900">{entry.reviewer} · a corrected reflection (review queue)</p>
            <p className={cn("whitespace-pre-wrap break-words text-slate-800", large ? "" : "text-sm")}>{entry.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
