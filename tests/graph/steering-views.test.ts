import { describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { deriveRunGraph } from "@/lib/graph";
import { pauseBanner } from "@/components/run/run-messages";
import { twoTrialReflexionRun } from "./fixtures";

describe("call source on graph nodes", () => {
  it("marks thought, action and reflection nodes whose call came from the cache, and steps a person wrote", () => {
    const run = twoTrialReflexionRun();
    // Serve trial 2's Actor call from the cache, as a recorded replay would.
    for (const event of run.log.events) {
      if (event.type === "model-call-end" && event.data.trial === 2) event.data.source = "cache";
    }
    const graph = deriveRunGraph(foldRun(run.log.events));
    const sources = graph.nodes
      .filter((node) => node.type === "thought" || node.type === "action" || node.type === "reflection")
      .map((node) => [node.type, node.data.trial, "callSource" in node.data ? node.data.callSource : undefined]);
    expect(sources).toEqual([
      ["thought", 1, "live"],
      ["action", 1, "live"],
      ["thought", 1, "live"],
      ["action", 1, "live"],
      ["reflection", 1, "live"],
      ["thought", 2, "cache"],
      ["action", 2, "cache"],
    ]);
    expect(graph.nodes.find((node) => node.type === "action" && node.data.trial === 2)?.ariaLabel).toMatch(/from the cache/);
  });

  it("gives an injected action (no call) no source", () => {
    const run = twoTrialReflexionRun();
    run.log.events.splice(run.marks.afterTrial2Start);
    run.log.add("run-pause", { reason: "breakpoint", detail: "Breakpoint: before the Actor call for trial 2, step 1.", at: "before-call:actor:2:1" });
    run.log.add("action-edit", { trial: 2, step: 1, text: "Finish[Arthur's Magazine]", note: null });
    const paused = foldRun(run.log.events);
    expect(paused.pendingAction?.text).toBe("Finish[Arthur's Magazine]");
    run.log.add("run-resume", { reason: "user", step: false });
    run.log.add("step-action", { trial: 2, step: 1, text: "Finish[Arthur's Magazine]", action: { type: "Finish", argument: "Arthur's Magazine" }, parseError: null, callId: null });
    const state = foldRun(run.log.events);
    expect(state.pendingAction).toBeNull();
    const action = deriveRunGraph(state).nodes.find((node) => node.type === "action" && node.data.trial === 2);
    expect(action?.type === "action" && [action.data.callId, action.data.callSource]).toEqual([null, null]);
  });
});

describe("pause banner for Step", () => {
  it("says the run stopped after one step and offers Step or Resume", () => {
    expect(pauseBanner({ reason: "step", detail: "Stepped one action." }, { canEditMemory: true })).toEqual({
      headline: "Paused after one step.",
      detail: null,
      instruction: "Step again, or Resume to run on.",
    });
  });

  it("keeps the breakpoint's own words (which breakpoint stopped the run)", () => {
    const banner = pauseBanner({ reason: "breakpoint", detail: "Breakpoint: before the Actor call for trial 2, step 1" }, { canEditMemory: false });
    expect(banner.detail).toBe("Breakpoint: before the Actor call for trial 2, step 1.");
  });
});
