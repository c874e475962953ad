// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement, useEffect } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { deriveRunGraph, type RunGraph } from "@/lib/graph";
import { RunUiStoreProvider, useRunUiStore, type RunUiState } from "@/lib/store";
import { RunMainViews, RunTranscript } from "@/components/transcript";
import { twoTrialReflexionRun } from "./fixtures";

/**
 * The transcript view in a DOM (happy-dom + Testing Library): one entry per
 * graph node under a heading per trial, selection shared with the run UI store
 * both ways (Details selects; a node selected elsewhere is marked current), a
 * lesson's spotlight shown, and the Graph | Transcript tabs with a visually
 * hidden transcript before the graph that keeps its buttons out of the Tab order.
 */

/** Exposes the run UI store to the test. */
let store: RunUiState | null = null;
function StoreProbe() {
  const state = useRunUiStore((s) => s);
  useEffect(() => {
    store = state;
  });
  return null;
}

/** The tabs around a stand-in for the canvas. */
function GraphViews({ graph }: { graph: RunGraph }) {
  return createElement(RunMainViews, { graph }, createElement("div", { "data-testid": "graph-canvas" }, "canvas"));
}

function mount(graph: RunGraph, element: "transcript" | "views" = "transcript") {
  const content = element === "transcript" ? createElement(RunTranscript, { graph }) : createElement(GraphViews, { graph });
  return render(createElement(RunUiStoreProvider, null, createElement(StoreProbe), content));
}

afterEach(() => {
  cleanup();
  store = null;
  window.localStorage.clear();
});

describe("RunTranscript", () => {
  const run = twoTrialReflexionRun();
  const graph = deriveRunGraph(foldRun(run.log.events));
  const nodeIds = graph.nodes.filter((node) => node.type !== "lane").map((node) => node.id);

  it("has one entry per graph node, in the graph's order, under one heading per trial", () => {
    mount(graph);
    const entries = screen.getAllByTestId("transcript-entry");
    expect(entries.map((entry) => entry.getAttribute("data-transcript-node"))).toEqual(nodeIds);
    expect(screen.getAllByRole("heading", { level: 3 }).map((heading) => heading.textContent)).toEqual(["Trial 1: halted (step budget)", "Trial 2: solved"]);
    // The reflection's text is there as text, and trial 2 says it carried it in.
    const reflection = entries.find((entry) => entry.getAttribute("data-transcript-node") === run.reflectionId);
    const reflectionNode = graph.nodes.find((node) => node.id === run.reflectionId);
    expect(reflectionNode?.type).toBe("reflection");
    if (reflectionNode?.type !== "reflection") return;
    expect(reflection?.textContent).toContain(reflectionNode.data.text);
    expect(screen.getByTestId("transcript-memory-in").textContent).toContain(`Memory carried in from trial 1: ${reflectionNode.data.text}`);
  });

  it("Details selects the node; a node selected elsewhere (the graph, a lesson) is the current entry", () => {
    mount(graph);
    const entry = screen.getAllByTestId("transcript-entry").find((element) => element.getAttribute("data-transcript-node") === run.reflectionId)!;
    fireEvent.click(within(entry).getByTestId("transcript-select"));
    expect(store?.selectedNodeId).toBe(run.reflectionId);
    expect(store?.inspectorOpen).toBe(true);
    expect(entry.getAttribute("aria-current")).toBe("true");
    act(() => store?.selectNode(run.trial2StartId));
    expect(entry.getAttribute("aria-current")).toBeNull();
    const header = screen.getAllByTestId("transcript-entry").find((element) => element.getAttribute("data-transcript-node") === run.trial2StartId)!;
    expect(header.getAttribute("aria-current")).toBe("true");
    act(() => store?.setSpotlight([run.reflectionId]));
    expect(entry.getAttribute("data-spotlit")).toBe("true");
    expect(entry.textContent).toContain("the lesson points here");
  });

  it("a replay prefix shows only what the prefix holds", () => {
    const prefix = run.log.events.slice(0, run.log.events.findIndex((event) => event.id === run.reflectionId));
    const partial = deriveRunGraph(foldRun(prefix));
    mount(partial);
    const ids = screen.getAllByTestId("transcript-entry").map((entry) => entry.getAttribute("data-transcript-node"));
    expect(ids).toEqual(partial.nodes.filter((node) => node.type !== "lane").map((node) => node.id));
    expect(ids).not.toContain(run.reflectionId);
  });
});

describe("RunMainViews: Graph | Transcript tabs", () => {
  const run = twoTrialReflexionRun();
  const graph = deriveRunGraph(foldRun(run.log.events));

  it("shows the graph with a visually hidden transcript before it, whose buttons are not in the Tab order", () => {
    mount(graph, "views");
    expect(screen.getByTestId("run-view-graph").getAttribute("aria-selected")).toBe("true");
    const hidden = screen.getByTestId("run-transcript");
    expect(hidden.getAttribute("data-visually-hidden")).toBe("true");
    expect(hidden.className).toContain("sr-only");
    // Before the canvas in document order: a screen reader reads the run as text first.
    expect(hidden.compareDocumentPosition(screen.getByTestId("graph-canvas")) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    for (const button of within(hidden).getAllByRole("button")) expect(button.getAttribute("tabindex")).toBe("-1");
  });

  it("the Transcript tab shows the transcript in place of the graph, with ← / → between the tabs, and remembers the choice", () => {
    mount(graph, "views");
    fireEvent.click(screen.getByTestId("run-view-transcript"));
    expect(store?.mainView).toBe("transcript");
    // The graph stays mounted, hidden (its pan and zoom survive the round trip).
    expect(screen.getByTestId("run-graph-viewport").hidden).toBe(true);
    const transcript = screen.getByTestId("run-transcript");
    expect(transcript.getAttribute("data-visually-hidden")).toBeNull();
    for (const button of within(transcript).getAllByRole("button")) expect(button.getAttribute("tabindex")).toBeNull();
    expect(window.localStorage.getItem("reflexion-run-view")).toBe("transcript");
    fireEvent.keyDown(screen.getByTestId("run-view-transcript"), { key: "ArrowLeft" });
    expect(store?.mainView).toBe("graph");
    expect(screen.getByTestId("run-graph-viewport").hidden).toBe(false);
    expect(screen.queryByTestId("run-transcript-panel")).toBeNull();
  });
});
