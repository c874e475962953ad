"use client";

import { queryOptions } from "@tanstack/react-query";
import { reviewSchema } from "@/lib/domain/review-queue";
import { reviewQueueViewSchema } from "@/lib/domain/review-view";
import { reviewQueueDetailSchema, reviewQueueListResponseSchema, type ReviewExportFormat, type ReviewQueueCreateRequest, type ReviewSaveRequest } from "@/lib/domain/review-requests";
import { fetchJson, retryUnlessClientError } from "./fetch-json";

/** Query keys of the review pages. */
export const reviewKeys = {
  all: ["reviews"] as const,
  list: () => [...reviewKeys.all, "list"] as const,
  /** One reviewer's view of a queue (null: nobody picked yet). */
  queue: (queueId: string, reviewer: string | null) => [...reviewKeys.all, "queue", queueId, reviewer ?? ""] as const,
};

/** How often a queue page re-reads its queue (other reviewers' progress and the agreement), ms. */
export const REVIEW_QUEUE_POLL_MS = 5_000;

/** `GET /api/reviews`: every queue with its progress. */
export const reviewQueueListQuery = () =>
  queryOptions({
    queryKey: reviewKeys.list(),
    queryFn: ({ signal }) => fetchJson("/api/reviews", reviewQueueListResponseSchema, { signal }),
    retry: retryUnlessClientError,
  });

/**
 * `GET /api/reviews/:queueId?reviewer=`: `reviewer`'s view of the queue (lib/domain/review-view.ts;
 * null: the view before a name is picked), so the page never fetches what it must not show yet.
 * Polled: another reviewer may be at work.
 */
export const reviewQueueQuery = (queueId: string, reviewer: string | null) =>
  queryOptions({
    queryKey: reviewKeys.queue(queueId, reviewer),
    queryFn: ({ signal }) => fetchJson(`/api/reviews/${encodeURIComponent(queueId)}?reviewer=${encodeURIComponent(reviewer ?? "")}`, reviewQueueViewSchema, { signal }),
    retry: retryUnlessClientError,
    refetchInterval: REVIEW_QUEUE_POLL_MS,
  });

/** `POST /api/reviews`: build a queue. */
export function postReviewQueue(request: ReviewQueueCreateRequest) {
  return fetchJson("/api/reviews", reviewQueueDetailSchema, { method: "POST", body: request });
}

/** `POST /api/reviews/:queueId/reviews`: save one review (again = replace). */
export function postReview(queueId: string, request: ReviewSaveRequest) {
  return fetchJson(`/api/reviews/${encodeURIComponent(queueId)}/reviews`, reviewSchema, { method: "POST", body: request });
}

/** The download link of a queue's export. */
export function reviewExportHref(queueId: string, format: ReviewExportFormat): string {
  return `/api/reviews/${encodeURIComponent(queueId)}/export?format=${format}`;
}
