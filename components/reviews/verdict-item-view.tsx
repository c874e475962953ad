import Link from "next/link";
import type { Review, ReviewItem } from "@/lib/domain/review-queue";
import type { ReviewItemInView } from "@/lib/domain/review-view";
import { runMomentHref } from "@/lib/query/url-state";

/**
 * A verdict item (a queue of the LLM judge's verdicts): the task's prompt, then the judged answer,
 * and — only once this reviewer has saved a label (`judge` on their review) — the judge's verdict
 * and weighted score against the threshold, labelled as a model's opinion. Before that the panel
 * is blind, like the judge page.
 */
export function VerdictItemView({ item, judged, mine }: { item: ReviewItemInView; judged: NonNullable<ReviewItem["judged"]>; mine: Review | null }) {
  const node = item.left;
  const judge = mine?.judge ?? null;
  return (
    <div className="grid gap-3 md:grid-cols-2">
      <article className="flex flex-col gap-2 rounded border border-slate-200 bg-white p-3" data-testid="review-verdict-task">
        <h3 className="text-sm font-semibold text-slate-900">Task · {judged.taskTitle}</h3>
        <p className="whitespace-pre-wrap text-sm leading-relaxed text-slate-800" data-testid="review-verdict-prompt">
          {judged.prompt}
        </p>
      </article>
      <article className="flex flex-col gap-2 rounded border border-slate-200 bg-white p-3" data-testid="review-verdict-answer">
        <header className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 className="text-sm font-semibold text-slate-900">
            Answer · trial {node.trial}
            {node.arm ? ` · arm ${node.arm}` : ""}
          </h3>
          {/* The run page shows the verdict on the evaluation node: the link waits for this reviewer's label. */}
          {mine && node.runId !== null && node.branchId !== null && node.eventId !== null ? (
            <Link href={runMomentHref(node.runId, { branch: node.branchId, node: node.eventId })} className="text-xs text-sky-800 underline" data-testid="review-verdict-link">
              Open in its run
            </Link>
          ) : (
            <span className="text-xs text-slate-600">the link appears after you review</span>
          )}
        </header>
        <p className="whitespace-pre-wrap text-sm leading-relaxed text-slate-800" data-testid="review-verdict-answer-text">
          {node.text}
        </p>
      </article>
      {judge ? (
        <p className="text-sm text-slate-800 md:col-span-2" data-testid="review-verdict-judge">
          LLM judge ({judged.judgeModelId}, a model&apos;s opinion, not an oracle): <strong>{judge.verdict.toUpperCase()}</strong> — weighted score {judge.score.toFixed(2)} against threshold{" "}
          {judged.threshold.toFixed(2)}. {mine?.label === judge.verdict ? "You agree." : "You disagree."}
        </p>
      ) : (
        <p className="text-xs text-slate-600 md:col-span-2" data-testid="review-verdict-blind">
          The judge&apos;s verdict is hidden until you save a label (grading blind keeps the agreement honest).
        </p>
      )}
    </div>
  );
}
