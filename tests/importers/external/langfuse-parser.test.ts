import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseLangfuseExport } from "@/lib/importers/external/langfuse-parser";

/**
 * The Langfuse parser against traces written here in the public API's `GET /api/public/traces/{id}`
 * shape (`TraceWithFullDetails`, langfuse fern/apis/server/definition/commons.yml).
 */

const FIXTURES = "tests/fixtures/traces";
const text = readFileSync(`${FIXTURES}/langfuse-traces.json`, "utf8");

describe("parseLangfuseExport", () => {
  const parsed = parseLangfuseExport(text, "langfuse-traces.json");
  const [order, math] = parsed.traces;

  it("reads each trace with its input, output, dataset item and expected output", () => {
    expect(parsed.format).toBe("langfuse");
    expect(parsed.problems).toEqual([]);
    expect(order).toMatchObject({
      traceId: "lf-trace-order-1",
      title: "support-agent",
      taskId: "item-order-4417",
      input: "Where is order 4417?",
      output: "Order 4417 was delivered yesterday.",
      target: "Order 4417 is in transit.",
      startedAt: "2026-11-30T12:00:00.000Z",
      endedAt: "2026-11-30T12:00:03.200Z",
      model: "gpt-4o-mini",
    });
    expect(math).toMatchObject({ input: "What is 12 squared?", output: "144", target: null });
  });

  it("makes TOOL observations steps, the generation before them the thought, and a final answer step", () => {
    expect(order?.steps).toEqual([
      { thought: "I will look the order up.", action: { tool: "lookup_order", input: '{"order_id":"4417"}' }, observation: '{"status":"in_transit","eta":"2026-12-02"}', answer: null, startedAt: "2026-11-30T12:00:01.100Z", sourceId: "obs-1-tool" },
      { thought: null, action: null, observation: null, answer: "Order 4417 was delivered yesterday.", startedAt: "2026-11-30T12:00:01.800Z", sourceId: "obs-1-gen-2" },
    ]);
  });

  it("reads a SPAN named `tool:<name>` as a tool step", () => {
    expect(math?.steps[0]).toMatchObject({ thought: "I will compute 12*12 with the calculator.", action: { tool: "calculator", input: '{"expression":"12*12"}' }, observation: "144" });
    expect(math?.steps[1]?.answer).toBe("144");
  });

  it("makes generations calls with usageDetails / costDetails, or the deprecated usage and calculatedTotalCost", () => {
    expect(order?.calls.map((call) => [call.inputTokens, call.outputTokens, call.costUsd, call.latencyMs, call.stepIndex])).toEqual([
      [70, 25, 0.0000255, 900, 0],
      [110, 12, 0.0000237, 1300, 1],
    ]);
    expect(order?.calls[0]?.messages).toEqual([
      { role: "system", content: "You are a support agent. Use lookup_order." },
      { role: "user", content: "Where is order 4417?" },
    ]);
    expect(order?.calls[1]?.messages.map((message) => message.role)).toEqual(["user", "tool"]);
    expect(math?.calls[0]).toMatchObject({ inputTokens: 20, outputTokens: 11, costUsd: 0.000009, messages: [{ role: "user", content: "What is 12 squared? Think, then call the calculator." }] });
    expect(math?.calls[1]).toMatchObject({ inputTokens: null, costUsd: null, latencyMs: 200 });
  });

  it("keeps AGENT and EVENT observations raw", () => {
    expect(order?.unknown.map((record) => [record.kind, record.name])).toEqual([
      ["observation:AGENT", "support-agent"],
      ["observation:EVENT", "pii-filter"],
    ]);
    expect(math?.unknown).toEqual([]);
  });

  it("prefers a trace-level score: BOOLEAN by value, CATEGORICAL by label, TEXT ignored", () => {
    expect(order?.verdict).toEqual({ passed: false, score: 0, name: "correct", source: "Langfuse score `correct`", explanation: "The tool said in transit; the agent said delivered.", raw: "False" });
    expect(math?.verdict).toMatchObject({ passed: true, score: 1, name: "verdict", raw: "correct", explanation: "Exact match." });
  });

  it("takes the score named by the option, with the numeric pass threshold", () => {
    const tone = parseLangfuseExport(text, "x.json", { scoreName: "tone" });
    expect(tone.traces[0]?.verdict).toMatchObject({ passed: true, score: 0.9, name: "tone" });
    expect(parseLangfuseExport(text, "x.json", { scoreName: "tone", passThreshold: 0.95 }).traces[0]?.verdict?.passed).toBe(false);
    expect(tone.problems).toEqual([{ where: "trace lf-trace-math-2", message: "no score `tone` on this trace; no verdict" }]);
  });

  it("reads CATEGORICAL labels against the pass labels given", () => {
    const strict = parseLangfuseExport(text, "x.json", { scoreName: "verdict", passLabels: ["exact"] });
    expect(strict.traces[1]?.verdict).toMatchObject({ passed: false, score: 0, raw: "correct" });
  });

  it("reads JSON lines and a list response `{data: [...]}` alike", () => {
    const traces = JSON.parse(text) as unknown[];
    const lines = parseLangfuseExport(traces.map((trace) => JSON.stringify(trace)).join("\n"), "x.jsonl");
    expect(lines.traces).toEqual(parsed.traces);
    expect(parseLangfuseExport(JSON.stringify({ data: traces, meta: { page: 1 } }), "list.json").traces).toEqual(parsed.traces);
  });
});

describe("parseLangfuseExport — malformed input", () => {
  const parsed = parseLangfuseExport(readFileSync(`${FIXTURES}/langfuse-malformed.jsonl`, "utf8"), "langfuse-malformed.jsonl");

  it("reports bad lines and bad observations with where they are, and imports the rest", () => {
    expect(parsed.problems).toContainEqual({ where: "line 2", message: expect.stringMatching(/^not valid JSON/) });
    expect(parsed.problems).toContainEqual({ where: "line 5", message: "neither a Langfuse trace (`id` and `observations`), an observation (`type` and `traceId`) nor a score; skipped" });
    expect(parsed.problems).toContainEqual({ where: "trace lf-bad-1, observations[0]", message: "not a JSON object; skipped" });
    expect(parsed.traces.map((trace) => trace.traceId)).toEqual(["lf-bad-1", "lf-loose-3"]);
  });

  it("keeps a RETRIEVER raw and gives no verdict for an unknown category, with a note", () => {
    expect(parsed.traces[0]?.unknown).toEqual([{ kind: "observation:RETRIEVER", name: "kb", data: expect.objectContaining({ id: "o1", output: ["doc"] }) as unknown }]);
    expect(parsed.traces[0]?.verdict).toBeNull();
    expect(parsed.problems).toContainEqual({ where: "trace lf-bad-1", message: 'Langfuse score `grade`: the value "B+" does not read as pass or fail' });
  });

  it("groups bare observations and scores by traceId into a trace", () => {
    const loose = parsed.traces[1];
    expect(loose?.calls).toEqual([{ model: "claude-3-5-haiku", messages: [{ role: "user", content: "Name a prime." }], outputText: "9", inputTokens: 5, outputTokens: 1, costUsd: null, latencyMs: 1000, stepIndex: 0, sourceId: "o2" }]);
    expect(loose?.steps).toEqual([{ thought: null, action: null, observation: null, answer: "9", startedAt: "2026-11-30T17:00:00.000Z", sourceId: "o2" }]);
    expect(loose?.verdict).toMatchObject({ passed: false, score: 0, name: "is_prime", explanation: "9 is not prime." });
  });
});

describe("parseLangfuseExport — list items", () => {
  it("says how to export full traces when observations are ids only", () => {
    const item = { id: "t-list", name: "agent", timestamp: "2026-11-30T10:00:00Z", input: "q", output: "a", observations: ["o1", "o2"], scores: ["s1"], htmlPath: "/x", totalCost: 0.1, latency: 1 };
    const parsed = parseLangfuseExport(JSON.stringify({ data: [item] }), "list.json");
    expect(parsed.traces).toHaveLength(1);
    expect(parsed.traces[0]).toMatchObject({ steps: [], calls: [], verdict: null, input: "q", output: "a" });
    expect(parsed.problems).toEqual([{ where: "trace t-list", message: "its observations are ids only (a `GET /api/public/traces` list item); export each trace with `GET /api/public/traces/{traceId}` to include them" }]);
  });
});
