import { describe, expect, it } from "vitest";
import type { EnvironmentId } from "@/lib/domain/config";
import type { RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { codeDemoScriptBook } from "@/lib/environments/code";
import { householdDemoScriptBook } from "@/lib/environments/household";
import { openDemoScriptBook } from "@/lib/environments/open";
import { qaDemoScriptBook } from "@/lib/environments/qa";
import { deriveRunGraph, type RunGraph } from "@/lib/graph";
import { replayPrefix } from "@/lib/graph/replay-cursor";
import { stressRunEvents } from "@/lib/graph/stress-run";
import { runTranscript, transcriptNodeIds } from "@/lib/graph/transcript";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext } from "@/lib/server/app-context";

/**
 * The transcript (the run graph's text alternative) holds the same steps as
 * the graph: on real demo runs of every family, through the engine, every
 * drawn node except the lane backgrounds has exactly one place in the
 * transcript, in the graph's order, under its own trial and step — live and at
 * every replay cursor — and the memory carried into a trial is the graph's
 * memory edge into it.
 */

const context = createServerContext({
  store: new MemoryRunStore(),
  model: createModelPort({ demoScriptBooks: [qaDemoScriptBook, householdDemoScriptBook, codeDemoScriptBook, openDemoScriptBook], maxRetries: 0 }),
});

async function demoRunEvents(environment: EnvironmentId, taskId: string): Promise<RunEvent[]> {
  const run = await context.service.createRun({ environment, taskSet: "builtin", taskId, strategy: "reflexion", modelId: "demo", maxTrials: 3 });
  await context.workers.untilSettled(run.rootBranchId);
  return (await context.service.events(run.id)).events;
}

/** The graph's nodes that stand for something in the run (lane backgrounds are decoration), in the graph's order. */
function graphNodeIds(graph: RunGraph): string[] {
  return graph.nodes.filter((node) => node.type !== "lane").map((node) => node.id);
}

/** Checks the transcript of `graph` against the graph itself. */
function expectSameSteps(graph: RunGraph) {
  const transcript = runTranscript(graph);
  expect(transcriptNodeIds(transcript)).toEqual(graphNodeIds(graph));
  for (const trial of transcript.trials) {
    const header = graph.nodes.find((node) => node.id === trial.headerNodeId);
    expect(header?.type).toBe("trial");
    for (const step of trial.steps) {
      for (const entry of step.entries) {
        expect(entry.data.trial).toBe(trial.trial);
        expect("step" in entry.data ? entry.data.step : null).toBe(step.step);
      }
    }
    for (const entry of trial.closing) expect(entry.data.trial).toBe(trial.trial);
    const memoryEdges = graph.edges.filter((edge) => edge.data.kind === "memory" && edge.target === trial.headerNodeId);
    expect(trial.memoryIn.map((item) => item.reflectionNodeId)).toEqual(memoryEdges.map((edge) => edge.source));
    expect(trial.memoryIn.map((item) => item.inContext)).toEqual(memoryEdges.map((edge) => edge.data.inContext !== false));
  }
  return transcript;
}

const RUNS: Array<[EnvironmentId, string]> = [
  ["qa", "qa-builtin-02"],
  ["household", "household-builtin-01"],
  ["code", "code-py-02"],
  ["open", "open-commit-message"],
];

describe("the transcript holds the same steps as the graph", () => {
  it.each(RUNS)("%s %s: the whole run, and the run at every replay cursor", async (environment, taskId) => {
    const events = await demoRunEvents(environment, taskId);
    const graph = deriveRunGraph(foldRun(events));
    const transcript = expectSameSteps(graph);
    // A real failing-then-reflecting run: more than one trial, steps, and the reflection carried into trial 2.
    expect(transcript.trials.length).toBeGreaterThanOrEqual(2);
    expect(transcript.trials[0]?.steps.length).toBeGreaterThan(0);
    expect(transcript.trials[0]?.closing.map((entry) => entry.type)).toEqual(expect.arrayContaining(["evaluation", "reflection"]));
    const reflection = transcript.trials[0]?.closing.find((entry) => entry.type === "reflection");
    expect(transcript.trials[1]?.memoryIn.map((item) => item.reflectionNodeId)).toEqual([reflection?.id]);
    // Replay: the transcript follows the prefix of the log the cursor shows.
    for (let cursor = 0; cursor <= events.length; cursor += 1) expectSameSteps(deriveRunGraph(foldRun(replayPrefix(events, cursor))));
  }, 60_000);

  it("a large run (the stress run: many trials, loops, invalid actions) keeps every node in place", () => {
    const events = stressRunEvents({ trials: 12, family: "household", lastTrialSucceeds: false });
    expectSameSteps(deriveRunGraph(foldRun(events)));
  });

  it("a call in flight has its place: the Actor step being written comes last in its trial's steps", async () => {
    const events = await demoRunEvents("qa", "qa-builtin-05");
    const firstObservation = events.findIndex((event) => event.type === "step-observation");
    const prefix = events.slice(0, firstObservation + 1);
    const graph = deriveRunGraph(foldRun(prefix), { role: "actor", trial: 1, step: 2, startedAt: new Date(0).toISOString(), text: "Thought 2: I should", ended: false, joinedLate: false });
    const transcript = expectSameSteps(graph);
    const lastStep = transcript.trials[0]?.steps.at(-1);
    expect(lastStep?.step).toBe(2);
    expect(lastStep?.entries.map((entry) => entry.type)).toEqual(["live-call"]);
  }, 60_000);
});
