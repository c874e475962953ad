// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createElement, type ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ReviewItemPanel } from "@/components/reviews/review-item-panel";
import { VERDICT_RUBRIC, type Review, type ReviewItem, type ReviewQueue } from "@/lib/domain/review-queue";

// next/link needs the app router; a plain anchor is what it renders.
vi.mock("next/link", () => ({ default: ({ href, children, ...rest }: { href: string; children?: ReactNode }) => createElement("a", { href, ...rest }, children) }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const queue: ReviewQueue = {
  id: "qv",
  name: "verdicts",
  kind: "single",
  rubric: VERDICT_RUBRIC,
  reviewers: ["ann"],
  source: { experimentId: "exp-1", arms: ["A"], query: null, items: "verdicts" },
  seed: 1,
  createdAt: "2026-12-05T10:00:00.000Z",
  createdBy: "ann",
};

const item: ReviewItem = {
  id: "qv-0",
  queueId: "qv",
  position: 0,
  taskId: "open-commit-message",
  left: { runId: "run-1", branchId: "br-1", eventId: "ev-eval-1", kind: "evaluation", trial: 1, step: null, arm: "A", text: "Fix login timeout\n\nRaise the session limit.", followedBySuccess: null },
  right: null,
  leftArm: null,
  judged: { taskTitle: "Commit message", prompt: "Write a commit message for this diff: …", threshold: 0.8, judgeModelId: "demo" },
};

function renderPanel(mine: Review | null, onSaved = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(createElement(QueryClientProvider, { client }, createElement(ReviewItemPanel, { queue, item, reviewer: "ann", mine, onSaved, onMove: vi.fn(), onHelp: vi.fn() })));
  return { onSaved };
}

describe("ReviewItemPanel on a verdict item", () => {
  it("shows the task and the answer, blind to the judge; a label key saves pass/fail with the comment and no correction", async () => {
    const posted: Array<Record<string, unknown>> = [];
    vi.stubGlobal("fetch", async (_url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      posted.push(body);
      const review: Review = { queueId: "qv", itemId: item.id, reviewer: "ann", label: String(body.label), preferredArm: null, tags: [], comment: String(body.comment), correction: null, reviewedAt: "2026-12-05T12:00:00.000Z", judge: { verdict: "fail", score: 0.57 } };
      return new Response(JSON.stringify(review), { status: 201, headers: { "content-type": "application/json" } });
    });
    const { onSaved } = renderPanel(null);
    expect(screen.getByText(VERDICT_RUBRIC.question)).toBeTruthy();
    expect(screen.getByTestId("review-verdict-prompt").textContent).toBe(item.judged!.prompt);
    expect(screen.getByTestId("review-verdict-answer-text").textContent).toBe(item.left.text);
    // No way to the run (whose evaluation node shows the verdict) before the label.
    expect(screen.queryByTestId("review-verdict-link")).toBeNull();
    expect(screen.getByTestId("review-verdict-blind")).toBeTruthy();
    expect(screen.queryByTestId("review-verdict-judge")).toBeNull();
    expect(screen.queryByTestId("review-correction")).toBeNull();
    expect(document.body.textContent).not.toMatch(/FAIL|weighted score/);
    fireEvent.change(screen.getByTestId("review-comment"), { target: { value: "the body explains why" } });
    fireEvent.keyDown(window, { key: "1" });
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(posted).toEqual([{ itemId: item.id, reviewer: "ann", label: "pass", tags: [], comment: "the body explains why", correction: null }]);
  });

  it("once saved, shows the judge's verdict and weighted score against the threshold, and whether the reviewer agrees", () => {
    renderPanel({ queueId: "qv", itemId: item.id, reviewer: "ann", label: "pass", preferredArm: null, tags: [], comment: "", correction: null, reviewedAt: "2026-12-05T12:00:00.000Z", judge: { verdict: "fail", score: 0.57 } });
    const judge = screen.getByTestId("review-verdict-judge").textContent;
    expect(judge).toContain("FAIL");
    expect(judge).toContain("weighted score 0.57 against threshold 0.80");
    expect(judge).toContain("You disagree.");
    expect(screen.queryByTestId("review-verdict-blind")).toBeNull();
    expect(screen.getByTestId("review-verdict-link").getAttribute("href")).toBe("/runs/run-1?branch=br-1&node=ev-eval-1");
    expect(screen.getByTestId("review-label-pass").getAttribute("aria-pressed")).toBe("true");
  });
});
