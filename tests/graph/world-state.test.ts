import { describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { deriveRunGraph } from "@/lib/graph";
import { EventLog, makeRunConfig } from "./fixtures";

/** A household-style trial: the agent repeats one action, then does something with no effect. */
function loopingTrial() {
  const log = new EventLog();
  log.add("run-start", { config: makeRunConfig({ strategy: "none" }) });
  log.add("trial-start", { trial: 1, memory: [], evicted: [] });
  const steps: Array<[string, string, Record<string, unknown> | null]> = [
    ["go to desk 1", "On the desk 1, you see a mug 1.", { location: "desk 1", inventory: [] }],
    ["take mug 1 from desk 1", "You pick up the mug 1 from the desk 1.", { location: "desk 1", inventory: ["mug 1"] }],
    ["go to desk 1", "Nothing happens.", { location: "desk 1", inventory: ["mug 1"] }],
    ["go to desk 1", "Nothing happens.", { location: "desk 1", inventory: ["mug 1"] }],
    ["go to desk 1", "Nothing happens.", { location: "desk 1", inventory: ["mug 1"] }],
  ];
  steps.forEach(([action, observation, state], index) => {
    const step = index + 1;
    const call = log.add("model-call-end", {
      callId: `c${step}`,
      role: "actor",
      trial: 1,
      step,
      settings: { modelId: "demo", temperature: 0, maxOutputTokens: 100 },
      requestHash: "h",
      messages: [{ role: "user", content: "p" }],
      outputText: action,
      usage: { inputTokens: 1, outputTokens: 1 },
      costUsd: 0,
      latencyMs: 1,
      finishReason: "stop",
      source: "live",
    });
    log.add("step-action", { trial: 1, step, text: action, action: { type: "command", argument: action }, parseError: null, callId: `c${step}` }, call.id);
    log.add("step-observation", { trial: 1, step, text: observation, done: false, answer: null, state });
  });
  return log.events;
}

describe("observation nodes: world state, loops and no-effect actions", () => {
  it("carries location and inventory, counts consecutive repeats and flags no-effect actions", () => {
    const observations = deriveRunGraph(foldRun(loopingTrial())).nodes.filter((node) => node.type === "observation");
    expect(observations.map((node) => node.data)).toEqual([
      expect.objectContaining({ location: "desk 1", inventory: [], repeats: 1, noEffect: false }),
      expect.objectContaining({ inventory: ["mug 1"], repeats: 1, noEffect: false }),
      expect.objectContaining({ repeats: 1, noEffect: true }),
      expect.objectContaining({ repeats: 2, noEffect: true }),
      expect.objectContaining({ repeats: 3, noEffect: true }),
    ]);
  });

  it("leaves QA observations without world state", () => {
    const events = loopingTrial().map((event) => (event.type === "step-observation" ? { ...event, data: { ...event.data, state: null } } : event));
    const first = deriveRunGraph(foldRun(events)).nodes.find((node) => node.type === "observation");
    expect(first?.data).toMatchObject({ location: null, inventory: null });
  });
});
