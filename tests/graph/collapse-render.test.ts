import { describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { createCollapsedViewDeriver, defaultCollapsedTrials, deriveRunGraph, type LiveCallInput } from "@/lib/graph";
import { stressRunEvents } from "@/lib/graph/stress-run";
import { toFlowNode } from "@/components/run-graph/flow-nodes";
import { codeRun } from "./code-fixtures";
import { twoTrialReflexionRun } from "./fixtures";
import { renderGraphNode as render } from "../helpers/render-node";

/**
 * Markup of the run graph's node components (server-rendered, no DOM): the
 * collapse and expand affordances, and that every node declares to React Flow
 * exactly the handles its component renders (components/run-graph/flow-nodes.ts),
 * which lets React Flow skip measuring nodes that are out of view.
 */



/** `id:type:position` of each handle in the markup. */
function renderedHandles(html: string): string[] {
  return [...html.matchAll(/<div data-handleid="([^"]+)" data-handlepos="([^"]+)"[^>]*class="[^"]*\b(source|target)\b/g)].map((match) => `${match[1]}:${match[3]}:${match[2]}`).sort();
}

const longGraph = deriveRunGraph(foldRun(stressRunEvents({ trials: 24, family: "household" })));
const longView = createCollapsedViewDeriver()(longGraph, defaultCollapsedTrials(longGraph));

describe("a collapsed trial's node", () => {
  const group = longView.nodes.find((node) => node.type === "trial-group" && node.data.trial === 4)!;
  const html = render(group);

  it("says what the trial holds and offers an Expand button", () => {
    expect(html).toContain('data-testid="node-trial-group"');
    expect(html).toContain("Trial 4");
    expect(html).toMatch(/collapsed · \d+ steps · ✗ fail/);
    expect(html).toContain("2 loops");
    expect(html).toContain("Reflection: In trial 4");
    expect(html).toMatch(/<button type="button" data-testid="expand-trial"[^>]*>▸ Expand trial 4 \(\d+ nodes\)<\/button>/);
  });

  it("has an accessible name that says how to expand it", () => {
    expect(group.focusable).toBe(true);
    expect(group.ariaLabel).toMatch(/^Trial 4, collapsed: halted, \d+ steps, verdict fail, a reflection\. Press Enter to expand\.$/);
  });
});

describe("a trial header", () => {
  it("offers a Collapse button once the trial has ended", () => {
    const header = longGraph.nodes.find((node) => node.type === "trial" && node.data.trial === 23)!;
    expect(render(header)).toMatch(/<button type="button" aria-label="Collapse trial 23"[^>]*data-testid="collapse-trial"/);
  });

  it("has none while the trial is in progress", () => {
    const events = twoTrialReflexionRun().log.events;
    const graph = deriveRunGraph(foldRun(events.slice(0, twoTrialReflexionRun().marks.afterTrial2Start)));
    const running = graph.nodes.find((node) => node.type === "trial" && node.data.trial === 2)!;
    expect(render(running)).not.toContain("collapse-trial");
  });
});

describe("declared handles", () => {
  const live: LiveCallInput = { role: "actor", trial: 2, step: 1, startedAt: "2026-11-30T12:00:10.000Z", text: "Search[", ended: false, joinedLate: false };
  const reflecting: LiveCallInput = { ...live, role: "reflector", trial: 1, step: null };
  const small = twoTrialReflexionRun();
  const graphs = [
    longView.nodes,
    deriveRunGraph(foldRun(small.log.events)).nodes,
    deriveRunGraph(foldRun(small.log.events.slice(0, small.marks.afterTrial2Start)), live).nodes,
    deriveRunGraph(foldRun(small.log.events.slice(0, small.marks.afterTrial1Steps + 2)), reflecting).nodes,
    deriveRunGraph(foldRun(codeRun().log.events)).nodes,
  ];

  it("are the handles each node component renders, for every kind of node", () => {
    const kinds = new Set<string>();
    for (const nodes of graphs) {
      const seen = new Set<string>();
      for (const node of nodes) {
        const key = `${node.type}:${"code" in node.data && node.data.code ? "code" : ""}:${node.type === "live-call" ? node.data.role : ""}`;
        if (seen.has(key)) continue;
        seen.add(key);
        kinds.add(node.type);
        const declared = toFlowNode(node)
          .handles.map((handle) => `${handle.id}:${handle.type}:${handle.position}`)
          .sort();
        expect(renderedHandles(render(node)), `${node.type} ${node.id}`).toEqual(declared);
      }
    }
    expect([...kinds].sort()).toEqual(["action", "evaluation", "lane", "live-call", "observation", "reflection", "thought", "trial", "trial-group"]);
  });

  it("sit where React Flow draws them: centred on the middle of their side", () => {
    const raw = longView.nodes.find((node) => node.type === "trial")!;
    const header = toFlowNode(raw);
    const memoryIn = header.handles.find((handle) => handle.id === "memory-in")!;
    expect(memoryIn).toMatchObject({ x: -3, y: header.height / 2 - 3, width: 6, height: 6 });
    const next = header.handles.find((handle) => handle.id === "next")!;
    expect(next).toMatchObject({ x: header.width / 2 - 3, y: header.height - 3 });
    // The same object for the same node: React Flow sees unchanged nodes as unchanged.
    expect(toFlowNode(raw)).toBe(header);
  });
});
