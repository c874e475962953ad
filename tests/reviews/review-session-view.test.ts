// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createElement, type ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ReviewSession } from "@/components/reviews/review-session";
import { queueProgress } from "@/lib/domain/review-progress";
import type { Review } from "@/lib/domain/review-queue";
import type { ReviewQueueDetail } from "@/lib/domain/review-requests";
import { reviewerView } from "@/lib/domain/review-view";
import { reviewFixture } from "../db/review-store-contract";

vi.mock("next/link", () => ({ default: ({ href, children, ...rest }: { href: string; children?: ReactNode }) => createElement("a", { href, ...rest }, children) }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A pairwise queue of three items: ann reviewed item 0, bob reviewed items 0 and 1. */
function pairwiseDetail(): ReviewQueueDetail {
  const { queue, items } = reviewFixture("q1", { kind: "pairwise" });
  const review = (itemId: string, reviewer: string, label: string): Review => ({ queueId: "q1", itemId, reviewer, label, preferredArm: "A", tags: [], comment: "", correction: null, reviewedAt: "2026-12-05T11:00:00.000Z" });
  const reviews = [review("q1-item-0", "ann", "left"), review("q1-item-0", "bob", "left"), review("q1-item-1", "bob", "right")];
  return { queue, items, reviews, progress: queueProgress(queue, items.map((item) => item.id), reviews) };
}

/** Serves `GET /api/reviews/q1?reviewer=` as the route does (the reviewer's view), recording the URLs asked for. */
function serve(detail: ReviewQueueDetail) {
  const asked: string[] = [];
  vi.stubGlobal("fetch", async (url: string) => {
    asked.push(url);
    const reviewer = new URL(url, "http://127.0.0.1").searchParams.get("reviewer");
    const body = reviewer === null ? detail : reviewerView(detail, reviewer === "" ? null : reviewer);
    return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
  });
  return asked;
}

describe("ReviewSession asks only for the reviewer's view", () => {
  it("before a pick asks for nobody's view; after picking ann, ann's view, starting at her first unreviewed item, blinded", async () => {
    const asked = serve(pairwiseDetail());
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(createElement(QueryClientProvider, { client }, createElement(ReviewSession, { queueId: "q1" })));
    await screen.findByTestId("review-as-ann");
    expect(asked).toEqual(["/api/reviews/q1?reviewer="]);
    // Progress counts come with any view.
    expect(screen.getByTestId("review-progress-bob").textContent).toMatch(/2/);
    fireEvent.click(screen.getByTestId("review-as-ann"));
    await screen.findByTestId("review-item");
    expect(asked.at(-1)).toBe("/api/reviews/q1?reviewer=ann");
    expect(asked.every((url) => url.includes("?reviewer="))).toBe(true);
    // Item 1 (index 1): ann has not reviewed it, though bob has; nothing of it or of bob's review is shown.
    await waitFor(() => expect(screen.getByTestId("review-item").getAttribute("data-item-id")).toBe("q1-item-1"));
    expect(screen.getByTestId("review-item").textContent).toContain("not reviewed by you yet");
    expect(screen.queryByTestId("review-left-arm")).toBeNull();
    expect(screen.getByTestId("review-left-link-hidden")).toBeTruthy();
    expect(document.querySelectorAll("a[href^='/runs/']")).toHaveLength(0);
    expect(screen.getByTestId("review-label-right").getAttribute("aria-pressed")).toBe("false");
    // Back to item 0, which ann reviewed: arms and links are there.
    fireEvent.click(screen.getByTestId("review-previous"));
    await waitFor(() => expect(screen.getByTestId("review-left-arm")).toBeTruthy());
    expect(screen.getByTestId("review-left-link").getAttribute("href")).toMatch(/^\/runs\//);
  });
});
