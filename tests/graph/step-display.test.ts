import { describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { deriveRunGraph } from "@/lib/graph";
import { actionDisplay, isThoughtAction, showsThought, splitDisplay } from "@/lib/graph/step-display";
import { stressRunEvents } from "@/lib/graph/stress-run";
import { twoTrialReflexionRun } from "./fixtures";
import { renderGraphNode as renderNode } from "../helpers/render-node";

// Household actions drawn in ALFWorld's own syntax, thoughts only where the model
// wrote one; QA keeps ReAct's `Verb[argument]` and its thought nodes.


/** Text content of rendered markup (tags dropped, entities decoded). */
function textOf(html: string): string {
  return html.replace(/<[^>]+>/g, "").replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&amp;/g, "&");
}

describe("actionDisplay (pure)", () => {
  it("writes household commands as ALFWorld reads them", () => {
    expect(actionDisplay("household", "go to", "desk 1")).toBe("go to desk 1");
    expect(actionDisplay("household", "take", "mug 1 from desk 1")).toBe("take mug 1 from desk 1");
    expect(actionDisplay("household", "look", "")).toBe("look");
    expect(actionDisplay("household", "think", "First I need a mug.")).toBe("think: First I need a mug.");
  });

  it("keeps ReAct's bracket form for QA and code", () => {
    expect(actionDisplay("qa", "Search", "Alan Turing")).toBe("Search[Alan Turing]");
    expect(actionDisplay("code", "Implement", "def f(): ...")).toBe("Implement[def f(): ...]");
    expect(actionDisplay(null, "Finish", "1912")).toBe("Finish[1912]");
  });

  it("shows a thought only where one can be written", () => {
    expect(showsThought("qa", "")).toBe(true);
    expect(showsThought("household", "")).toBe(false);
    expect(showsThought("household", "  \n")).toBe(false);
    expect(showsThought("household", "a real thought")).toBe(true);
    expect(splitDisplay("go to desk 1", "go to")).toEqual(["go to", " desk 1"]);
    expect(splitDisplay("Search[x]", "Search")).toEqual(["Search", "[x]"]);
    expect(splitDisplay("odd", "look")).toEqual(["", "odd"]);
    expect(isThoughtAction("household", "think")).toBe(true);
    expect(isThoughtAction("household", "go to")).toBe(false);
    expect(isThoughtAction("qa", "think")).toBe(false);
  });
});

describe("the household graph", () => {
  const graph = deriveRunGraph(foldRun(stressRunEvents({ trials: 2, family: "household" })));
  const actions = graph.nodes.filter((node) => node.type === "action");

  it("has no thought nodes: the household completion is the action, reasoning is think:", () => {
    expect(graph.nodes.filter((node) => node.type === "thought")).toEqual([]);
    expect(actions.length).toBeGreaterThan(10);
  });

  it("gives every action its ALFWorld display string, and the node draws it", () => {
    const displays = actions.map((node) => (node.type === "action" ? node.data.display : undefined));
    expect(displays).toContain("go to shelf 2");
    expect(displays).toContain("take mug 1 from shelf 2");
    expect(displays.some((display) => display?.startsWith("think: To solve the task"))).toBe(true);
    const goTo = actions.find((node) => node.type === "action" && node.data.display === "go to shelf 2");
    const think = actions.find((node) => node.type === "action" && node.data.actionType === "think");
    const drawn = textOf(renderNode(goTo!));
    expect(drawn).toContain("go to shelf 2");
    expect(drawn).not.toContain("[");
    expect(textOf(renderNode(think!))).toContain("think: To solve the task");
    expect(renderNode(think!)).not.toContain("(no thought)");
    // The think: action is the step's thought, and says so; other actions do not.
    expect(think?.type === "action" && think.data.thought).toBe(true);
    expect(renderNode(think!)).toContain('data-testid="thought-action"');
    expect(renderNode(goTo!)).not.toContain('data-testid="thought-action"');
  });
});

describe("the QA graph", () => {
  const graph = deriveRunGraph(foldRun(twoTrialReflexionRun().log.events));

  it("keeps thought nodes and the bracket form", () => {
    expect(graph.nodes.filter((node) => node.type === "thought").length).toBeGreaterThan(0);
    const search = graph.nodes.find((node) => node.type === "action" && node.data.actionType === "Search");
    expect(search?.type === "action" && search.data.display).toBe("Search[Arthur's Magazine]");
    expect(textOf(renderNode(search!))).toContain("Search[Arthur's Magazine]");
  });
});
