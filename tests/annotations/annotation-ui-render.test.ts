import { QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AnnotationThread } from "@/components/inspector/annotation-thread";
import { MemoryPanel } from "@/components/memory";
import { parseTags } from "@/components/inspector/annotation-form";
import type { Annotation } from "@/lib/domain/annotations";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { deriveRunGraph } from "@/lib/graph";
import { annotationCounts, annotationKeys } from "@/lib/query/annotation-queries";
import { makeQueryClient } from "@/lib/query/client";
import { createServerContext } from "@/lib/server/app-context";
import { renderGraphNode } from "../helpers/render-node";

const note = (overrides: Partial<Annotation>): Annotation => ({
  id: "a1",
  target: { runId: "run-1", branchId: "br-1", eventId: "ev-action", kind: "action", trial: 1, step: 2, seq: 9 },
  parentId: null,
  author: "ada",
  content: { text: "Searched **twice** <img src=x onerror=alert(1)> <script>alert(2)</script>", tags: ["loop"], score: { scale: "quality", value: 2 } },
  origin: null,
  createdAt: "2026-12-05T12:00:00.000Z",
  updatedAt: "2026-12-05T12:00:00.000Z",
  updatedBy: "ada",
  deleted: false,
  history: [],
  ...overrides,
});

/** The thread of node `eventId` rendered on the server from a prefilled query cache (what the first paint shows). */
function renderThread(annotations: Annotation[], eventId = "ev-action") {
  const client = makeQueryClient();
  client.setQueryData(annotationKeys.branch("run-1", null), { runId: "run-1", branchId: "br-1", annotations });
  return renderToStaticMarkup(createElement(QueryClientProvider, { client }, createElement(AnnotationThread, { runId: "run-1", branchId: null, eventId, nodeType: "action" })));
}

describe("the inspector's Notes section", () => {
  it("says there are no notes yet and offers the form", () => {
    const html = renderThread([note({ target: { ...note({}).target, eventId: "another-node" } })]);
    expect(html).toContain("No notes on this node yet.");
    expect(html).toContain('data-testid="annotation-form"');
    // No name stored in this (server) render: the form asks for one.
    expect(html).toContain('data-testid="annotation-author"');
  });

  it("renders Markdown text-safe: emphasis as markup, raw HTML dropped, never an element", () => {
    const html = renderThread([note({})]);
    expect(html).toContain("<strong>twice</strong>");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<script");
    expect(html).not.toContain("onerror");
    expect(html).toContain("#loop");
    expect(html).toContain("quality 2");
  });

  it("shows a thread, an edit with its earlier versions, and a deleted note as who deleted it", () => {
    const html = renderThread([
      note({ id: "a1", history: [{ content: { text: "first wording", tags: [], score: null }, replacedAt: "2026-12-05T12:05:00.000Z", replacedBy: "grace" }], updatedBy: "grace", content: { text: "second wording", tags: [], score: null } }),
      note({ id: "a2", parentId: "a1", author: "grace", content: { text: "a reply", tags: [], score: null } }),
      note({ id: "a3", deleted: true, updatedBy: "grace", content: { text: "secret typo", tags: [], score: null } }),
    ]);
    expect(html).toContain("edited by grace");
    expect(html).toContain("Earlier versions (1)");
    expect(html).toContain("first wording");
    expect(html).toMatch(/Replies to ada.*a reply/su);
    expect(html).toContain("Deleted by grace");
    expect(html).not.toContain("secret typo");
    expect(html).toContain("Notes (2)");
  });

  it("shows a link with an unsafe URL as plain text, and a safe one as a link that opens elsewhere", () => {
    const html = renderThread([note({ content: { text: "[click](javascript:alert(1)) and [docs](https://example.org/x)", tags: [], score: null } })]);
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain('href=""');
    expect(html).toContain("<span>click</span>");
    expect(html).toMatch(/<a href="https:\/\/example.org\/x"[^>]*target="_blank"/u);
  });

  it("splits typed tags on commas and spaces, lower-cased, without repeats", () => {
    expect(parseTags(" Loop, false-positive  loop,,")).toEqual(["loop", "false-positive"]);
  });
});

describe("the graph's note badges", () => {
  it("counts live notes per node (replies included, deleted ones not) and draws the count on that node only", async () => {
    const counts = annotationCounts([note({ id: "a1" }), note({ id: "a2", parentId: "a1" }), note({ id: "a3", deleted: true }), note({ id: "b1", target: { ...note({}).target, eventId: "ev-other" } })]);
    expect([...counts]).toEqual([
      ["ev-action", 2],
      ["ev-other", 1],
    ]);

    const context = createServerContext({ store: new MemoryRunStore() });
    const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo" });
    await context.workers.untilSettled(run.rootBranchId);
    const graph = deriveRunGraph(foldRun((await context.service.events(run.id)).events));
    await context.close();
    const [action, other] = graph.nodes.filter((node) => node.type === "action");
    expect(renderGraphNode(action!)).not.toContain("annotation-badge");
    expect(renderGraphNode(action!, new Map([[action!.id, 3]]))).toMatch(/data-testid="annotation-badge"[^>]*aria-label="3 notes"/u);
    expect(renderGraphNode(other!, new Map([[action!.id, 3]]))).not.toContain("annotation-badge");
  });
});

describe("notes on memory items", () => {
  it("the memory panel's list of reflections shows each item's notes (collapsed), from the same annotation list", async () => {
    const context = createServerContext({ store: new MemoryRunStore() });
    const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo" });
    await context.workers.untilSettled(run.rootBranchId);
    const state = foldRun((await context.service.events(run.id)).events);
    await context.close();
    const [item] = state.memory;
    if (!item) throw new Error("the demo run wrote no reflection");
    const client = makeQueryClient();
    const onItem = note({ target: { runId: run.id, branchId: run.rootBranchId, eventId: item.id, kind: "memory-item", trial: item.trial, step: null, seq: null }, content: { text: "this lesson fixed trial 2", tags: ["fix"], score: null } });
    client.setQueryData(annotationKeys.branch(run.id, null), { runId: run.id, branchId: run.rootBranchId, annotations: [onItem] });
    const html = renderToStaticMarkup(createElement(QueryClientProvider, { client }, createElement(MemoryPanel, { runId: run.id, branch: null, state, status: "ended" })));
    const entry = html.slice(html.indexOf(`data-memory-id="${item.id}"`));
    expect(entry).toContain('data-testid="memory-item-notes"');
    expect(entry).toContain("this lesson fixed trial 2");
    expect(entry).toContain("#fix");
  });
});
