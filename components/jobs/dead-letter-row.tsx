"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import type { DeadLetterRow as DeadLetterRowData } from "@/lib/domain/dead-letter-actions";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { discardDeadLetter, JOBS_QUERY_KEY, retryDeadLetter } from "./dead-letters-query";

/**
 * One dead letter on /jobs: the run, its kind, the attempts, the last error, what its
 * branch is doing now, and two actions — **Retry** (enqueues the branch's job again; it resumes from
 * its log) and **Discard** (asks once more, inline: "Discard" / "Keep"; Esc keeps). A retry the
 * server would refuse (the branch ended, is paused or is missing) is not offered: the row says why.
 * Each action shows its pending state, invalidates the page's queries when done, and on failure shows
 * the server's sentence, which says what to do. `onDone` receives a sentence for the panel to announce
 * (the row itself disappears from the refreshed list).
 */
export function DeadLetterRow({ letter, onDone }: { letter: DeadLetterRowData; onDone: (message: string) => void }) {
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const discardRef = useRef<HTMLButtonElement>(null);
  const refresh = () => client.invalidateQueries({ queryKey: JOBS_QUERY_KEY });
  const retry = useMutation({
    mutationFn: () => retryDeadLetter(letter.id),
    onSuccess: async (result) => {
      onDone(result.message);
      await refresh();
    },
  });
  const discard = useMutation({
    mutationFn: () => discardDeadLetter(letter.id),
    onSuccess: async () => {
      onDone(`Dead letter of run ${letter.runId.slice(0, 8)} discarded; the run's log is unchanged.`);
      await refresh();
    },
  });
  // Focus follows the confirm step: onto its Discard button, and back to "Discard…" when kept (after the re-render that shows it).
  const returnFocus = useRef(false);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
    else if (returnFocus.current) discardRef.current?.focus();
    returnFocus.current = false;
  }, [confirming]);
  const busy = retry.isPending || discard.isPending;
  const error = retry.error ?? discard.error;
  const keep = () => {
    returnFocus.current = true;
    setConfirming(false);
  };

  return (
    <tr className="border-t border-slate-100 align-top" data-testid="dead-letter-row">
      <td className="py-1.5 pr-3">
        <Link href={`/runs/${letter.runId}`} className="font-mono text-xs text-sky-800 underline">
          {letter.runId.slice(0, 8)}
        </Link>
      </td>
      <td className="py-1.5 pr-3">
        <Badge tone={letter.priority === "interactive" ? "sky" : "neutral"}>{letter.priority}</Badge>
      </td>
      <td className="py-1.5 pr-3 tabular-nums">{letter.attempts}</td>
      <td className="min-w-64 py-1.5 pr-3 break-words text-slate-700">{letter.error ?? "no message recorded"}</td>
      <td className="py-1.5 pr-3 text-xs text-slate-500">{letter.failedAt ? new Date(letter.failedAt).toLocaleString() : "—"}</td>
      <td className="min-w-52 py-1.5 text-xs">
        <p className="text-slate-700" data-testid="dead-letter-branch">
          {branchNow(letter)}
        </p>
        {letter.retryRefusal ? <p className="mt-0.5 max-w-xs text-slate-500">{letter.retryRefusal}</p> : null}
        <div className="mt-1 flex flex-wrap items-center gap-1.5" onKeyDown={(event) => event.key === "Escape" && confirming && keep()}>
          {letter.retryRefusal ? null : (
            <Button size="sm" variant="primary" disabled={busy} onClick={() => retry.mutate()} aria-label={`Retry the job of run ${letter.runId.slice(0, 8)}`}>
              {retry.isPending ? "Retrying…" : "Retry"}
            </Button>
          )}
          {confirming ? (
            <span role="group" aria-label="Confirm discarding this dead letter" className="flex flex-wrap items-center gap-1.5">
              <span className="text-slate-700">Discard this letter? The run keeps its log.</span>
              <Button ref={confirmRef} size="sm" variant="danger" disabled={busy} onClick={() => discard.mutate()}>
                {discard.isPending ? "Discarding…" : "Discard"}
              </Button>
              <Button size="sm" variant="ghost" disabled={busy} onClick={keep}>
                Keep
              </Button>
            </span>
          ) : (
            <Button ref={discardRef} size="sm" variant="danger" disabled={busy} onClick={() => setConfirming(true)} aria-label={`Discard the dead letter of run ${letter.runId.slice(0, 8)}`}>
              Discard…
            </Button>
          )}
        </div>
        {error ? (
          <p className="mt-1 max-w-xs text-red-800" role="alert">
            {error.message}
          </p>
        ) : null}
      </td>
    </tr>
  );
}

/** What the letter's branch is doing now, in words. */
function branchNow(letter: DeadLetterRowData): string {
  const { status, outcome, queuedAgain } = letter.branch;
  if (status === "missing") return "Branch not in this database";
  if (status === "ended") return `Run ended since${outcome ? ` (${outcome})` : ""}`;
  if (status === "error") return "Run stopped on an error";
  if (status === "paused") return "Run paused";
  return queuedAgain ? "Runnable; queued or running again" : "Runnable; waiting for a retry";
}
