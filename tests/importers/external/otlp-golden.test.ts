import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { EventDraft } from "@/lib/domain/events";
import type { Provenance } from "@/lib/domain/provenance";
import { mapTrace, NO_VERDICT_REASON } from "@/lib/importers/external/map-trace";
import { parseOtlpStream } from "@/lib/importers/external/otlp-parser";
import { computeRequestHash } from "@/lib/llm/request-hash";

/**
 * Golden files written for this project in each convention's documented shape
 * (tests/fixtures/traces/): an OpenInference LangGraph-like agent (LLM + TOOL spans, an EVALUATOR),
 * an OTel GenAI OpenAI-Agents-like agent (one trace over two requests, a gen_ai.evaluation.result
 * event), and a file with malformed records and an unknown span kind.
 */

const FIXTURES = path.resolve(__dirname, "../../fixtures/traces");
const parse = (name: string) => parseOtlpStream(fs.createReadStream(path.join(FIXTURES, name)), name);

const PROVENANCE: Provenance = { kind: "external-trace", label: "Imported traces: x", source: "x.jsonl", recordedBy: "agent", year: 2026, model: "unknown", notes: [], logSummary: null, traceFormat: "otlp" };
const map = (trace: Parameters<typeof mapTrace>[0]) => mapTrace(trace, { arm: "Imported traces: x", taskSetName: "x.jsonl", provenance: PROVENANCE });
const ofType = <T extends EventDraft["type"]>(drafts: EventDraft[], type: T) => drafts.filter((d): d is Extract<EventDraft, { type: T }> => d.type === type);

describe("OpenInference (LangGraph-like) trace, one pretty-printed ExportTraceServiceRequest", () => {
  it("reads the agent's turns, LLM calls, tool call and the EVALUATOR's verdict", async () => {
    const parsed = await parse("openinference-langgraph.json");
    expect(parsed.problems).toEqual([]);
    expect(parsed.traces).toHaveLength(1);
    const trace = parsed.traces[0]!;
    expect(trace).toMatchObject({
      format: "otlp",
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      title: "LangGraph",
      input: "What is the capital of the country whose national animal is the kangaroo?",
      output: "Sydney",
      model: "openai:gpt-4o-mini-2024-07-18",
      startedAt: "2025-12-05T02:00:00.000Z",
      endedAt: "2025-12-05T02:00:04.200Z",
      unknown: [],
    });
    expect(trace.steps.map((step) => [step.thought, step.action, step.observation, step.answer])).toEqual([
      ["The kangaroo is Australia's national animal; I should look up the capital.", { tool: "search", input: '{"query": "capital of Australia"}' }, "Sydney is the largest city in Australia. Canberra is the capital city of Australia.", null],
      [null, null, null, "Sydney"],
    ]);
    expect(trace.calls.map((call) => [call.inputTokens, call.outputTokens, call.costUsd, call.latencyMs, call.stepIndex, call.messages.map((m) => m.role)])).toEqual([
      [96, 31, 0.000033, 1460, 0, ["system", "user"]],
      [141, 2, null, 1970, 1, ["system", "user", "tool"]],
    ]);
    expect(trace.verdict).toEqual({
      passed: false,
      score: 0,
      name: "correctness",
      source: 'OpenInference EVALUATOR span "correctness"',
      explanation: "The capital of Australia is Canberra, not Sydney.",
      raw: { value: 0, label: "incorrect" },
    });
  });

  it("maps to one run with one trial: recorded calls, tool(input) actions, a trace-score verdict, at the recorded times", async () => {
    const trace = (await parse("openinference-langgraph.json")).traces[0]!;
    const run = map(trace);
    expect(run.config).toMatchObject({ environment: "external", maxTrials: 1, strategy: "none", task: { title: "LangGraph", sourceFormat: "otlp", recordedOnly: true }, provenance: { kind: "external-trace", traceId: trace.traceId } });
    expect(run.startedAt).toBe("2025-12-05T02:00:00.000Z");
    expect(run.drafts.map((d) => d.type)).toEqual([
      "trial-start",
      "model-call-end",
      "step-thought",
      "step-action",
      "step-observation",
      "model-call-end",
      "step-thought",
      "step-action",
      "step-observation",
      "evaluation-end",
      "trial-end",
      "checkpoint",
      "run-end",
    ]);
    const [first, second] = ofType(run.drafts, "model-call-end");
    expect(first!.data).toMatchObject({ role: "actor", trial: 1, step: 1, source: "live", usage: { inputTokens: 96, outputTokens: 31 }, costUsd: 0.000033, latencyMs: 1460, settings: { modelId: "openai:gpt-4o-mini-2024-07-18" } });
    // The engine's request hash (lib/llm/request-hash.ts) over provider, model, settings and messages; a tool message is a user message marked [tool].
    expect(second!.data.messages[2]).toEqual({ role: "user", content: "[tool] Sydney is the largest city in Australia. Canberra is the capital city of Australia." });
    expect(second!.data.requestHash).toBe(
      computeRequestHash({ provider: "openai", modelId: "gpt-4o-mini-2024-07-18", temperature: 0, maxOutputTokens: 8192, stopSequences: [], messages: second!.data.messages }),
    );
    expect(second!.data.requestHash).not.toBe(first!.data.requestHash);
    const actions = ofType(run.drafts, "step-action");
    expect(actions.map((d) => [d.data.text, d.data.action, d.data.callId])).toEqual([
      ['search({"query": "capital of Australia"})', { type: "search", argument: '{"query": "capital of Australia"}' }, first!.data.callId],
      ["final_answer(Sydney)", { type: "final_answer", argument: "Sydney" }, second!.data.callId],
    ]);
    expect(ofType(run.drafts, "step-observation").map((d) => [d.data.done, d.data.answer])).toEqual([
      [false, null],
      [true, "Sydney"],
    ]);
    const [evaluation] = ofType(run.drafts, "evaluation-end");
    expect(evaluation!.data).toMatchObject({ verdict: "fail", score: 0, evaluatorKind: "trace-score", oracle: false, details: { source: 'OpenInference EVALUATOR span "correctness"', name: "correctness" } });
    expect(evaluation!.data.feedback).toContain("Canberra");
    expect(ofType(run.drafts, "trial-end")[0]!.data.outcome).toBe("failure");
    expect(ofType(run.drafts, "run-end")[0]!.data).toEqual({ outcome: "failure", trials: 1 });
    // The recorded times are kept: the first call at its step's start, the verdict at the trace's end.
    expect(first!.occurredAt).toBe("2025-12-05T02:00:00.020Z");
    expect(evaluation!.occurredAt).toBe("2025-12-05T02:00:04.200Z");
  });
});

describe("OTel GenAI (OpenAI-Agents-like) trace over two JSON lines", () => {
  it("groups the trace's spans across lines and reads gen_ai.* messages, usage, the tool call and the evaluation event", async () => {
    const parsed = await parse("genai-openai-agents.jsonl");
    expect(parsed.problems).toEqual([]);
    expect(parsed.stats).toMatchObject({ lines: 2, spans: 4, traces: 1 });
    const trace = parsed.traces[0]!;
    expect(trace).toMatchObject({ title: "Weather Assistant", input: "What's the weather in Paris right now, in Celsius?", output: "It is 14 °C with light rain in Paris.", model: "openai:gpt-4o-mini" });
    expect(trace.steps.map((step) => [step.thought, step.action?.tool ?? null, step.observation, step.answer])).toEqual([
      ["I'll check the current weather in Paris.", "get_weather", '{"temperature": 14, "conditions": "light rain"}', null],
      [null, null, null, "It is 14 °C with light rain in Paris."],
    ]);
    expect(trace.calls.map((call) => [call.inputTokens, call.outputTokens])).toEqual([
      [58, 19],
      [101, 14],
    ]);
    expect(trace.verdict).toMatchObject({ passed: true, score: 1, name: "task_success", source: 'gen_ai.evaluation.result event `task_success` on span "invoke_agent Weather Assistant"' });

    const run = map(trace);
    expect(ofType(run.drafts, "evaluation-end")[0]!.data).toMatchObject({ verdict: "pass", score: 1, evaluatorKind: "trace-score" });
    expect(ofType(run.drafts, "run-end")[0]!.data.outcome).toBe("success");
    expect(ofType(run.drafts, "step-action")[0]!.data.text).toBe('get_weather({"city": "Paris", "unit": "C"})');
  });
});

describe("a file with malformed records and an unknown span kind", () => {
  it("reports each bad line as a problem, keeps the RETRIEVER span raw, and says the trace has no score", async () => {
    const parsed = await parse("malformed.jsonl");
    expect(parsed.problems).toEqual([
      { where: "line 2", message: expect.stringMatching(/^not JSON .*skipped/) },
      { where: "line 3", message: "not an OTLP ExportTraceServiceRequest (no resourceSpans array); skipped." },
      { where: "line 4", message: expect.stringMatching(/span "orphan" d000000000000001 has no traceId/) },
    ]);
    expect(parsed.traces).toHaveLength(1);
    const trace = parsed.traces[0]!;
    expect(trace.verdict).toBeNull();
    expect(trace.unknown).toEqual([{ kind: "span:RETRIEVER", name: "retrieve", data: expect.objectContaining({ spanId: "c000000000000002", attributes: expect.objectContaining({ "retrieval.documents.0.document.score": 0.92 }) }) }]);

    const run = map(trace);
    expect(ofType(run.drafts, "evaluation-end")).toEqual([]);
    expect(ofType(run.drafts, "trial-end")[0]!.data).toEqual({ trial: 1, outcome: "failure", reason: NO_VERDICT_REASON });
    const observations = ofType(run.drafts, "step-observation");
    expect(observations.at(-1)!.data.state).toMatchObject({ rawRecords: [{ kind: "span:RETRIEVER", name: "retrieve", data: { spanId: "c000000000000002" } }] });
  });
});

describe("the docs example (docs/examples/agent-traces.otlp.jsonl)", () => {
  it("holds four traces of a tool-using QA agent, two of them failed with a score of 0", async () => {
    const parsed = await parseOtlpStream(fs.createReadStream(path.resolve(__dirname, "../../../docs/examples/agent-traces.otlp.jsonl")), "agent-traces.otlp.jsonl");
    expect(parsed.problems).toEqual([]);
    expect(parsed.traces.map((trace) => [trace.output, trace.verdict?.passed, trace.verdict?.score, trace.steps.filter((step) => step.action !== null).length])).toEqual([
      ["1746", true, 1, 2],
      ["Sydney", false, 0, 1],
      ["John Madden", false, 0, 2],
      ["2", true, 1, 1],
    ]);
  });
});

describe("OpenInference messages with content parts", () => {
  it("joins a message's text parts (message.contents.M.message_content.text) in order", async () => {
    const { traceOfSpans } = await import("@/lib/importers/external/otlp-conventions");
    const span = {
      traceId: "t1",
      spanId: "s1",
      parentSpanId: null,
      name: "llm",
      kind: 3,
      startMs: 0,
      endMs: 10,
      attributes: {
        "openinference.span.kind": "LLM",
        "llm.input_messages.0.message.role": "user",
        "llm.input_messages.0.message.contents.1.message_content.text": "second part",
        "llm.input_messages.0.message.contents.0.message_content.text": "first part",
        "llm.input_messages.0.message.contents.0.message_content.type": "text",
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.content": "done",
      },
      events: [],
      status: { code: 0, message: "" },
      scope: "x",
      resource: {},
      line: 1,
    };
    const trace = traceOfSpans("t1", [span]);
    expect(trace.calls[0]!.messages).toEqual([{ role: "user", content: "first part\nsecond part" }]);
    expect(trace.input).toBe("first part\nsecond part");
    expect(trace.steps.map((step) => step.answer)).toEqual(["done"]);
  });
});

describe("the agent's final output", () => {
  it("ends the trajectory as its answer when no turn gave one (a LangSmith root run's outputs)", () => {
    const trace = {
      format: "langsmith" as const,
      traceId: "t1",
      title: "agent",
      taskId: "task-1",
      input: "What is the capital of Australia?",
      target: null,
      output: "Sydney",
      steps: [{ thought: null, action: { tool: "search", input: "capital of Australia" }, observation: "Canberra is the capital of Australia.", answer: null, startedAt: null, sourceId: "r2" }],
      calls: [],
      verdict: null,
      model: null,
      unknown: [],
      startedAt: "2026-12-01T10:00:00.000Z",
      endedAt: "2026-12-01T10:00:05.000Z",
    };
    const observations = ofType(map(trace).drafts, "step-observation");
    expect(observations).toHaveLength(2);
    expect(observations[1]!.data).toMatchObject({ done: true, answer: "Sydney" });
    // A trace whose last turn answered keeps its own steps.
    const answered = { ...trace, steps: [{ ...trace.steps[0]!, answer: "Sydney" }] };
    expect(ofType(map(answered).drafts, "step-observation")).toHaveLength(1);
  });
});
