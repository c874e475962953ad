"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState, Notice } from "@/components/ui/notice";
import { PageSection } from "@/components/ui/page-section";
import { Spinner } from "@/components/ui/spinner";
import { DeadLetterRow } from "./dead-letter-row";
import { deadLettersQuery, JOBS_QUERY_KEY, retryAllDeadLetters } from "./dead-letters-query";

/**
 * The job queue at a glance: how many branch jobs wait and run, and the dead
 * letters — jobs that failed every attempt (retried with backoff first) — each with its run, the
 * last error and the attempts made, what its branch is doing now, and Retry / Discard on each row
 * (./dead-letter-row.tsx) plus *Retry all*. What an action did is announced above the list. In the
 * embedded default there is no queue, and it says so.
 */
export function DeadLettersPanel() {
  const query = useQuery(deadLettersQuery());
  const client = useQueryClient();
  const [announcement, setAnnouncement] = useState<string | null>(null);
  const retryAll = useMutation({
    mutationFn: retryAllDeadLetters,
    onSuccess: async (result) => {
      setAnnouncement(
        result.results.length === 0
          ? "No dead letters to retry."
          : `${result.requeued} dead letter(s) retried: their runs resume from their logs.${result.refused > 0 ? ` ${result.refused} refused (their branch ended, is paused or is missing); they stay — discard them.` : ""}`,
      );
      await client.invalidateQueries({ queryKey: JOBS_QUERY_KEY });
    },
  });
  if (query.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner className="size-4" /> Loading the job queue…
      </p>
    );
  }
  if (query.error) {
    return (
      <Notice tone="error" title="Could not read the job queue">
        {query.error.message} Check that the database in REFLEXION_DATABASE_URL is reachable, then reload the page.
      </Notice>
    );
  }
  const { mode, stats, deadLetters } = query.data;
  if (mode === "in-process") {
    return (
      <EmptyState title="No job queue in the embedded mode">
        This server drives runs itself from its own database, so nothing is queued elsewhere and no job can end up here. With
        REFLEXION_DATABASE_URL set to a PostgreSQL database, runs become jobs for workers on any machine, and jobs that fail every
        attempt are listed here (docs/shared-mode.md).
      </EmptyState>
    );
  }
  return (
    <div className="space-y-4">
      <dl className="flex flex-wrap gap-6 text-sm" aria-label="Job counts">
        <Count label="Waiting for a worker" value={stats.queued} />
        <Count label="Running" value={stats.active} />
        <Count label="Dead letters" value={stats.failed} />
      </dl>
      {announcement ? (
        <Notice tone="success" data-testid="dead-letters-announcement">
          {announcement}
        </Notice>
      ) : null}
      <PageSection
        title="Dead letters"
        id="dead-letters"
        right={
          deadLetters.some((letter) => letter.retryRefusal === null) ? (
            <span className="flex items-center gap-2">
              {retryAll.error ? (
                <span className="text-xs text-red-800" role="alert">
                  {retryAll.error.message}
                </span>
              ) : null}
              <Button size="sm" disabled={retryAll.isPending} onClick={() => retryAll.mutate()}>
                {retryAll.isPending ? "Retrying all…" : "Retry all"}
              </Button>
            </span>
          ) : undefined
        }
      >
        {deadLetters.length === 0 ? (
          <p className="text-sm text-slate-600">No job has failed every attempt. A failed attempt is retried with a growing delay before it lands here.</p>
        ) : (
          <div className="overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="dead-letters">
            <thead className="text-xs text-slate-500">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">Run</th>
                <th scope="col" className="py-1 pr-3 font-medium">Kind</th>
                <th scope="col" className="py-1 pr-3 font-medium">Attempts</th>
                <th scope="col" className="py-1 pr-3 font-medium">Last error</th>
                <th scope="col" className="py-1 pr-3 font-medium">Failed</th>
                <th scope="col" className="py-1 font-medium">Now</th>
              </tr>
            </thead>
            <tbody>
              {deadLetters.map((letter) => (
                <DeadLetterRow key={letter.id} letter={letter} onDone={setAnnouncement} />
              ))}
            </tbody>
          </table>
          </div>
        )}
      </PageSection>
    </div>
  );
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums text-slate-900">{value}</dd>
    </div>
  );
}
