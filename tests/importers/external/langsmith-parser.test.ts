import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseLangSmithExport } from "@/lib/importers/external/langsmith-parser";

/**
 * The LangSmith parser against a run export written here in the documented run and feedback formats
 * (docs.langchain.com/langsmith/run-data-format, feedback-data-format, log-llm-trace): one trace of
 * LangChain-serialised llm runs ordered by `dotted_order`, one of OpenAI-shaped llm runs ordered by
 * `start_time` (written out of order), feedback as separate records and as `feedback_stats`.
 */

const FIXTURES = "tests/fixtures/traces";
const text = readFileSync(`${FIXTURES}/langsmith-runs.jsonl`, "utf8");

describe("parseLangSmithExport", () => {
  const parsed = parseLangSmithExport(text, "langsmith-runs.jsonl");
  const [agent, math] = parsed.traces;

  it("groups runs by trace_id into one trace per root run", () => {
    expect(parsed.format).toBe("langsmith");
    expect(parsed.problems).toEqual([]);
    expect(parsed.traces.map((trace) => [trace.traceId, trace.title])).toEqual([
      ["a0000000-0000-4000-8000-000000000001", "qa_agent"],
      ["b0000000-0000-4000-8000-000000000001", "math_agent"],
    ]);
    expect(agent).toMatchObject({ input: "Which river flows through the capital of Hungary?", output: "The Tisza.", taskId: "ex-hungary-river", target: null, startedAt: "2026-11-30T10:00:00.000Z", endedAt: "2026-11-30T10:00:06.000Z" });
    // No dataset example: the task id is the input's hash, the same for the same input.
    expect(math?.taskId).toMatch(/^input:[0-9a-f]{8}$/);
    expect(parseLangSmithExport(text, "again.jsonl").traces[1]?.taskId).toBe(math?.taskId);
  });

  it("makes tool runs steps with the preceding llm text as thought, an error as observation, and a final answer step", () => {
    expect(agent?.steps).toEqual([
      { thought: "I need the capital first.", action: { tool: "search", input: "capital of Hungary" }, observation: "Budapest is the capital of Hungary.", answer: null, startedAt: "2026-11-30T10:00:01.400Z", sourceId: "a0000000-0000-4000-8000-000000000003" },
      { thought: null, action: { tool: "search", input: "river through Budapest" }, observation: "Error: ConnectionError: search backend unavailable", answer: null, startedAt: "2026-11-30T10:00:03.100Z", sourceId: "a0000000-0000-4000-8000-000000000006" },
      { thought: null, action: null, observation: null, answer: "The Tisza.", startedAt: "2026-11-30T10:00:04.100Z", sourceId: "a0000000-0000-4000-8000-000000000007" },
    ]);
  });

  it("reads LangChain-serialised llm runs as calls with provider-prefixed model, tokens, cost and latency", () => {
    expect(agent?.calls).toHaveLength(3);
    expect(agent?.calls[0]).toMatchObject({ model: "openai:gpt-4o-mini", outputText: "I need the capital first.", inputTokens: 85, outputTokens: 22, costUsd: 0.0000259, latencyMs: 1200, stepIndex: 0 });
    expect(agent?.calls[0]?.messages).toEqual([
      { role: "system", content: "You answer questions. Use the search tool." },
      { role: "user", content: "Which river flows through the capital of Hungary?" },
    ]);
    expect(agent?.calls[1]?.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
    expect(agent?.calls[1]).toMatchObject({ outputText: 'search({"query":"river through Budapest"})', stepIndex: 1, costUsd: null });
    expect(agent?.calls[2]?.stepIndex).toBe(2);
  });

  it("keeps retriever and parser runs raw", () => {
    expect(agent?.unknown.map((record) => [record.kind, record.name])).toEqual([
      ["run:retriever", "wiki_retriever"],
      ["run:parser", "output_parser"],
    ]);
    expect(agent?.unknown[0]?.data).toMatchObject({ outputs: { documents: [{ page_content: "Budapest is the capital of Hungary." }] } });
  });

  it("prefers the root run's feedback as the verdict, and the key named by the option", () => {
    expect(agent?.verdict).toEqual({ passed: false, score: 0, name: "correctness", source: "LangSmith feedback `correctness`", explanation: "The Danube flows through Budapest, not the Tisza.", raw: 0 });
    const byKey = parseLangSmithExport(text, "x.jsonl", { feedbackKey: "helpfulness" });
    expect(byKey.traces[0]?.verdict).toMatchObject({ passed: true, score: 0.9, name: "helpfulness", explanation: "Clear and short." });
    expect(byKey.problems).toEqual([{ where: "trace b0000000-0000-4000-8000-000000000001", message: "no feedback `helpfulness` on this trace; no verdict" }]);
  });

  it("orders runs without dotted_order by start_time and reads OpenAI-shaped llm runs", () => {
    expect(math?.steps.map((step) => step.action?.tool ?? `answer: ${step.answer}`)).toEqual(["calculator", "answer: 17 × 23 = 391."]);
    expect(math?.steps[0]).toMatchObject({ thought: null, action: { input: '{"expression":"17*23"}' }, observation: "391" });
    expect(math?.calls[0]).toMatchObject({ model: "openai:gpt-4o-mini", inputTokens: 60, outputTokens: 15, costUsd: 0.000018, outputText: 'calculator({"expression": "17*23"})' });
    expect(math?.calls[1]).toMatchObject({ inputTokens: 80, outputTokens: 9, stepIndex: 1 });
  });

  it("orders by dotted_order / start_time, not by position in the file", () => {
    const reversed = parseLangSmithExport(text.trim().split("\n").reverse().join("\n"), "reversed.jsonl");
    const byId = (id: string | undefined) => reversed.traces.find((trace) => trace.traceId === id);
    expect(byId(agent?.traceId)).toEqual(agent);
    expect(byId(math?.traceId)).toEqual(math);
  });

  it("falls back to the root's feedback_stats", () => {
    expect(math?.verdict).toMatchObject({ passed: true, score: 1, name: "correctness", source: "LangSmith feedback `correctness` (feedback_stats)", raw: 1 });
  });

  it("reads a JSON array of runs with nested child_runs the same way", () => {
    const runs = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((record) => record.trace_id === "b0000000-0000-4000-8000-000000000001" && "run_type" in record);
    const root = runs.find((run) => run.parent_run_id === null);
    const nested = [{ ...root, child_runs: runs.filter((run) => run !== root).map(({ trace_id: _t, parent_run_id: _p, ...run }) => run) }];
    const fromArray = parseLangSmithExport(JSON.stringify(nested, null, 2), "tree.json");
    expect(fromArray.problems).toEqual([]);
    expect(fromArray.traces).toEqual([math]);
  });
});

describe("parseLangSmithExport — malformed input", () => {
  const parsed = parseLangSmithExport(readFileSync(`${FIXTURES}/langsmith-malformed.jsonl`, "utf8"), "langsmith-malformed.jsonl");

  it("reports each bad line with its number and imports the rest", () => {
    expect(parsed.problems.filter((problem) => problem.where.startsWith("line "))).toEqual([
      { where: "line 2", message: expect.stringMatching(/^not valid JSON/) },
      { where: "line 3", message: "a run (no id) has no `id`; skipped" },
      { where: "line 4", message: "neither a LangSmith run (no `run_type`) nor a feedback record (`key` and `run_id`); skipped" },
      { where: "line 5", message: "not a JSON object; expected a LangSmith run (with `run_type`) or a feedback record" },
    ]);
    expect(parsed.traces.map((trace) => trace.traceId)).toEqual(["c0000000-0000-4000-8000-000000000001", "d0000000-0000-4000-8000-000000000001"]);
  });

  it("reads feedback embedded in a run", () => {
    expect(parsed.traces[0]?.verdict).toMatchObject({ passed: true, score: 1, name: "correctness", explanation: "ok", raw: true });
  });

  it("reads a trace whose root run is missing, and says so; an unreadable feedback value is a note", () => {
    const orphan = parsed.traces[1];
    expect(orphan?.steps[0]).toMatchObject({ action: { tool: "search", input: "orphan" }, observation: "found" });
    expect(orphan?.title).toBe("LangSmith trace d0000000-0000-4000-8000-000000000001");
    expect(orphan?.verdict).toBeNull();
    expect(parsed.problems).toContainEqual({ where: "trace d0000000-0000-4000-8000-000000000001", message: "its root run is not in the file; the trace is read from the runs that are" });
    expect(parsed.problems).toContainEqual({ where: "trace d0000000-0000-4000-8000-000000000001", message: 'LangSmith feedback `quality`: the value "meh" does not read as pass or fail' });
  });

  it("says what was expected for an empty file or text that is not JSON", () => {
    expect(parseLangSmithExport("", "empty.jsonl").problems).toEqual([{ where: "line 1", message: expect.stringMatching(/expected a JSON object, an array of objects, or JSON lines$/) }]);
    expect(parseLangSmithExport("[]", "none.json").problems).toEqual([{ where: "none.json", message: "the file is empty; expected LangSmith runs (JSON array or JSON lines)" }]);
  });
});
