import { describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { createRunGraphDeriver, deriveRunGraph, liveCallNodeId, type LiveCallInput, type RunGraph } from "@/lib/graph";
import { codeRun } from "./code-fixtures";
import { twoTrialReflexionRun } from "./fixtures";

/**
 * The node of the model call in flight (`live-call`): where it stands, that
 * its text streams in without touching the other nodes or the layout, and that
 * the call's own nodes replace it when its events arrive.
 */

const STARTED = "2026-11-30T12:00:10.000Z";
const actorCall = (text: string, overrides: Partial<LiveCallInput> = {}): LiveCallInput => ({
  role: "actor",
  trial: 2,
  step: 1,
  startedAt: STARTED,
  text,
  ended: false,
  joinedLate: false,
  ...overrides,
});

const liveNodes = (graph: RunGraph) => graph.nodes.filter((node) => node.type === "live-call");
const laneOf = (graph: RunGraph, nodeId: string) => graph.nodes.find((node) => node.id === nodeId)?.position.x;

describe("the live-call node", () => {
  const run = twoTrialReflexionRun();
  const atTrial2Start = foldRun(run.log.events.slice(0, run.marks.afterTrial2Start));

  it("stands at the end of the trial's lane, after the trial header, with the text streamed so far", () => {
    const graph = deriveRunGraph(atTrial2Start, actorCall("Arthur's Magazine started"));
    const [live] = liveNodes(graph);
    expect(live?.id).toBe(liveCallNodeId({ role: "actor", trial: 2, step: 1 }));
    expect(live?.type === "live-call" && live.data).toMatchObject({ role: "actor", trial: 2, step: 1, text: "Arthur's Magazine started", monospace: false });
    expect(laneOf(graph, live!.id)).toBe(laneOf(graph, run.trial2StartId));
    expect(live!.position.y).toBeGreaterThan(graph.nodes.find((node) => node.id === run.trial2StartId)!.position.y);
    expect(graph.edges.some((edge) => edge.source === run.trial2StartId && edge.target === live!.id && edge.data.kind === "flow")).toBe(true);
    expect(live?.focusable).toBe(true);
    expect(live?.ariaLabel).toMatch(/Actor step 1 being generated/);
  });

  it("changes only its own data as text streams in: every other node, the edges and the positions stay the same objects", () => {
    const derive = createRunGraphDeriver();
    const before = derive(atTrial2Start, actorCall("Arthur's"));
    const after = derive(atTrial2Start, actorCall("Arthur's Magazine started in 1844"));
    const liveBefore = liveNodes(before)[0]!;
    const liveAfter = liveNodes(after)[0]!;
    expect(liveAfter).not.toBe(liveBefore);
    expect(liveAfter.id).toBe(liveBefore.id);
    expect(liveAfter.position).toEqual(liveBefore.position);
    expect(liveAfter.type === "live-call" && liveAfter.data.text).toBe("Arthur's Magazine started in 1844");
    for (const node of after.nodes) if (node.id !== liveAfter.id) expect(before.nodes).toContain(node);
    expect(after.edges).toEqual(before.edges);
    for (const edge of after.edges) expect(before.edges).toContain(edge);
    // The same text again: the very same graph.
    expect(derive(atTrial2Start, actorCall("Arthur's Magazine started in 1844"))).toBe(after);
  });

  it("gives way to the step's own nodes once its events are folded in, even before the live text is dropped", () => {
    const withStep = foldRun(run.log.events.slice(0, run.marks.afterTrial2Start + 4));
    const graph = deriveRunGraph(withStep, actorCall("Arthur's Magazine", { ended: true }));
    expect(liveNodes(graph)).toHaveLength(0);
    expect(graph.nodes.some((node) => node.type === "thought" && node.data.trial === 2 && node.data.step === 1)).toBe(true);
  });

  it("shows a Self-Reflection being written after the trial's evaluation, until reflection-end", () => {
    const evaluated = foldRun(run.log.events.slice(0, run.marks.afterTrial1Steps + 2));
    const reflector = actorCall("I wasted a step", { role: "reflector", trial: 1, step: null });
    const graph = deriveRunGraph(evaluated, reflector);
    const [live] = liveNodes(graph);
    const evaluation = graph.nodes.find((node) => node.type === "evaluation" && node.data.trial === 1)!;
    expect(live?.id).toBe("live:1:reflector:reflection");
    expect(graph.edges.some((edge) => edge.source === evaluation.id && edge.target === live!.id)).toBe(true);
    const reflected = foldRun(run.log.events.slice(0, run.marks.afterReflection));
    expect(liveNodes(deriveRunGraph(reflected, reflector))).toHaveLength(0);
  });

  it("draws nothing for a call whose trial has not started in this view, or with no call at all", () => {
    expect(liveNodes(deriveRunGraph(atTrial2Start, actorCall("x", { trial: 3 })))).toHaveLength(0);
    expect(deriveRunGraph(atTrial2Start, null)).toEqual(deriveRunGraph(atTrial2Start));
  });

  it("marks a code run's streamed text as code (monospace)", () => {
    const code = codeRun();
    const state = foldRun(code.log.events.slice(0, 3));
    const trial = state.trials.at(-1)!;
    const graph = deriveRunGraph(state, actorCall("def running_max(xs):", { trial: trial.trial, step: trial.steps.length + 1 }));
    const [live] = liveNodes(graph);
    expect(live?.type === "live-call" && live.data.monospace).toBe(true);
  });
});
