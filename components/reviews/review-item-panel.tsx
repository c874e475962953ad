"use client";

import { useMutation } from "@tanstack/react-query";
import { useRef, useState } from "react";
import type { Review, ReviewQueue } from "@/lib/domain/review-queue";
import type { ReviewItemInView } from "@/lib/domain/review-view";
import type { ReviewSaveRequest } from "@/lib/domain/review-requests";
import { postReview } from "@/lib/query/review-queries";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { ReviewNodeView } from "./review-node-view";
import { useReviewKeys } from "./use-review-keys";
import { VerdictItemView } from "./verdict-item-view";

const tagsOf = (text: string) =>
  text
    .split(/[,\s]+/u)
    .map((tag) => tag.trim().toLowerCase())
    .filter((tag) => tag.length > 0);

/**
 * One item for one reviewer: the node (single) or the two nodes side by side as recorded (pairwise;
 * arms and the links into their runs hidden until this reviewer has reviewed the item; either kind:
 * whether the next trial succeeded hidden until then), the rubric's labels, tags, a comment and
 * a correction (not on a verdict item: it shows the task and the judged answer, the judge's verdict
 * only after this reviewer's label is saved, and takes no correction). Choosing a label saves the review with what is typed; the review keys act here.
 * The item comes from this reviewer's view (lib/domain/review-view.ts), so what stays hidden here
 * was not fetched either. Mounted per item and reviewer (React `key`), so the fields start from that reviewer's review.
 */
export function ReviewItemPanel(props: {
  queue: ReviewQueue;
  /** The item as this reviewer's view gives it (a full item works too). */
  item: ReviewItemInView;
  reviewer: string;
  mine: Review | null;
  onSaved: (review: Review) => void;
  onMove: (direction: 1 | -1) => void;
  onHelp: () => void;
}) {
  const { queue, item, reviewer, mine } = props;
  const [tags, setTags] = useState(mine?.tags.join(", ") ?? "");
  const [comment, setComment] = useState(mine?.comment ?? "");
  const [correction, setCorrection] = useState(mine?.correction ?? "");
  const tagsRef = useRef<HTMLInputElement>(null);
  const commentRef = useRef<HTMLTextAreaElement>(null);
  const correctionRef = useRef<HTMLTextAreaElement>(null);
  const judged = item.judged ?? null;
  const save = useMutation({ mutationFn: (request: ReviewSaveRequest) => postReview(queue.id, request), onSuccess: props.onSaved });
  const choose = (label: string) => {
    if (save.isPending) return;
    save.mutate({ itemId: item.id, reviewer, label, tags: tagsOf(tags), comment, correction: judged || correction.trim() === "" ? null : correction });
  };
  useReviewKeys(true, queue.rubric.labels.length, (action) => {
    if (action.kind === "label") choose(queue.rubric.labels[action.index]!.id);
    else if (action.kind === "move") props.onMove(action.direction);
    else if (action.kind === "focus") (action.field === "tags" ? tagsRef : action.field === "comment" ? commentRef : correctionRef).current?.focus();
    else props.onHelp();
  });
  const pairwise = queue.kind === "pairwise" && item.right !== null;
  const reviewed = mine !== null;
  return (
    <section className="space-y-3" aria-label={`Item ${item.position + 1}`} data-testid="review-item" data-item-id={item.id} data-position={item.position}>
      <p className="text-xs text-slate-600">
        Item {item.position + 1} · task <span className="font-mono">{item.taskId}</span>
        {reviewed ? ` · you chose “${mine.label}”${pairwise && mine.preferredArm ? ` (${mine.preferredArm === "tie" ? "a tie" : `arm ${mine.preferredArm}`})` : ""}` : " · not reviewed by you yet"}
      </p>
      <p className="text-sm font-medium text-slate-900">{queue.rubric.question}</p>
      {judged ? (
        <VerdictItemView item={item} judged={judged} mine={mine} />
      ) : pairwise ? (
        <div className="grid gap-3 md:grid-cols-2">
          <ReviewNodeView node={item.left} heading="Left" showArm={reviewed} showOutcome={reviewed} showLink={reviewed} testId="review-left" />
          <ReviewNodeView node={item.right!} heading="Right" showArm={reviewed} showOutcome={reviewed} showLink={reviewed} testId="review-right" />
        </div>
      ) : (
        <ReviewNodeView node={item.left} heading={item.left.arm ? `Reflection · arm ${item.left.arm}` : "Reflection"} showArm={false} showOutcome={reviewed} showLink testId="review-node" />
      )}
      <div className="flex flex-wrap gap-2" role="group" aria-label="Labels">
        {queue.rubric.labels.map((label, index) => (
          <Button
            key={label.id}
            variant={mine?.label === label.id ? "primary" : "secondary"}
            aria-pressed={mine?.label === label.id}
            title={label.description}
            disabled={save.isPending}
            onClick={() => choose(label.id)}
            data-testid={`review-label-${label.id}`}
          >
            <kbd className="mr-1.5 rounded border border-current px-1 text-[10px]">{index + 1}</kbd>
            {label.id}
          </Button>
        ))}
      </div>
      <div className={`grid gap-3 ${judged ? "md:grid-cols-2" : "md:grid-cols-3"}`}>
        <label className="space-y-1 text-xs text-slate-700">
          <span>
            Tags <kbd className="rounded border px-1">t</kbd>
          </span>
          <input ref={tagsRef} value={tags} onChange={(event) => setTags(event.target.value)} placeholder="loop, false-positive" className="h-8 w-full rounded border border-slate-300 px-2 text-sm" data-testid="review-tags" />
        </label>
        <label className="space-y-1 text-xs text-slate-700">
          <span>
            Comment <kbd className="rounded border px-1">c</kbd>
          </span>
          <textarea ref={commentRef} value={comment} onChange={(event) => setComment(event.target.value)} rows={3} className="w-full rounded border border-slate-300 px-2 py-1 text-sm" data-testid="review-comment" />
        </label>
        {judged ? null : (
          <label className="space-y-1 text-xs text-slate-700">
            <span>
              Corrected reflection <kbd className="rounded border px-1">e</kbd>
            </span>
            <textarea
              ref={correctionRef}
              value={correction}
              onChange={(event) => setCorrection(event.target.value)}
              rows={3}
              placeholder={pairwise ? "a better reflection for this task (filed under the one you preferred)" : "a better reflection for this task"}
              className="w-full rounded border border-slate-300 px-2 py-1 text-sm"
              data-testid="review-correction"
            />
          </label>
        )}
      </div>
      <p className="text-xs text-slate-600">
        {judged
          ? "Choosing a label saves the review with the tags and comment typed, and records the label as your grade of this trial on the judge page (the comment is its note); Esc leaves a field."
          : "Choosing a label saves the review with the tags, comment and correction typed; Esc leaves a field."}
      </p>
      {save.error ? (
        <Notice tone="error" title="The review was not saved">
          {save.error.message} Choose the label again to retry; your other reviews are kept.
        </Notice>
      ) : null}
    </section>
  );
}
