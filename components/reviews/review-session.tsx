"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { Review } from "@/lib/domain/review-queue";
import type { ReviewQueueView } from "@/lib/domain/review-view";
import { reviewExportHref, reviewKeys, reviewQueueQuery } from "@/lib/query/review-queries";
import { Button } from "@/components/ui/button";
import { EmptyState, Notice } from "@/components/ui/notice";
import { PageSection } from "@/components/ui/page-section";
import { Spinner } from "@/components/ui/spinner";
import { SearchLauncher } from "@/components/search/search-launcher";
import { AgreementTable } from "./agreement-table";
import { ProgressBar } from "./progress-bar";
import { ReviewItemPanel } from "./review-item-panel";
import { REVIEW_KEYS } from "./use-review-keys";

/** The saved review merged into the cached queue, so moving back shows it before the next poll. */
function withReview(detail: ReviewQueueView, review: Review): ReviewQueueView {
  const others = detail.reviews.filter((entry) => !(entry.itemId === review.itemId && entry.reviewer === review.reviewer));
  return { ...detail, reviews: [...others, review] };
}

/**
 * `/reviews/:queueId`: pick who you are, then review one item at a time with the keys (1…n label,
 * ←/→ or j/k move, t tag, c comment, e correction, ? keys); progress per reviewer, the agreement
 * table and the CSV / JSON export.
 */
export function ReviewSession({ queueId }: { queueId: string }) {
  const client = useQueryClient();
  const [reviewer, setReviewer] = useState<string | null>(null);
  // The page asks only for the picked reviewer's view (lib/domain/review-view.ts); before a pick, nobody's.
  const detail = useQuery(reviewQueueQuery(queueId, reviewer));
  const [index, setIndex] = useState(0);
  const [help, setHelp] = useState(false);
  const [startPending, setStartPending] = useState(false);

  if (detail.isPending) {
    return (
      <main className="mx-auto w-full max-w-5xl flex-1 px-4 py-6">
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner className="size-4" /> Loading the queue…
        </p>
      </main>
    );
  }
  if (detail.error) {
    return (
      <main className="mx-auto w-full max-w-5xl flex-1 px-4 py-6">
        <Notice tone="error" title="Could not load this review queue">
          {detail.error.message} <Link href="/reviews">Back to the queues</Link>.
        </Notice>
      </main>
    );
  }
  const { queue, items, reviews, progress } = detail.data;
  const mineOf = (itemId: string) => reviews.find((review) => review.itemId === itemId && review.reviewer === reviewer) ?? null;
  const item = items[Math.min(index, Math.max(0, items.length - 1))];
  const myCount = reviewer ? (progress.byReviewer.find((entry) => entry.reviewer === reviewer)?.reviewed ?? 0) : 0;

  if (startPending && reviewer !== null) {
    // This reviewer's view has arrived: start at their first item not reviewed yet.
    setStartPending(false);
    const first = items.findIndex((candidate) => mineOf(candidate.id) === null);
    setIndex(first === -1 ? 0 : first);
  }
  const pick = (name: string) => {
    if (name === reviewer) return;
    setReviewer(name);
    setStartPending(true);
  };
  const move = (direction: 1 | -1) => setIndex((current) => Math.min(items.length - 1, Math.max(0, current + direction)));
  const onSaved = (review: Review) => {
    client.setQueryData(reviewKeys.queue(queueId, reviewer), (current: ReviewQueueView | undefined) => (current ? withReview(current, review) : current));
    void client.invalidateQueries({ queryKey: reviewKeys.all });
    // A verdict item stays open after saving so the reviewer sees the judge's verdict it unblinds; → moves on.
    if (!review.judge) move(1);
  };

  return (
    <main className="mx-auto w-full max-w-5xl flex-1 space-y-4 px-4 py-6" data-testid="review-session">
      <header className="space-y-2">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h1 className="text-lg font-semibold text-slate-900">{queue.name}</h1>
          <div className="flex gap-2">
            <a href={reviewExportHref(queue.id, "csv")} download className="text-sm text-sky-800 underline" data-testid="review-export-csv">
              Export CSV
            </a>
            <a href={reviewExportHref(queue.id, "json")} download className="text-sm text-sky-800 underline" data-testid="review-export-json">
              Export JSON
            </a>
          </div>
        </div>
        <p className="text-xs text-slate-600">
          {queue.kind === "pairwise" ? `Pairwise: arm ${queue.source.arms[0]} vs arm ${queue.source.arms[1]}, sides drawn per item (seed ${queue.seed})` : `Single · rubric “${queue.rubric.name}”`} · {items.length} items ·{" "}
          <Link href="/reviews" className="underline">
            all queues
          </Link>
        </p>
        {/* Search across runs from the queue's own source: its query, or its experiment. */}
        <SearchLauncher prefill={queue.source.query ?? (queue.source.experimentId ? `experiment:${queue.source.experimentId}` : "")} />
        <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Who is reviewing">
          <span className="text-sm text-slate-700">I am</span>
          {queue.reviewers.map((name) => (
            <Button key={name} size="sm" variant={reviewer === name ? "primary" : "secondary"} aria-pressed={reviewer === name} onClick={() => pick(name)} data-testid={`review-as-${name}`}>
              {name}
            </Button>
          ))}
          <Button size="sm" variant="ghost" onClick={() => setHelp((shown) => !shown)} aria-expanded={help} data-testid="review-keys-toggle">
            Keys <kbd className="ml-1 rounded border px-1 text-[10px]">?</kbd>
          </Button>
        </div>
      </header>

      {help ? (
        <section aria-label="Review keys" className="rounded border border-slate-200 bg-slate-50 p-3" data-testid="review-keys">
          <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1 text-sm">
            {REVIEW_KEYS.map((entry) => (
              <div key={entry.keys} className="contents">
                <dt className="font-mono text-slate-900">{entry.keys}</dt>
                <dd className="text-slate-700">{entry.does}</dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}

      <PageSection title="Progress" id="review-progress-heading">
        <div className="grid gap-2 md:grid-cols-2" data-testid="review-progress">
          <ProgressBar label="Items every reviewer has reviewed" done={progress.complete} total={progress.items} testId="review-progress-complete" />
          {progress.byReviewer.map((entry) => (
            <ProgressBar key={entry.reviewer} label={entry.reviewer} done={entry.reviewed} total={progress.items} testId={`review-progress-${entry.reviewer}`} />
          ))}
        </div>
      </PageSection>

      {reviewer === null ? (
        <EmptyState title="Who are you?">Pick your name above to start reviewing; each reviewer reviews every item on their own.</EmptyState>
      ) : item === undefined ? (
        <EmptyState title="This queue has no items">Build another queue on the Reviews page.</EmptyState>
      ) : (
        <PageSection
          title={`Reviewing as ${reviewer} · ${myCount}/${items.length} done`}
          id="review-item-heading"
          right={
            <div className="flex items-center gap-2">
              <Button size="sm" onClick={() => move(-1)} disabled={index === 0} data-testid="review-previous">
                ← Previous
              </Button>
              <span className="text-xs tabular-nums text-slate-600" data-testid="review-position">
                {index + 1} / {items.length}
              </span>
              <Button size="sm" onClick={() => move(1)} disabled={index >= items.length - 1} data-testid="review-next">
                Next →
              </Button>
            </div>
          }
        >
          <ReviewItemPanel key={`${item.id}\0${reviewer}`} queue={queue} item={item} reviewer={reviewer} mine={mineOf(item.id)} onSaved={onSaved} onMove={move} onHelp={() => setHelp((shown) => !shown)} />
        </PageSection>
      )}

      <PageSection title="Agreement between reviewers" id="review-agreement-heading">
        <AgreementTable progress={progress} pairwise={queue.kind === "pairwise"} />
      </PageSection>
    </main>
  );
}
