import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { RunSummary } from "@/lib/domain/api";
import { foldRun } from "@/lib/domain/fold-run";
import type { RunEvent } from "@/lib/domain/events";
import { forkOutlookAfterEvaluation } from "@/lib/domain/fork-outlook";
import { deriveRunGraph, type GraphNodeOf, type RunGraph, type RunGraphNode } from "@/lib/graph";
import { queryKeys } from "@/lib/query/keys";
import { CodeObservationDetails, CodeVerdictDetails } from "@/components/inspector/code-views";
import { RecentRuns } from "@/components/home/recent-runs";
import { ForkDialog } from "@/components/run/fork-dialog";
import { SteerPanel } from "@/components/run/steer-panel";
import { codeRun, NAIVE } from "./code-fixtures";
import { TWO_MODELS } from "./fixtures";

/**
 * Server-rendered markup of the run page's code views (no DOM needed): what a
 * person reads in the inspector, the Steer tab, the fork dialog and the
 * recent-runs list.
 */

function nodeOf<K extends RunGraphNode["type"]>(graph: RunGraph, id: string, kind: K): GraphNodeOf<K> {
  const node = graph.nodes.find((candidate) => candidate.id === id);
  if (!node || node.type !== kind) throw new Error(`no ${kind} node ${id}`);
  return node as GraphNodeOf<K>;
}

function withClient(element: ReactElement, seed: (client: QueryClient) => void = () => undefined): string {
  const client = new QueryClient();
  seed(client);
  return renderToStaticMarkup(createElement(QueryClientProvider, { client }, element));
}

/** The text of each `<td>` of the table row whose `data-name` is `name`. */
function rowCells(html: string, name: string): string[] {
  const row = new RegExp(`<tr[^>]*data-name="${name}"[^>]*>([\\s\\S]*?)</tr>`).exec(html)?.[1] ?? "";
  return [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((match) => (match[1] ?? "").replace(/<[^>]+>/g, ""));
}

function mapEvents(events: readonly RunEvent[], change: (event: RunEvent) => RunEvent): RunEvent[] {
  return events.map(change);
}

describe("the evaluation of a code trial in the inspector", () => {
  it("shows a failing hidden test's returned value in the # output column, like the internal table", () => {
    const run = codeRun();
    const events = mapEvents(run.log.events, (event) => {
      if (event.type !== "evaluation-end" || event.data.trial !== 1 || !event.data.hiddenTests) return event;
      const tests = event.data.hiddenTests.tests.map((test) => ({ ...test, actual: "[1, 3, 3, 0]" }));
      return { ...event, data: { ...event.data, hiddenTests: { ...event.data.hiddenTests, tests } } };
    });
    const state = foldRun(events);
    const graph = deriveRunGraph(state);
    const html = renderToStaticMarkup(createElement(CodeVerdictDetails, { node: nodeOf(graph, run.ids.evaluation1, "evaluation"), state, language: "python" }));
    expect(html).toContain('data-kind="hidden"');
    const hidden = html.slice(html.indexOf('data-kind="hidden"'));
    expect(rowCells(hidden, "hidden")[2]).toBe("[1, 3, 3, 0]");
    // The same column in the internal table.
    expect(rowCells(html.slice(html.indexOf('data-kind="internal"')), "internal 1")[2]).toBe("[1, 3, 3, 0]");
  });

  it("keeps — for a hidden test without a value, and shows the value when there is one", () => {
    const run = codeRun();
    const state = foldRun(run.log.events);
    const html = renderToStaticMarkup(createElement(CodeVerdictDetails, { node: nodeOf(deriveRunGraph(state), run.ids.evaluation2, "evaluation"), state, language: "python" }));
    const hidden = html.slice(html.indexOf('data-kind="hidden"'));
    expect(rowCells(hidden, "hidden 1")[2]).toBe("IndexError: list index out of range");
    expect(rowCells(hidden, "hidden 2")[2]).toBe("—");
  });

  it("explains a false positive by weak tests, or by an empty suite when it passed vacuously", () => {
    const run = codeRun();
    const weak = foldRun(run.log.events);
    const weakHtml = renderToStaticMarkup(createElement(CodeVerdictDetails, { node: nodeOf(deriveRunGraph(weak), run.ids.evaluation2, "evaluation"), state: weak, language: "python" }));
    expect(weakHtml).toContain("Weak internal tests are the usual cause");

    const vacuous = foldRun(
      mapEvents(run.log.events, (event) =>
        event.type === "evaluation-end" && event.data.trial === 2 ? { ...event, data: { ...event.data, details: { internalPassed: 0, internalTotal: 0, vacuous: true } } } : event,
      ),
    );
    const html = renderToStaticMarkup(createElement(CodeVerdictDetails, { node: nodeOf(deriveRunGraph(vacuous), run.ids.evaluation2, "evaluation"), state: vacuous, language: "python" }));
    expect(html).toContain("No internal tests were kept, so the empty suite passed vacuously; the hidden tests failed");
    expect(html).not.toContain("Weak internal tests");
    expect(html).toContain('data-vacuous="true"');
  });
});

describe("the dropped lines of WriteTests", () => {
  const run = codeRun();

  it("says the model wrote them when a model call did", () => {
    const state = foldRun(run.log.events);
    const html = renderToStaticMarkup(createElement(CodeObservationDetails, { node: nodeOf(deriveRunGraph(state), run.ids.writeTestsObservation, "observation"), state }));
    expect(html).toContain("Lines the model wrote that are not used as tests");
  });

  it("does not say the model wrote them when a person did (action without a call)", () => {
    const state = foldRun(mapEvents(run.log.events, (event) => (event.id === run.ids.writeTests && event.type === "step-action" ? { ...event, data: { ...event.data, callId: null } } : event)));
    const html = renderToStaticMarkup(createElement(CodeObservationDetails, { node: nodeOf(deriveRunGraph(state), run.ids.writeTestsObservation, "observation"), state }));
    expect(html).not.toContain("the model wrote");
    expect(html).toContain("Lines a person wrote");
  });
});

describe("the Steer tab on a code run", () => {
  const run = codeRun();
  const seedModels = (client: QueryClient) => client.setQueryData(queryKeys.models(), TWO_MODELS);
  const paused = (events: readonly RunEvent[]) => [...events, { ...events[0], id: "pause", seq: events.length + 1, type: "run-pause", data: { reason: "user", detail: "paused", at: null } } as RunEvent];

  it("suggests an assert in the task's language before trial 1's tests, and a program afterwards", () => {
    const start = foldRun(paused(run.log.events.slice(0, 2)));
    const html = withClient(createElement(SteerPanel, { runId: "run-1", branch: null, state: start, status: "paused" }), seedModels);
    expect(html).toContain('placeholder="assert running_max(...) == ..."');
    expect(html).toContain('data-next-kind="tests"');

    const afterTests = run.log.events.findIndex((event) => event.id === run.ids.writeTestsObservation) + 1;
    const later = foldRun(paused(run.log.events.slice(0, afterTests)));
    const laterHtml = withClient(createElement(SteerPanel, { runId: "run-1", branch: null, state: later, status: "paused" }), seedModels);
    expect(laterHtml).toContain('data-next-kind="program"');
    expect(laterHtml).toMatch(/placeholder="def running_max\(xs: list\[int\]\) -&gt; list\[int\]:\n {4}\.\.\."/);
  });

  it("shows a program a person wrote in a <pre> with its indentation, not on one line", () => {
    const afterTests = run.log.events.findIndex((event) => event.id === run.ids.writeTestsObservation) + 1;
    const events = paused(run.log.events.slice(0, afterTests));
    const edit = { ...events[0], id: "edit", seq: events.length + 1, type: "action-edit", data: { trial: 1, step: 2, text: NAIVE.trim(), note: null } } as RunEvent;
    const state = foldRun([...events, edit]);
    const html = withClient(createElement(SteerPanel, { runId: "run-1", branch: null, state, status: "paused" }), seedModels);
    expect(html).toMatch(/<pre data-testid="pending-action-text"[^>]*>def running_max\(xs\):\n {4}best = 0\n/);
  });

  it("labels the demo model once as a scripted stand-in", () => {
    const state = foldRun(paused(run.log.events.slice(0, 2)));
    const html = withClient(createElement(SteerPanel, { runId: "run-1", branch: null, state, status: "paused" }), seedModels);
    expect(html).toContain(">Demo (scripted stand-in, offline)</option>");
    expect(html).not.toContain("(scripted stand-in, offline) (scripted stand-in)");
  });
});

describe("the fork dialog after a false positive's evaluation", () => {
  it("says the branch would end the same way and does not offer Fork", () => {
    const run = codeRun();
    const state = foldRun(run.log.events);
    const html = withClient(
      createElement(ForkDialog, {
        runId: "run-1",
        fromBranchId: null,
        target: { nodeKind: "evaluation", point: { atSeq: 40, trial: 2, checkpointId: "c" }, reflection: null, outlook: forkOutlookAfterEvaluation(state, 2) },
        onClose: () => undefined,
        onForked: () => undefined,
      }),
    );
    expect(html).not.toContain("writes it again");
    expect(html).toContain('data-outlook="ends"');
    expect(html).toMatch(/internal tests passed/);
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*data-testid="fork-submit"|<button[^>]*data-testid="fork-submit"[^>]*disabled=""/);
  });

  it("still writes the reflection again after a failed trial", () => {
    const run = codeRun();
    const state = foldRun(run.log.events);
    const html = withClient(
      createElement(ForkDialog, {
        runId: "run-1",
        fromBranchId: null,
        target: { nodeKind: "evaluation", point: { atSeq: 20, trial: 1, checkpointId: "c" }, reflection: null, outlook: forkOutlookAfterEvaluation(state, 1) },
        onClose: () => undefined,
        onForked: () => undefined,
      }),
    );
    expect(html).toContain("writes it again");
    expect(html).not.toMatch(/<button[^>]*disabled=""[^>]*data-testid="fork-submit"/);
  });
});

describe("the recent-runs list", () => {
  it("shows each run's strategy by its own label, per family", () => {
    const summary = (id: string, environment: RunSummary["environment"], strategy: RunSummary["strategy"]): RunSummary => ({
      id,
      createdAt: "2026-11-30T12:00:00.000Z",
      environment,
      taskId: `${id}-task`,
      title: id,
      strategy,
      modelId: "demo",
      status: "ended",
      activeCall: null,
      setting: null,
      trials: 1,
      outcome: "failure",
    });
    const list: { runs: RunSummary[] } = {
      runs: [summary("a", "qa", "last-attempt"), summary("b", "code", "none"), summary("c", "qa", "none"), summary("d", "code", "reflexion")],
    };
    const html = withClient(createElement(RecentRuns), (client) => client.setQueryData(queryKeys.runList(), list));
    const strategies = [...html.matchAll(/<td class="whitespace-nowrap px-2 py-2 text-xs text-slate-700">([^<]*)<\/td>/g)].map((match) => match[1]);
    expect(strategies).toEqual(["Last attempt (EPM)", "Simple (no memory)", "ReAct only", "Reflexion"]);
  });
});
