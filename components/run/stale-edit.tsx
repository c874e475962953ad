"use client";

import { useState } from "react";
import type { EditRequest } from "@/lib/domain/api";
import { ApiRequestError } from "@/lib/query";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

/**
 * A draft of a value the run holds (a reflection, the memory, a template, model settings). While
 * the person has not changed it, it follows the live value (another tab's edit shows up); once
 * changed it is kept, whatever arrives, and `dirty` stays true until it is saved (the live value
 * equals it) or reloaded. `equal` compares values (default `Object.is`).
 */
export function useDraft<T>(live: T, equal: (a: T, b: T) => boolean = Object.is): { draft: T; setDraft: (next: T | ((current: T) => T)) => void; dirty: boolean; reload: () => void } {
  const [loaded, setLoaded] = useState(live);
  const [draft, setDraft] = useState(live);
  const dirty = !equal(draft, loaded);
  if (!equal(live, loaded) && (!dirty || equal(live, draft))) {
    // Not changed here, or just saved: take the live value.
    setLoaded(live);
    setDraft(live);
  }
  return {
    draft,
    setDraft,
    dirty,
    reload: () => {
      setLoaded(live);
      setDraft(live);
    },
  };
}

/**
 * The seq an edit form's draft was made against: the run's newest seq when the person started
 * changing it (`editing` turned true), else the newest seq as it arrives. Sent with the edit, so a
 * run that moved on meanwhile (another tab's edit) answers 409 instead of being overwritten.
 * `rebase` moves the base to the newest seq (after reading what changed).
 */
export function useEditBase(lastSeq: number, editing: boolean): { baseSeq: number; rebase: () => void } {
  const [captured, setCaptured] = useState<number | null>(null);
  if (editing && captured === null) setCaptured(lastSeq);
  if (!editing && captured !== null) setCaptured(null);
  return { baseSeq: captured ?? lastSeq, rebase: () => setCaptured(lastSeq) };
}

/** True when an edit was refused because the run changed after the edit was started (HTTP 409 `stale-edit`). */
export function isStaleEdit(error: unknown): error is ApiRequestError {
  return error instanceof ApiRequestError && error.code === "stale-edit";
}

/** The part of `useEditRun`'s mutation this notice drives. */
interface EditMutation {
  error: Error | null;
  variables: EditRequest | undefined;
  mutate: (edit: EditRequest) => void;
  reset: () => void;
}

/**
 * An edit's error: for a stale edit, the server's list of what changed and the way on — Reload
 * (drop the draft and show the current values: `onReload`) or Re-apply (send the same edit again
 * against the newest seq, over the current values); for any other error, its message.
 */
export function EditError({ edit, lastSeq, rebase, onReload }: { edit: EditMutation; lastSeq: number; rebase: () => void; onReload: () => void }) {
  const error = edit.error;
  if (!error) return null;
  if (!isStaleEdit(error)) return <Notice tone="error">{error.message}</Notice>;
  return (
    <Notice tone="warning" data-testid="stale-edit" className="space-y-1.5 text-xs">
      <p>
        <strong>Not saved: this run changed while you were editing.</strong> {error.message}
      </p>
      <div className="flex gap-2">
        <Button
          size="sm"
          data-testid="stale-edit-reload"
          onClick={() => {
            edit.reset();
            onReload();
          }}
        >
          Reload
        </Button>
        {edit.variables ? (
          <Button
            size="sm"
            variant="primary"
            data-testid="stale-edit-reapply"
            onClick={() => {
              rebase();
              if (edit.variables) edit.mutate({ ...edit.variables, baseSeq: lastSeq });
            }}
          >
            Re-apply my edit
          </Button>
        ) : null}
      </div>
    </Notice>
  );
}
