import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { deriveRunGraph } from "@/lib/graph";
import { reflectionProblem } from "@/lib/engine/completion-checks";
import { ReflectionWarning } from "@/components/inspector/reflection-warning";
import { twoTrialReflexionRun } from "./fixtures";
import { renderGraphNode } from "../helpers/render-node";

// A reflection "925", kept after two asks with the Self-Reflection check's own warning: the graph node
// flags it, and the inspector's notice says what it is and what the user can do (edit or delete it).
describe("a reflection stored with a warning", () => {
  const warning = `${reflectionProblem("925", { answer: null, memory: [] })} (asked twice).`;
  const run = twoTrialReflexionRun();
  for (const event of run.log.events) {
    if (event.type === "reflection-end") {
      event.data.text = "925";
      event.data.warning = warning;
    }
  }
  const graph = deriveRunGraph(foldRun(run.log.events));
  const node = graph.nodes.find((candidate) => candidate.type === "reflection")!;

  it("carries the warning to the graph node, whose badge names it and points to the details", () => {
    expect(node.type === "reflection" && node.data.warning).toBe(warning);
    const html = renderGraphNode(node);
    expect(html).toContain('data-testid="reflection-warning-badge"');
    expect(html).toContain("not a lesson");
    expect(html).toContain("Select the node to see what you can do.");
  });

  it("the inspector's notice gives the reason and the actions: pause, edit or delete in the Memory panel, resume", () => {
    const html = renderToStaticMarkup(createElement(ReflectionWarning, { warning }));
    expect(html).toContain('data-testid="reflection-warning"');
    expect(html).toContain("it has no words, only numbers or symbols");
    expect(html).toMatch(/<strong>Pause<\/strong> the run, then in the <strong>Memory<\/strong> panel edit the reflection or\s+delete it/);
  });
});
