import { QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LessonNotes } from "@/components/lessons/lesson-notes";
import type { Annotation } from "@/lib/domain/annotations";
import { annotationKeys } from "@/lib/query/annotation-queries";
import { makeQueryClient } from "@/lib/query/client";
import { memoryStoresKey } from "@/lib/query/cost-queries";
import type { MemoryEntry } from "@/lib/domain/memory-store";

const note = (id: string, eventId: string, overrides: Partial<Annotation> = {}): Annotation => ({
  id,
  target: { runId: "run-1", branchId: "br-1", eventId, kind: "reflection", trial: 1, step: null, seq: 30 },
  parentId: null,
  author: "teacher",
  content: { text: `note ${id} <b>bold?</b>`, tags: ["key-fact"], score: null },
  origin: null,
  createdAt: "2026-12-05T12:00:00.000Z",
  updatedAt: "2026-12-05T12:00:00.000Z",
  updatedBy: "teacher",
  deleted: false,
  history: [],
  ...overrides,
});

const correction = (eventId: string): MemoryEntry => ({
  id: "corr-1",
  store: "gold-reflections",
  environment: "qa",
  taskId: "qa-builtin-01",
  text: "I searched the river's name, not the town: search the town first.",
  source: { runId: "run-1", branchId: "br-1", trial: 1, eventId: "corr-1" },
  createdAt: "2026-12-05T12:10:00.000Z",
  expiresAt: "2036-12-05T12:10:00.000Z",
  correctedFrom: { queueId: "rq-1", itemId: "it-1", reviewer: "bob", runId: "run-1", eventId, originalText: "I should try harder." },
});

function render(annotations: Annotation[], eventIds: string[], entries: MemoryEntry[] = []) {
  const client = makeQueryClient();
  client.setQueryData(annotationKeys.branch("run-1", null), { runId: "run-1", branchId: "br-1", annotations });
  client.setQueryData([...memoryStoresKey(), "run", "run-1"], { entries });
  return renderToStaticMarkup(createElement(QueryClientProvider, { client }, createElement(LessonNotes, { runId: "run-1", eventIds, large: false })));
}

describe("a lesson step's notes", () => {
  it("shows the live notes on the spotlighted nodes only, text-safe, with who wrote them and where", () => {
    const html = render([note("a", "ev-reflection"), note("b", "ev-elsewhere"), note("c", "ev-reflection", { deleted: true, content: { text: "gone", tags: [], score: null } })], ["ev-reflection"]);
    expect(html).toContain('data-testid="lesson-notes"');
    expect(html).toContain("note a");
    expect(html).toContain("teacher · reflection · trial 1");
    expect(html).toContain("#key-fact");
    expect(html).not.toContain("note b");
    expect(html).not.toContain("gone");
    expect(html).not.toContain("<b>");
  });

  it("shows a reviewer's corrected reflection of a spotlighted reflection, and not one of another node", () => {
    const html = render([], ["ev-reflection"], [correction("ev-reflection")]);
    expect(html).toContain('data-testid="lesson-correction"');
    expect(html).toContain("bob · a corrected reflection");
    expect(html).toContain("search the town first");
    expect(render([], ["ev-reflection"], [correction("ev-other")])).toBe("");
  });

  it("draws nothing when no spotlighted node has a note", () => {
    expect(render([note("b", "ev-elsewhere")], ["ev-reflection"])).toBe("");
  });
});
