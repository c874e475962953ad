import { describe, expect, it } from "vitest";
import { draft, type EventDraft, type RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { asCallId, asEventId } from "@/lib/domain/ids";
import { materializeEvent } from "@/lib/db/validate-event";
import { makeRunConfig } from "../helpers/run-config";

/** Materializes drafts into a contiguous log, as a store would. */
function log(drafts: EventDraft[]): RunEvent[] {
  return drafts.map((d, index) =>
    materializeEvent(d, { id: d.id ?? `e${index + 1}`, runId: "run", branchId: "main", seq: index + 1, occurredAt: "2026-01-01T00:00:00Z" }),
  );
}

const call = (callId: string, trial: number, step: number | null, source: "live" | "cache" = "live", costUsd: number | null = 0.001): EventDraft =>
  draft(
    "model-call-end",
    {
      callId: asCallId(callId),
      role: step === null ? "reflector" : "actor",
      trial,
      step,
      settings: { modelId: "demo", temperature: 0, maxOutputTokens: 100 },
      requestHash: "h",
      messages: [{ role: "user", content: "prompt" }],
      outputText: "out",
      usage: { inputTokens: 10, outputTokens: 5 },
      costUsd,
      latencyMs: 3,
      finishReason: "stop",
      source,
    },
    { id: `call-event-${callId}` },
  );

const twoTrialRun: EventDraft[] = [
  draft("run-start", { config: makeRunConfig() }),
  draft("trial-start", { trial: 1, memory: [], evicted: [] }),
  call("c1", 1, 1),
  draft("step-thought", { trial: 1, step: 1, text: "search A", callId: asCallId("c1") }),
  draft("step-action", { trial: 1, step: 1, text: "Finish[B]", action: { type: "Finish", argument: "B" }, parseError: null, callId: asCallId("c1") }),
  draft("step-observation", { trial: 1, step: 1, text: "Episode finished", done: true, answer: "B" }),
  draft("evaluation-end", { trial: 1, verdict: "fail", score: 0, feedback: "wrong", evaluatorKind: "exact-match", oracle: true, details: {} }),
  draft("trial-end", { trial: 1, outcome: "failure", reason: "wrong" }),
  call("c2", 1, null),
  draft("reflection-end", { trial: 1, text: "Search A first.", callId: asCallId("c2") }, { id: "refl-1" }),
  draft("run-pause", { reason: "breakpoint", detail: "after reflection" }),
];

describe("foldRun", () => {
  it("folds trials, steps, verdicts, reflections, memory and totals", () => {
    const state = foldRun(log(twoTrialRun));
    expect(state.status).toBe("paused");
    expect(state.trials).toHaveLength(1);
    const trial = state.trials[0]!;
    expect(trial.steps[0]?.action?.action).toEqual({ type: "Finish", argument: "B" });
    expect(trial.answer).toBe("B");
    expect(trial.evaluation?.verdict).toBe("fail");
    expect(trial.outcome).toBe("failure");
    expect(trial.reflection).toMatchObject({ eventId: "refl-1", text: "Search A first.", edits: 0 });
    expect(state.memory).toEqual([{ id: "refl-1", text: "Search A first.", trial: 1 }]);
    expect(state.totals).toMatchObject({ modelCalls: 2, liveCalls: 2, inputTokens: 20, outputTokens: 10 });
    expect(state.totals.costUsd).toBeCloseTo(0.002);
    expect(state.totals.unpricedCalls).toBe(0);
    expect(trial.callIds).toEqual(["c1", "c2"]);
  });

  it("counts the calls with an unknown price apart from the priced cost", () => {
    const start = [draft("run-start", { config: makeRunConfig() }), draft("trial-start", { trial: 1, memory: [], evicted: [] })];
    const someUnpriced = foldRun(log([...start, call("c1", 1, 1, "live", 0.002), call("c2", 1, 2, "live", null), call("c3", 1, 3, "cache", null)]));
    expect(someUnpriced.totals).toMatchObject({ modelCalls: 3, unpricedCalls: 2 });
    expect(someUnpriced.totals.costUsd).toBeCloseTo(0.002);
    const noneKnown = foldRun(log([...start, call("c1", 1, 1, "live", null)]));
    expect(noneKnown.totals).toMatchObject({ modelCalls: 1, unpricedCalls: 1, costUsd: 0 });
    // A price of 0 is a known price (a free model), not an unknown one.
    expect(foldRun(log([...start, call("c1", 1, 1, "live", 0)])).totals).toMatchObject({ unpricedCalls: 0, costUsd: 0 });
    expect(foldRun([]).totals.unpricedCalls).toBe(0);
  });

  it("applies a reflection edit to the trial and to the memory, keeping the original", () => {
    const state = foldRun(
      log([...twoTrialRun, draft("reflection-edit", { reflectionEventId: asEventId("refl-1"), oldText: "Search A first.", newText: "Guess.", note: null })]),
    );
    expect(state.trials[0]?.reflection).toMatchObject({ text: "Guess.", originalText: "Search A first.", edits: 1 });
    expect(state.memory[0]?.text).toBe("Guess.");
  });

  it("replaces the memory on a memory edit and resumes on run-resume", () => {
    const state = foldRun(
      log([
        ...twoTrialRun,
        draft("memory-edit", { oldMemory: [], newMemory: [{ id: "m1", text: "hand-written", trial: null }], note: "teacher" }),
        draft("run-resume", { reason: "user" }),
        draft("trial-start", { trial: 2, memory: [{ id: "m1", text: "hand-written", trial: null }], evicted: [] }),
      ]),
    );
    expect(state.memory).toEqual([{ id: "m1", text: "hand-written", trial: null }]);
    expect(state.status).toBe("running");
    expect(state.trials[1]?.memory[0]?.text).toBe("hand-written");
  });

  it("records run end, errors and breakpoint changes", () => {
    const ended = foldRun(log([draft("run-start", { config: makeRunConfig() }), draft("run-end", { outcome: "failure", trials: 0 })]));
    expect(ended).toMatchObject({ status: "ended", outcome: "failure" });
    const errored = foldRun(log([draft("run-start", { config: makeRunConfig() }), draft("run-error", { code: "internal", message: "boom" })]));
    expect(errored.status).toBe("error");
    const switched = foldRun(
      log([
        draft("run-start", { config: makeRunConfig() }),
        draft("settings-edit", { target: "breakpoints", oldValue: { afterReflection: false }, newValue: { afterReflection: true }, note: null }),
      ]),
    );
    expect(switched.breakpoints.afterReflection).toBe(true);
  });

  it("is pure: folding the same events twice gives equal states", () => {
    const events = log(twoTrialRun);
    expect(foldRun(events)).toEqual(foldRun(events));
  });
});

describe("RunState.config: the one configuration in force", () => {
  it("applies prompt, model, breakpoint and budget edits to config; startConfig stays as run-start recorded it", () => {
    const start = makeRunConfig({ budget: { tokens: 1000 } });
    const newTemplate = { ...start.templates.actor, version: 2, text: `${start.templates.actor.text}\nBe brief.` };
    const newModel = { ...start.models.actor, temperature: 0.7 };
    const breakpoints = { ...start.breakpoints, afterReflection: true };
    const state = foldRun(
      log([
        draft("run-start", { config: start }),
        draft("prompt-edit", { role: "actor", oldTemplate: start.templates.actor, newTemplate, note: null }),
        draft("settings-edit", { target: "model", role: "actor", oldValue: start.models.actor, newValue: newModel, note: null }),
        draft("settings-edit", { target: "breakpoints", oldValue: start.breakpoints, newValue: breakpoints, note: null }),
        draft("budget-edit", { oldValue: { tokens: 1000 }, newValue: { tokens: 5000 }, note: null }),
      ]),
    );
    expect(state.config).toEqual({ ...start, templates: { ...start.templates, actor: newTemplate }, models: { ...start.models, actor: newModel }, breakpoints, budget: { tokens: 5000 } });
    expect(state.startConfig).toEqual(start);
    expect(state.breakpoints).toEqual(breakpoints);
  });
});
