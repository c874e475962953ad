import fs from "node:fs";
import path from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { foldRun } from "@/lib/domain/fold-run";
import { asRunId } from "@/lib/domain/ids";
import { deriveRunGraph } from "@/lib/graph";
import { createServerContext } from "@/lib/server/app-context";
import { RawRecordsView } from "@/components/inspector/raw-records-view";
import { ReadOnlyNote, READ_ONLY_TRACE_NOTE } from "@/components/provenance";
import { renderGraphNode } from "../../helpers/render-node";

/** Imported traces' runs render with the run page's own components (server-rendered, no DOM). */

const FIXTURES = path.resolve(__dirname, "../../fixtures/traces");
const EXAMPLE = path.resolve(__dirname, "../../../docs/examples/agent-traces.otlp.jsonl");

async function importedStates(files: string[]) {
  const store = new MemoryRunStore();
  const context = createServerContext({ store, startWorkers: false, env: {} });
  const states = [];
  for (const file of files) {
    const result = await context.traceImports.importFile({ name: path.basename(file), bytes: new Uint8Array(fs.readFileSync(file)) });
    for (const runId of result.runIds) {
      const run = (await store.getRun(asRunId(runId)))!;
      states.push(foldRun(await store.list(run.id, run.rootBranchId)));
    }
  }
  return states;
}

describe("imported traces render", () => {
  it("every node of the runs' graphs renders; a step with its LLM call is the model's, one without is 'as logged', never 'by a person'", async () => {
    const states = await importedStates([EXAMPLE, path.join(FIXTURES, "malformed.jsonl"), path.join(FIXTURES, "genai-openai-agents.jsonl")]);
    expect(states).toHaveLength(6);
    let rendered = 0;
    for (const state of states) {
      const graph = deriveRunGraph(state);
      for (const node of graph.nodes) {
        const html = renderGraphNode(node);
        expect(html).toMatch(/^<div/);
        if (node.type === "action") expect(html).not.toContain("by a person");
        rendered += 1;
      }
    }
    expect(rendered).toBeGreaterThan(40);
    // The failed example traces fold to failed trials with the trace's own verdict.
    expect(states.slice(0, 4).map((state) => state.trials[0]?.evaluation?.verdict)).toEqual(["pass", "fail", "fail", "pass"]);
  });

  it("shows a trace's unmapped records raw, as JSON text, and the trace's read-only note", async () => {
    const [state] = await importedStates([path.join(FIXTURES, "malformed.jsonl")]);
    const observation = state!.trials[0]!.steps.at(-1)!.observation!;
    const html = renderToStaticMarkup(createElement(RawRecordsView, { records: observation.state?.rawRecords }));
    expect(html).toContain('data-testid="raw-records"');
    expect(html).toContain("span:RETRIEVER");
    expect(html).toContain("The Left Hand of Darkness is a 1969 novel by Ursula K. Le Guin.");
    expect(renderToStaticMarkup(createElement(RawRecordsView, { records: undefined }))).toBe("");
    const note = renderToStaticMarkup(createElement(ReadOnlyNote, { provenance: state!.config!.provenance! }));
    expect(note).toContain(READ_ONLY_TRACE_NOTE.replaceAll("'", "&#x27;"));
    expect(note).not.toContain("authors");
  });
});
