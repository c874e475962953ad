"use client";

import type { RunState } from "@/lib/domain/run-state";
import { changeLine, changesOfTrial } from "@/lib/graph/change-authors";
import { Badge } from "@/components/ui/badge";
import { Section } from "./blocks";

/** The "edited" badge of an edited reflection, with `edited by alice · 14:02` before it when the edit records who made it. */
export function EditedMark({ edited, editedBy }: { edited: boolean; editedBy?: string }) {
  if (!edited) return null;
  return (
    <span className="flex items-center gap-1.5">
      {editedBy ? (
        <span className="text-[11px] text-slate-600" data-testid="inspector-edited-by">
          {editedBy}
        </span>
      ) : null}
      <Badge tone="amber">edited</Badge>
    </span>
  );
}

/** People's changes since trial `trial` started (only those whose events record who made them; lib/graph/change-authors.ts). */
export function TrialChanges({ state, trial }: { state: RunState; trial: number }) {
  const changes = changesOfTrial(state, trial);
  if (changes.length === 0) return null;
  return (
    <Section title="Changes by people">
      <ul className="space-y-0.5 text-xs text-slate-700" data-testid="inspector-changes">
        {changes.map((change) => (
          <li key={change.eventId}>{changeLine(change)}</li>
        ))}
      </ul>
    </Section>
  );
}
