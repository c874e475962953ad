// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createElement, type ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { reviewKeyAction } from "@/components/reviews/use-review-keys";
import { ReviewItemPanel } from "@/components/reviews/review-item-panel";
import type { Review } from "@/lib/domain/review-queue";
import { reviewFixture } from "../db/review-store-contract";

// next/link needs the app router; a plain anchor is what it renders.
vi.mock("next/link", () => ({ default: ({ href, children, ...rest }: { href: string; children?: ReactNode }) => createElement("a", { href, ...rest }, children) }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("reviewKeyAction", () => {
  const key = (value: string, extra: Partial<KeyboardEvent> = {}) => reviewKeyAction({ key: value, ctrlKey: false, metaKey: false, altKey: false, ...extra }, 3);
  it("maps 1…n to the rubric's labels (not beyond n), arrows and j/k to moves, t/c/e to the fields, ? to help", () => {
    expect(key("1")).toEqual({ kind: "label", index: 0 });
    expect(key("3")).toEqual({ kind: "label", index: 2 });
    expect(key("4")).toBeNull();
    expect(key("ArrowRight")).toEqual({ kind: "move", direction: 1 });
    expect(key("j")).toEqual({ kind: "move", direction: 1 });
    expect(key("ArrowLeft")).toEqual({ kind: "move", direction: -1 });
    expect(key("k")).toEqual({ kind: "move", direction: -1 });
    expect(key("t")).toEqual({ kind: "focus", field: "tags" });
    expect(key("c")).toEqual({ kind: "focus", field: "comment" });
    expect(key("e")).toEqual({ kind: "focus", field: "correction" });
    expect(key("?")).toEqual({ kind: "help" });
    expect(key("c", { ctrlKey: true })).toBeNull();
    expect(key("x")).toBeNull();
  });
});

describe("ReviewItemPanel", () => {
  function renderPanel(mine: Review | null, onSaved = vi.fn(), onMove = vi.fn(), kind: "single" | "pairwise" = "pairwise") {
    const { queue, items } = reviewFixture("q1", { kind });
    const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
    render(createElement(QueryClientProvider, { client }, createElement(ReviewItemPanel, { queue, item: items[1]!, reviewer: "bob", mine, onSaved, onMove, onHelp: vi.fn() })));
    return { item: items[1]!, onSaved, onMove };
  }

  it("hides the arms and the links into the runs until reviewed; a label key saves the review with the typed comment, tags and correction", async () => {
    const posted: unknown[] = [];
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      posted.push({ url, body });
      const review: Review = { queueId: "q1", itemId: String(body.itemId), reviewer: "bob", label: String(body.label), preferredArm: "B", tags: body.tags as string[], comment: String(body.comment), correction: (body.correction as string | null) ?? null, reviewedAt: "2026-12-05T12:00:00.000Z" };
      return new Response(JSON.stringify(review), { status: 201, headers: { "content-type": "application/json" } });
    });
    const { item, onSaved } = renderPanel(null);
    expect(screen.queryByTestId("review-left-arm")).toBeNull();
    expect(screen.getByTestId("review-left-text").textContent).toBe(item.left.text);
    // The run page names the arm (memory window, run title): no link into it before the review.
    expect(screen.queryByTestId("review-left-link")).toBeNull();
    expect(screen.queryByTestId("review-right-link")).toBeNull();
    expect(document.querySelectorAll("a[href^='/runs/']")).toHaveLength(0);
    expect(screen.getByTestId("review-left-link-hidden").textContent).toBe("links appear after you review");
    expect(screen.getByTestId("review-right-link-hidden").textContent).toBe("links appear after you review");
    expect(screen.getByTestId("review-left").textContent).not.toMatch(/next trial/);
    fireEvent.change(screen.getByTestId("review-comment"), { target: { value: "vague plan" } });
    fireEvent.change(screen.getByTestId("review-tags"), { target: { value: "Loop, false-positive" } });
    fireEvent.change(screen.getByTestId("review-correction"), { target: { value: "Search the director." } });
    fireEvent.keyDown(window, { key: "2" });
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(posted).toEqual([{ url: "/api/reviews/q1/reviews", body: { itemId: item.id, reviewer: "bob", label: "right", tags: ["loop", "false-positive"], comment: "vague plan", correction: "Search the director." } }]);
  });

  it("shows the arms and the chosen label once reviewed; j / k move", () => {
    const { item, onMove } = renderPanel({ queueId: "q1", itemId: "q1-item-1", reviewer: "bob", label: "left", preferredArm: "B", tags: [], comment: "", correction: null, reviewedAt: "2026-12-05T12:00:00.000Z" });
    expect(screen.getByTestId("review-left-arm").textContent).toBe(`arm ${item.left.arm}`);
    expect(screen.getByTestId("review-left-link").getAttribute("href")).toBe(`/runs/${item.left.runId}?branch=${item.left.branchId}&node=${item.left.eventId}`);
    expect(screen.getByTestId("review-right-link").getAttribute("href")).toBe(`/runs/${item.right!.runId}?branch=${item.right!.branchId}&node=${item.right!.eventId}`);
    expect(screen.queryByTestId("review-left-link-hidden")).toBeNull();
    expect(screen.getByTestId("review-label-left").getAttribute("aria-pressed")).toBe("true");
    fireEvent.keyDown(window, { key: "j" });
    fireEvent.keyDown(window, { key: "k" });
    expect(onMove.mock.calls).toEqual([[1], [-1]]);
  });

  it("single queue: whether the next trial succeeded stays hidden until this reviewer has saved a review of the item", () => {
    const { item } = renderPanel(null, vi.fn(), vi.fn(), "single");
    expect(item.left.followedBySuccess).toBe(false);
    expect(screen.getByTestId("review-node").textContent).toContain(`reflection after trial ${item.left.trial}`);
    expect(screen.getByTestId("review-node").textContent).not.toMatch(/next trial/);
    cleanup();
    renderPanel({ queueId: "q1", itemId: "q1-item-1", reviewer: "bob", label: "vague", preferredArm: null, tags: [], comment: "", correction: null, reviewedAt: "2026-12-05T12:00:00.000Z" }, vi.fn(), vi.fn(), "single");
    expect(screen.getByTestId("review-node").textContent).toContain(`reflection after trial ${item.left.trial} · the next trial failed`);
  });
});
