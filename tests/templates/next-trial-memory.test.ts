import { afterEach, describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { memoryTokens } from "@/lib/domain/memory-summary";
import { effectiveMemoryWindow, memoryForTrial, nextTrialView } from "@/lib/domain/next-trial";
import type { ServerContext } from "@/lib/server/app-context";
import { demoContext, settled } from "./helpers";

/**
 * "The next trial sees" in the memory panel (nextTrialView) is the engine's own rule: for every
 * trial the engine started, the view computed on the log just before its `trial-start` equals the
 * memory the engine recorded — under the summarize option (Ω not applied) and under the plain window.
 */

let context: ServerContext | null = null;
afterEach(async () => {
  await context?.workers.stop();
  context = null;
});

const UNSCRIPTED = {
  _id: "unscripted-1",
  question: "Which river flows past the village of Tarnwick Mill?",
  answer: "Lune",
  supporting_facts: [["Tarnwick Mill", 0]],
  context: [["Tarnwick Mill", ["Tarnwick Mill is a village on the River Lune."]]],
};

type TrialStart = Extract<RunEvent, { type: "trial-start" }>;

/** Runs the demo model on a task it always fails (one reflection per trial) and returns its events. */
async function failingRun(options: { memoryWindow: number; memoryManagement?: { kind: "summarize"; tokenBudget: number } }): Promise<RunEvent[]> {
  context = demoContext().context;
  const upload = await context.service.importTaskSet("qa", "unscripted.json", JSON.stringify([UNSCRIPTED]));
  const run = await context.service.createRun({ environment: "qa", taskSet: upload.taskSet.id, taskId: "unscripted-1", strategy: "reflexion", modelId: "demo", maxTrials: 4, ...options });
  return settled(context, run.id);
}

function expectPanelEqualsEngine(events: RunEvent[]): TrialStart[] {
  const starts = events.filter((event): event is TrialStart => event.type === "trial-start");
  expect(starts.length).toBe(4);
  for (const start of starts) {
    const before = foldRun(events.filter((event) => event.seq < start.seq));
    const view = nextTrialView(before);
    expect(view?.trial).toBe(start.data.trial);
    expect(view?.inContext).toEqual(start.data.memory);
  }
  return starts;
}

describe("the next trial's memory: one function for the engine and the memory panel", () => {
  it("under summarize (budget not reached) Ω is not applied, by the engine and by the panel alike", async () => {
    const events = await failingRun({ memoryWindow: 1, memoryManagement: { kind: "summarize", tokenBudget: 100_000 } });
    const starts = expectPanelEqualsEngine(events);
    // Three reflections reach trial 4 although Ω = 1: the summarize option bounds memory by merging, not by the window.
    expect(starts.at(-1)?.data.memory).toHaveLength(3);
  });

  it("over the summary budget, the panel says the memory is merged first exactly when the engine merges it", async () => {
    const events = await failingRun({ memoryWindow: 1, memoryManagement: { kind: "summarize", tokenBudget: 16 } });
    const summaries = events.filter((event) => event.type === "memory-summary");
    expect(summaries.length).toBeGreaterThanOrEqual(1);
    // Before each trial-start (and before each memory-summary), the view's "merged first" is whether a merge comes next.
    for (const [index, event] of events.entries()) {
      if (event.type !== "trial-start" && event.type !== "memory-summary") continue;
      const previous = events[index - 1];
      // The merge's own model call comes just before it: judge at the point the engine decided.
      const decidedAt = event.type === "memory-summary" && previous?.type === "model-call-end" ? previous.seq : event.seq;
      const view = nextTrialView(foldRun(events.filter((candidate) => candidate.seq < decidedAt)), memoryTokens);
      expect(view?.mergedFirst).toBe(event.type === "memory-summary");
    }
  });

  it("under the plain window the next trial sees the newest Ω reflections", async () => {
    const events = await failingRun({ memoryWindow: 1 });
    const starts = expectPanelEqualsEngine(events);
    expect(starts.at(-1)?.data.memory).toHaveLength(1);
    expect(starts.at(-1)?.data.evicted).toHaveLength(2);
  });
});

describe("effectiveMemoryWindow / memoryForTrial", () => {
  const memory = [1, 2, 3].map((trial) => ({ id: `r${trial}`, text: `lesson ${trial}`, trial }));
  it("Ω applies unless the run summarises", () => {
    expect(effectiveMemoryWindow({ memoryWindow: 2 })).toBe(2);
    expect(effectiveMemoryWindow({ memoryWindow: 2, memoryManagement: { kind: "window" } })).toBe(2);
    const summarize = { kind: "summarize" as const, tokenBudget: 64, summarizer: { id: "qa/summarize-memory", version: 1, text: "{reflections}" } };
    expect(effectiveMemoryWindow({ memoryWindow: 2, memoryManagement: summarize })).toBeNull();
    expect(memoryForTrial({ strategy: "reflexion", memoryWindow: 1 }, memory).inContext.map((item) => item.id)).toEqual(["r3"]);
    expect(memoryForTrial({ strategy: "reflexion", memoryWindow: 1, memoryManagement: summarize }, memory).inContext.map((item) => item.id)).toEqual(["r1", "r2", "r3"]);
    expect(memoryForTrial({ strategy: "none", memoryWindow: 1, memoryManagement: summarize }, memory).inContext).toEqual([]);
  });
});
