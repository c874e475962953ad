"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { reviewQueueListQuery } from "@/lib/query/review-queries";
import { EmptyState, Notice } from "@/components/ui/notice";
import { PageSection } from "@/components/ui/page-section";
import { Spinner } from "@/components/ui/spinner";
import { CreateQueueForm } from "./create-queue-form";
import { ProgressBar } from "./progress-bar";

/** `/reviews`: the review queues with their progress, and the form that builds one from an experiment. */
export function ReviewQueueList() {
  const queues = useQuery(reviewQueueListQuery());
  return (
    <main className="mx-auto w-full max-w-5xl flex-1 space-y-4 px-4 py-6" data-testid="review-queues">
      <header className="space-y-1">
        <h1 className="text-lg font-semibold text-slate-900">Reviews</h1>
        <p className="max-w-3xl text-xs leading-relaxed text-slate-600">
          People&apos;s judgement on the record: review an experiment&apos;s reflections against a rubric, or two arms&apos; reflections side by side, with named reviewers. Agreement
          between reviewers is percent agreement and Cohen&apos;s κ; a corrected reflection is kept in the gold-reflections memory store.
        </p>
      </header>
      <PageSection title="Build a queue" id="review-create-heading">
        <CreateQueueForm />
      </PageSection>
      <PageSection title="Queues" id="review-list-heading">
        {queues.isPending ? (
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <Spinner className="size-4" /> Loading queues…
          </p>
        ) : queues.error ? (
          <Notice tone="error" title="Could not load the queues">
            {queues.error.message} Reload the page to try again.
          </Notice>
        ) : queues.data.queues.length === 0 ? (
          <EmptyState title="No review queues yet">Build one above from an experiment whose Reflexion arms have run.</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100">
            {queues.data.queues.map(({ queue, progress }) => (
              <li key={queue.id} className="grid gap-2 py-3 md:grid-cols-[1fr_16rem]" data-testid="review-queue-row">
                <div className="space-y-0.5">
                  <Link href={`/reviews/${encodeURIComponent(queue.id)}`} className="text-sm font-medium text-sky-800 underline">
                    {queue.name}
                  </Link>
                  <p className="text-xs text-slate-600">
                    {queue.kind} · {progress.items} item{progress.items === 1 ? "" : "s"} · reviewers {queue.reviewers.join(", ")} · {new Date(queue.createdAt).toLocaleString()}
                  </p>
                </div>
                <div className="space-y-1">
                  {progress.byReviewer.map((entry) => (
                    <ProgressBar key={entry.reviewer} label={entry.reviewer} done={entry.reviewed} total={progress.items} />
                  ))}
                </div>
              </li>
            ))}
          </ul>
        )}
      </PageSection>
    </main>
  );
}
