import { QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LessonNotes } from "@/components/lessons/lesson-notes";
import type { Annotation } from "@/lib/domain/annotations";
import { annotationKeys } from "@/lib/query/annotation-queries";
import { makeQueryClient } from "@/lib/query/client";

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

function render(annotations: Annotation[], eventIds: string[]) {
  const client = makeQueryClient();
  client.setQueryData(annotationKeys.branch("run-1", null), { runId: "run-1", branchId: "br-1", annotations });
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

  it("draws nothing when no spotlighted node has a note", () => {
    expect(render([note("b", "ev-elsewhere")], ["ev-reflection"])).toBe("");
  });
});
