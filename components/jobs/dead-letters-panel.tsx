"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { DeadLetterView } from "@/lib/domain/job-queue";
import { Badge } from "@/components/ui/badge";
import { EmptyState, Notice } from "@/components/ui/notice";
import { PageSection } from "@/components/ui/page-section";
import { Spinner } from "@/components/ui/spinner";
import { deadLettersQuery } from "./dead-letters-query";

/**
 * The job queue at a glance (issue 17 part 2): how many branch jobs wait and run, and the dead
 * letters — jobs that failed every attempt (retried with backoff first) — each with its run, the
 * last error and the attempts made. In the embedded default there is no queue, and it says so.
 */
export function DeadLettersPanel() {
  const query = useQuery(deadLettersQuery());
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
      <PageSection title="Dead letters" id="dead-letters">
        {deadLetters.length === 0 ? (
          <p className="text-sm text-slate-600">No job has failed every attempt. A failed attempt is retried with a growing delay before it lands here.</p>
        ) : (
          <table className="w-full text-left text-sm" data-testid="dead-letters">
            <thead className="text-xs text-slate-500">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">Run</th>
                <th scope="col" className="py-1 pr-3 font-medium">Kind</th>
                <th scope="col" className="py-1 pr-3 font-medium">Attempts</th>
                <th scope="col" className="py-1 pr-3 font-medium">Last error</th>
                <th scope="col" className="py-1 font-medium">Failed</th>
              </tr>
            </thead>
            <tbody>
              {deadLetters.map((letter) => (
                <DeadLetterRow key={letter.id} letter={letter} />
              ))}
            </tbody>
          </table>
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

function DeadLetterRow({ letter }: { letter: DeadLetterView }) {
  return (
    <tr className="border-t border-slate-100 align-top">
      <td className="py-1.5 pr-3">
        <Link href={`/runs/${letter.runId}`} className="font-mono text-xs text-sky-800 underline">
          {letter.runId.slice(0, 8)}
        </Link>
      </td>
      <td className="py-1.5 pr-3">
        <Badge tone={letter.priority === "interactive" ? "sky" : "neutral"}>{letter.priority}</Badge>
      </td>
      <td className="py-1.5 pr-3 tabular-nums">{letter.attempts}</td>
      <td className="py-1.5 pr-3 break-words text-slate-700">{letter.error ?? "no message recorded"}</td>
      <td className="py-1.5 text-xs text-slate-500">{letter.failedAt ? new Date(letter.failedAt).toLocaleString() : "—"}</td>
    </tr>
  );
}
