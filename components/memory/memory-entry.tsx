"use client";

import type { MemoryItem } from "@/lib/domain/events";
import type { ReflectionView } from "@/lib/domain/fold-run";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils/cn";
import { editedByLine } from "@/lib/graph/change-authors";
import { AnnotationThread } from "@/components/inspector/annotation-thread";

/**
 * One memory item in the memory panel: its text, "edited" (and by whom) when a person changed the
 * reflection it comes from, a warning it was stored with, and the people's notes on it (collapsed).
 */
export function MemoryEntry({
  item,
  reflection,
  muted,
  note,
  notes,
}: {
  item: MemoryItem;
  reflection: ReflectionView | undefined;
  muted?: boolean;
  note?: string;
  /** The run and branch whose people's notes on this memory item are shown (collapsed); none without it. */
  notes?: { runId: string; branch: string | null };
}) {
  const edited = reflection ? reflection.edits > 0 || reflection.text !== reflection.originalText : false;
  return (
    <li
      data-testid="memory-item"
      data-memory-id={item.id}
      data-evicted={muted || undefined}
      className={cn(
        "rounded-md border px-2.5 py-1.5 text-xs leading-snug",
        muted ? "border-slate-200 bg-slate-50 text-slate-500" : "border-amber-200 bg-amber-50 text-slate-800",
      )}
    >
      <div className="mb-0.5 flex flex-wrap items-center gap-1.5">
        <span className={cn("text-[11px] font-medium", muted ? "text-slate-500" : "text-amber-900")}>
          {item.id.startsWith("carried:") ? "Carried in (warm start)" : item.trial === null ? "Hand-written" : `From trial ${item.trial}`}
        </span>
        {edited && reflection ? (
          <Badge tone="amber" data-testid="edited-badge" title={`Original: ${reflection.originalText}`} className="cursor-help bg-amber-200">
            edited
          </Badge>
        ) : null}
        {edited && reflection?.editedBy ? (
          <span className="text-[11px] text-slate-600" data-testid="edited-by">
            {editedByLine(reflection.editedBy)}
          </span>
        ) : null}
        {note ? <Badge tone="outline">{note}</Badge> : null}
      </div>
      <p className={cn("whitespace-pre-wrap break-words", muted && "line-through decoration-slate-300")}>{item.text}</p>
      {reflection?.warning && !edited ? (
        <p data-testid="memory-warning" role="note" className="mt-1 text-[11px] font-medium text-red-800">
          ⚠ Stored with a warning: {reflection.warning.replace(/\.$/, "")}. Edit it while paused if the next trial should not see it.
        </p>
      ) : null}
      {notes ? (
        <details className="mt-1" data-testid="memory-item-notes">
          <summary className="cursor-pointer select-none text-[11px] font-medium text-slate-600">Notes on this memory item</summary>
          <div className="mt-1">
            <AnnotationThread runId={notes.runId} branchId={notes.branch} eventId={item.id} nodeType="memory-item" />
          </div>
        </details>
      ) : null}
    </li>
  );
}
