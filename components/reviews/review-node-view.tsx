import Link from "next/link";
import type { ReviewNodeInView } from "@/lib/domain/review-view";
import { runMomentHref } from "@/lib/query/url-state";

/**
 * One node under review: its text as it was when the queue was built, the trial, and a link to the
 * node in its run. The panel decides what this reviewer may see yet: `showArm` (pairwise: only once
 * they have reviewed the item), `showOutcome` (whether the next trial succeeded: only once reviewed)
 * and `showLink` (pairwise: only once reviewed, because the run page names the arm — its memory
 * window and run title; before that a note says the links appear after the review). A node of a
 * reviewer's view without ids (not reviewed yet, lib/domain/review-view.ts) shows the note too.
 */
export function ReviewNodeView({ node, heading, showArm, showOutcome, showLink, testId }: { node: ReviewNodeInView; heading: string; showArm: boolean; showOutcome: boolean; showLink: boolean; testId: string }) {
  const next = node.followedBySuccess === null ? "no next trial" : node.followedBySuccess ? "the next trial succeeded" : "the next trial failed";
  return (
    <article className="flex flex-col gap-2 rounded border border-slate-200 bg-white p-3" data-testid={testId}>
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-900">
          {heading}
          {showArm && node.arm ? (
            <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-normal text-slate-700" data-testid={`${testId}-arm`}>
              arm {node.arm}
            </span>
          ) : null}
        </h3>
        {showLink && node.runId !== null && node.branchId !== null && node.eventId !== null ? (
          <Link href={runMomentHref(node.runId, { branch: node.branchId, node: node.eventId })} className="text-xs text-sky-800 underline" data-testid={`${testId}-link`}>
            Open in its run
          </Link>
        ) : (
          <span className="text-xs text-slate-600" data-testid={`${testId}-link-hidden`}>
            links appear after you review
          </span>
        )}
      </header>
      <p className="whitespace-pre-wrap text-sm leading-relaxed text-slate-800" data-testid={`${testId}-text`}>
        {node.text}
      </p>
      <p className="text-xs text-slate-600">
        {node.kind} after trial {node.trial}
        {showOutcome ? ` · ${next}` : ""}
      </p>
    </article>
  );
}
