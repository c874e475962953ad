import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { HIDDEN_TARGET, hideTarget, mentionsReferenceAnswer, TRACE_REFLECT_TEMPLATE } from "@/lib/domain/trace-reflection";
import { traceReflectionDemoBook } from "@/lib/domain/trace-reflection-demo";
import type { ModelPort, ModelRequest } from "@/lib/engine/ports";
import { qaDemoScriptBook } from "@/lib/environments/qa";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { reflectOnTraces, type TraceReflectionDeps } from "@/lib/server/trace-reflection";
import { demoMockModel } from "../../helpers/mock-model";

const contexts: ServerContext[] = [];
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.workers.stop();
});

/** A context on an in-memory store whose demo model answers QA and trace prompts; `requests` records every call. */
function setup() {
  const inner = createModelPort({ resolveModel: () => demoMockModel([traceReflectionDemoBook, qaDemoScriptBook]), maxRetries: 0 });
  const requests: ModelRequest[] = [];
  const recording: ModelPort = { generate: (request, options) => (requests.push(request), inner.generate(request, options)) };
  const context = createServerContext({ store: new MemoryRunStore(), model: recording });
  contexts.push(context);
  return { context, requests };
}

function depsOf(context: ServerContext): TraceReflectionDeps {
  return {
    store: context.store,
    experimentRunIds: (id) => context.experiments.runIds(id),
    memoryStores: context.memoryStores,
    model: context.engineDeps.model,
    resolveTemplate: async (reference) => {
      const resolved = await context.templates.resolve(reference);
      return { id: resolved.template.id, version: resolved.version.number, text: resolved.version.text, versionId: resolved.version.id };
    },
  };
}

/** One-trial ReAct runs (strategy none): the demo Actor fails the first trial of these built-in tasks. */
async function failedRuns(context: ServerContext, taskIds: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const taskId of taskIds) {
    const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", modelId: "demo", strategy: "none", taskId, maxTrials: 1 });
    await context.workers.untilSettled(run.rootBranchId);
    ids.push(run.id);
  }
  return ids;
}

describe("reflecting on recorded failures", () => {
  it("writes one reflection per failure with the trace template, stores it with provenance, and finds it again instead of calling the model", async () => {
    const { context, requests } = setup();
    const runIds = await failedRuns(context, ["qa-builtin-01", "qa-builtin-02"]);
    const before = requests.length;
    const result = await reflectOnTraces(depsOf(context), { runIds, store: "outside-agent", evaluator: "trace" });
    expect(result.failures).toBe(2);
    expect(result.written).toBe(2);
    const reflectionCalls = requests.slice(before);
    expect(reflectionCalls).toHaveLength(2);
    expect(reflectionCalls.every((request) => request.role === "reflector")).toBe(true);
    // The prompt is the template rendered with the trajectory and the Evaluator's feedback.
    const prompt = reflectionCalls[0]?.messages[0]?.content ?? "";
    expect(prompt.startsWith(TRACE_REFLECT_TEMPLATE.text.split("\n")[0]!)).toBe(true);
    expect(prompt).toMatch(/Action 1: Search\[/u);
    expect(prompt).not.toContain("{scratchpad}");
    const stored = await context.memoryStores.entries("outside-agent", "qa", "qa-builtin-01");
    expect(stored).toHaveLength(1);
    expect(stored[0]?.text).toBe(result.outcomes[0]?.reflection);
    expect(stored[0]?.reflectedOn).toMatchObject({ kind: "trace-reflection", evaluator: "trace", template: { id: "external/reflect", version: 1 }, model: "demo" });
    expect(stored[0]?.source.runId).toBe(runIds[0]);
    // Asking again finds the stored reflections: no model call, nothing new written.
    const again = await reflectOnTraces(depsOf(context), { runIds, store: "outside-agent", evaluator: "trace" });
    expect(requests.length).toBe(before + 2);
    expect(again.written).toBe(0);
    expect(again.outcomes.every((outcome) => outcome.alreadyStored)).toBe(true);
  });

  it("the demo reflection names what the trajectory shows, not a canned sentence", async () => {
    const { context } = setup();
    const runIds = await failedRuns(context, ["qa-builtin-01"]);
    const [outcome] = (await reflectOnTraces(depsOf(context), { runIds, store: "s1" })).outcomes;
    expect(outcome?.reflection).toMatch(/Search\[|answer/u);
    expect(outcome?.reflection).not.toMatch(/no scripted reflection/u);
  });

  it("a person's grades decide under the person Evaluator; ungraded traces are skipped with a note", async () => {
    const { context } = setup();
    const [first, second] = await failedRuns(context, ["qa-builtin-01", "qa-builtin-02"]);
    const result = await reflectOnTraces(depsOf(context), { runIds: [first!, second!], store: "graded", evaluator: "person", grades: { [first!]: { verdict: "fail", note: "it stopped at the bridge entity" } } });
    expect(result.outcomes.map((outcome) => outcome.verdict)).toEqual(["fail", "skipped"]);
    expect(result.outcomes[0]?.verdictSource).toBe("graded fail by a person");
    expect(result.outcomes[1]?.note).toMatch(/No person's grade/u);
    await expect(reflectOnTraces(depsOf(context), { runIds: [first!], store: "graded", evaluator: "person" })).rejects.toThrow(/needs grades/u);
  });

  it("the judge Evaluator asks the judge model with the trace rubric; its verdict is the rubric's weighted score", async () => {
    const { context, requests } = setup();
    const runIds = await failedRuns(context, ["qa-builtin-01"]);
    const before = requests.length;
    const result = await reflectOnTraces(depsOf(context), { runIds, store: "judged", evaluator: "judge" });
    const calls = requests.slice(before);
    expect(calls[0]?.role).toBe("evaluator");
    expect(calls[0]?.messages[0]?.content).toContain("trace-goal-met");
    const [outcome] = result.outcomes;
    const score = /^rubric judge demo: (\d\.\d\d) ([<≥]) 0\.70$/u.exec(outcome!.verdictSource);
    expect(score, outcome!.verdictSource).not.toBeNull();
    expect(outcome!.verdict).toBe(score![2] === "≥" ? "pass" : "fail");
    // A failure is reflected on with one more call; a pass costs only the judge's.
    expect(calls.at(-1)?.role).toBe(outcome!.verdict === "fail" ? "reflector" : "evaluator");
    expect(outcome!.oracle).toBe(false);
  });

  it("a trace that records its expected answer: the verdict is an oracle signal, and the reflection prompt never shows that answer", async () => {
    const { context, requests } = setup();
    const bytes = new Uint8Array(fs.readFileSync("docs/examples/inspect-eval-log.json"));
    const imported = await context.traceImports.importFile({ name: "inspect-eval-log.json", bytes });
    const before = requests.length;
    const result = await reflectOnTraces(depsOf(context), { experimentId: imported.experimentId, store: "inspect", evaluator: "trace" });
    const failed = result.outcomes.filter((outcome) => outcome.verdict === "fail");
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((outcome) => outcome.oracle && /Oracle signal/u.test(outcome.note ?? ""))).toBe(true);
    const prompts = requests.slice(before).map((request) => request.messages[0]?.content ?? "");
    expect(prompts.some((prompt) => prompt.includes(HIDDEN_TARGET))).toBe(true);
    // "Saturn" is the expected answer of the moons question: neither the prompt nor the lesson names it.
    expect(prompts.some((prompt) => /\bSaturn\b/u.test(prompt))).toBe(false);
    expect(failed.some((outcome) => /\bSaturn\b/u.test(outcome.reflection ?? ""))).toBe(false);
    const stored = await context.memoryStores.exportEntries("inspect", {});
    expect(stored.entries.every((entry) => entry.reflectedOn?.oracle === true)).toBe(true);
  });

  it("grades that name no run reflected on are listed, not silently dropped", async () => {
    const { context } = setup();
    const [first] = await failedRuns(context, ["qa-builtin-01"]);
    const result = await reflectOnTraces(depsOf(context), { runIds: [first!], store: "g", evaluator: "person", grades: { [first!]: { verdict: "fail" }, "not-a-run": { verdict: "fail" } } });
    expect(result.unmatchedGrades).toEqual(["not-a-run"]);
    expect(result.written).toBe(1);
  });

  it("refuses unclear requests with what to do", async () => {
    const { context } = setup();
    await expect(reflectOnTraces(depsOf(context), { store: "s", evaluator: "trace" })).rejects.toThrow(/either experimentId or runIds/u);
    await expect(reflectOnTraces(depsOf(context), { runIds: ["nope"], store: "s" })).rejects.toThrow(/No run nope/u);
    await expect(reflectOnTraces(depsOf(context), { runIds: ["x"], store: "s", template: "external/reflect@v9" })).rejects.toThrow(/has no version/u);
  });
});

describe("tools that re-run tasks refuse an import of traces, saying what to do instead", () => {
  it("the optimiser names the reflect-traces route", async () => {
    const { context } = setup();
    const bytes = new Uint8Array(fs.readFileSync("docs/examples/agent-traces.otlp.jsonl"));
    const imported = await context.traceImports.importFile({ name: "agent-traces.otlp.jsonl", bytes });
    await expect(context.optimiser.create({ experimentId: imported.experimentId, role: "reflector", rounds: 1, candidatesPerRound: 1 })).rejects.toThrow(/agent that runs elsewhere.*cli reflect-traces --template/u);
  });
});

describe("hiding the expected answer", () => {
  it("replaces whole-word, case-insensitive occurrences only", () => {
    expect(hideTarget("Jupiter does not match the target Saturn; saturnine is fine; SATURN.", "Saturn")).toBe(`Jupiter does not match the target ${HIDDEN_TARGET}; saturnine is fine; ${HIDDEN_TARGET}.`);
    expect(hideTarget("Tu does not match the target W (W is tungsten)", "W")).toBe(`Tu does not match the target ${HIDDEN_TARGET} (${HIDDEN_TARGET} is tungsten)`);
    expect(hideTarget("the answer is 3.5 (not 35)", "3.5")).toBe(`the answer is ${HIDDEN_TARGET} (not 35)`);
    expect(hideTarget("unchanged", null)).toBe("unchanged");
  });

  it("hides each answer of a list of acceptable answers (stored joined with ' | ')", () => {
    expect(hideTarget("The symbol is w, from wolfram; W | Wolfram both count.", "W | Wolfram")).toBe(`The symbol is ${HIDDEN_TARGET}, from ${HIDDEN_TARGET}; ${HIDDEN_TARGET} both count.`);
  });

  it("an explanation that speaks of a reference answer is an oracle signal even without a recorded target", () => {
    expect(mentionsReferenceAnswer("exact_match = 0: The reference answer is Canberra")).toBe(true);
    expect(mentionsReferenceAnswer("Jupiter does not match the target Saturn")).toBe(true);
    expect(mentionsReferenceAnswer("The agent looped on the same search and gave up")).toBe(false);
  });
});

describe("a run re-imported from this app's own OTLP export", () => {
  it("can be reflected on although its task snapshot keeps only the task's id", async () => {
    const { context } = setup();
    const [runId] = await failedRuns(context, ["qa-builtin-01"]);
    const lines = await context.otlp.jsonLines(runId!);
    const imported = await context.traceImports.importFile({ name: "own.jsonl", bytes: new TextEncoder().encode(lines) });
    const result = await reflectOnTraces(depsOf(context), { experimentId: imported.experimentId, store: "own" });
    expect(result.outcomes).toHaveLength(1);
    expect(result.outcomes[0]?.verdict).toBe("fail");
    expect(result.outcomes[0]?.reflection).toMatch(/Next time/u);
  });
});
