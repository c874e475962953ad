import { readFileSync } from "node:fs";
import { strToU8, zipSync, type Zippable } from "fflate";
import { describe, expect, it } from "vitest";
import { parseInspectLog } from "@/lib/importers/external/inspect-parser";

/**
 * The Inspect AI parser against golden logs written here in Inspect's documented shape
 * (tests/fixtures/traces/inspect-*.json; field names from inspect_ai's log/_log.py and event/*.py),
 * and `.eval` zips built from the same JSON parts.
 */

const FIXTURES = "tests/fixtures/traces";
const logBytes = readFileSync(`${FIXTURES}/inspect-qa-log.json`);
const log = JSON.parse(logBytes.toString("utf8")) as Record<string, unknown> & { samples: Record<string, unknown>[] };

/** A `.eval` zip laid out as Inspect's EvalRecorder writes it, from JSON parts. */
function evalZip(parts: { header?: unknown; start?: unknown; samples?: Record<string, unknown>[]; extra?: Record<string, Uint8Array> }): Uint8Array {
  const files: Zippable = {};
  if (parts.header) files["header.json"] = strToU8(JSON.stringify(parts.header));
  if (parts.start) files["_journal/start.json"] = strToU8(JSON.stringify(parts.start));
  for (const sample of parts.samples ?? []) files[`samples/${String(sample.id)}_epoch_${String(sample.epoch)}.json`] = strToU8(JSON.stringify(sample));
  files["summaries.json"] = strToU8(JSON.stringify((parts.samples ?? []).map((sample) => ({ id: sample.id, epoch: sample.epoch }))));
  files["reductions.json"] = strToU8("[]");
  Object.assign(files, parts.extra ?? {});
  return zipSync(files);
}

const header = { ...log, samples: undefined };

describe("parseInspectLog — JSON form", () => {
  const parsed = parseInspectLog(logBytes, "inspect-qa-log.json");
  const [correct, loop, unknownEvents] = parsed.traces;

  it("reads every sample of a clean log as one trace, with no problems", () => {
    expect(parsed.format).toBe("inspect");
    expect(parsed.problems).toEqual([]);
    expect(parsed.traces.map((trace) => trace.taskId)).toEqual(["capital_qa:1", "capital_qa:2", "capital_qa:geo-3"]);
    expect(correct?.title).toBe("capital_qa · sample 1");
    expect(correct?.traceId).toBe("smp-uuid-1");
    expect(unknownEvents?.traceId).toBe("fixture-eval-0001:geo-3:1");
  });

  it("turns a tool call and its tool message into a step, and the last assistant turn into the answer", () => {
    expect(correct?.input).toBe("What is the capital of France?");
    expect(correct?.target).toBe("Paris");
    expect(correct?.output).toBe("Paris");
    expect(correct?.steps).toEqual([
      { thought: "I should confirm with a search.", action: { tool: "search", input: '{"query":"capital of France"}' }, observation: "Paris is the capital and largest city of France.", answer: null, startedAt: "2026-11-30T10:00:01.000Z", sourceId: "call_1a" },
      { thought: null, action: null, observation: null, answer: "Paris", startedAt: "2026-11-30T10:00:03.000Z", sourceId: "m1-a2" },
    ]);
  });

  it("records each ModelEvent as a call with its prompt, tokens, cost, latency and step", () => {
    expect(correct?.calls).toHaveLength(2);
    expect(correct?.calls[0]).toMatchObject({ model: "openai:gpt-4o-mini", outputText: "I should confirm with a search.", inputTokens: 120, outputTokens: 20, costUsd: 0.00003, latencyMs: 1250, stepIndex: 0, sourceId: "ev-1-model-1" });
    expect(correct?.calls[0]?.messages).toEqual([
      { role: "system", content: "Answer with one word. Use the search tool when unsure." },
      { role: "user", content: "What is the capital of France?" },
    ]);
    // No `completed` on the second event: the latency is the output's `time`.
    expect(correct?.calls[1]).toMatchObject({ latencyMs: 800, costUsd: null, stepIndex: 1 });
    expect(correct?.calls[1]?.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(correct?.model).toBe("openai:gpt-4o-mini");
  });

  it("reads the scorer's value as the verdict, labelled with the scorer", () => {
    expect(correct?.verdict).toEqual({ passed: true, score: 1, name: "match", source: "Inspect scorer `match`", explanation: "Paris", raw: "C" });
    expect(loop?.verdict).toMatchObject({ passed: false, score: 0, raw: "I", explanation: "Tisza is not one of: Danube, the Danube" });
  });

  it("splits a turn with two tool calls into two steps (thought on the first) and keeps the tool loop", () => {
    expect(loop?.steps.map((step) => step.action?.tool ?? "answer")).toEqual(["search", "search", "search", "search", "answer"]);
    expect(loop?.steps.map((step) => step.thought)).toEqual(["Let me look up both the capital and its river.", null, "The second search failed; I will try again.", null, null]);
    expect(loop?.steps[1]?.observation).toBe("Error (timeout): search timed out after 30 s");
    expect(loop?.steps[3]).toMatchObject({ action: { tool: "search", input: '{"query":"river Budapest"}' }, observation: "No results." });
    expect(loop?.steps[4]?.answer).toBe("Tisza");
    expect(loop?.target).toBe("Danube | the Danube");
    expect(loop?.input).toBe("Which river flows through the capital of Hungary?");
  });

  it("expands pooled `input_refs` against `events_data.messages` and links each call to its step", () => {
    expect(loop?.calls.map((call) => call.messages.length)).toEqual([1, 4, 1, 1]);
    expect(loop?.calls[1]?.messages[2]).toEqual({ role: "tool", content: "Budapest is the capital of Hungary." });
    expect(loop?.calls.map((call) => call.stepIndex)).toEqual([0, 2, 3, 4]);
    // A turn with tool calls and no text: the call's output shows the call.
    expect(loop?.calls[2]?.outputText).toBe('search({"query":"river Budapest"})');
  });

  it("keeps events it does not model as raw records and resolves attachments", () => {
    expect(unknownEvents?.unknown.map((record) => [record.kind, record.name])).toEqual([
      ["event:sandbox", "sandbox"],
      ["event:info", "retriever"],
    ]);
    expect(unknownEvents?.unknown[0]?.data).toMatchObject({ cmd: "ls /data", output: "capitals.csv" });
    expect(unknownEvents?.output).toBe("Canberra");
    expect(unknownEvents?.steps).toEqual([{ thought: null, action: null, observation: null, answer: "Canberra", startedAt: "2026-11-30T10:01:02.000Z", sourceId: null }]);
    expect(unknownEvents?.calls[0]).toMatchObject({ outputText: "Canberra", latencyMs: 400, stepIndex: 0 });
  });

  it("chooses the scorer named by the option and says when a sample lacks it", () => {
    const named = parseInspectLog(logBytes, "log.json", { scorer: "accuracy" });
    expect(named.traces.every((trace) => trace.verdict === null)).toBe(true);
    expect(named.problems[0]).toEqual({ where: "sample 1 (epoch 1)", message: "no score from scorer `accuracy` (the sample has `match`); no verdict" });
  });
});

describe("parseInspectLog — malformed logs", () => {
  const parsed = parseInspectLog(readFileSync(`${FIXTURES}/inspect-malformed-log.json`), "inspect-malformed-log.json");

  it("says the eval ended in error and still reads the samples that exist", () => {
    expect(parsed.problems[0]).toEqual({ where: "log", message: 'the eval ended with status "error": RateLimitError: too many requests; 3 samples read' });
    expect(parsed.traces.map((trace) => trace.taskId)).toEqual(["capital_qa:1", "capital_qa:3", "capital_qa:4"]);
    expect(parsed.traces[0]?.model).toBe("anthropic:claude-3-5-haiku-latest");
  });

  it("reports a sample that is not an object and goes on", () => {
    expect(parsed.problems).toContainEqual({ where: "samples[1]", message: "could not be read (a sample is not an object); the other samples are imported" });
  });

  it("skips a dict-valued score for the next scorer, and notes a number outside 0..1", () => {
    const chile = parsed.traces[1];
    expect(chile?.verdict).toMatchObject({ name: "judge", score: 1, passed: true, raw: 7, explanation: "Rated 7 of 10." });
    expect(parsed.problems).toContainEqual({ where: "sample 3 (epoch 1)", message: "Inspect scorer `judge`: the score 7 is outside 0..1 (scale unknown); read as 1 (passed)" });
    expect(chile?.unknown.map((record) => record.kind)).toEqual(["event:error", "sample:error"]);
  });

  it("gives no verdict for a value that reads as neither pass nor fail, and reads bare NaN tokens", () => {
    expect(parsed.traces[2]?.verdict).toBeNull();
    expect(parsed.problems).toContainEqual({ where: "sample 4 (epoch 1)", message: 'Inspect scorer `match`: the value "maybe" does not read as pass or fail' });
  });

  it("refuses what is not an eval log with a message saying what was expected", () => {
    expect(parseInspectLog(strToU8("{not json"), "x.json")).toMatchObject({ traces: [], problems: [{ where: "x.json" }] });
    expect(parseInspectLog(strToU8("{not json"), "x.json").problems[0]?.message).toMatch(/^not an Inspect eval log: not valid JSON/);
    expect(parseInspectLog(strToU8('{"samples": []}'), "y.json").problems).toEqual([{ where: "y.json", message: "not an Inspect eval log: expected an object with `eval` (the EvalSpec) and `samples`" }]);
  });

  it("notes a log without samples", () => {
    const empty = parseInspectLog(strToU8(JSON.stringify(header)), "header-only.json");
    expect(empty.traces).toEqual([]);
    expect(empty.problems).toEqual([{ where: "log", message: "the log has no samples (was it written with log_samples=False, or is it a header only?)" }]);
  });
});

describe("parseInspectLog — .eval zip", () => {
  it("reads the same traces from the zip as from the JSON form", () => {
    const fromZip = parseInspectLog(evalZip({ header, samples: log.samples }), "log.eval");
    const fromJson = parseInspectLog(logBytes, "log.json");
    expect(fromZip.problems).toEqual([]);
    expect(fromZip.traces).toEqual(fromJson.traces);
  });

  it("orders samples by id then epoch, and names the epoch when there are several", () => {
    const sample = log.samples[0] as Record<string, unknown>;
    const zip = evalZip({ header, samples: [{ ...sample, epoch: 2, uuid: "e2" }, { ...sample, id: 10, uuid: "s10" }, { ...sample, uuid: "e1" }] });
    const parsed = parseInspectLog(zip, "epochs.eval");
    expect(parsed.traces.map((trace) => trace.title)).toEqual(["capital_qa · sample 1 (epoch 1)", "capital_qa · sample 1 (epoch 2)", "capital_qa · sample 10 (epoch 1)"]);
  });

  it("reports an unreadable sample entry and imports the others", () => {
    const zip = evalZip({ header, samples: log.samples, extra: { "samples/9_epoch_1.json": strToU8('{"id": 9, "epoch": 1, "messages": [') } });
    const parsed = parseInspectLog(zip, "log.eval");
    expect(parsed.traces).toHaveLength(3);
    expect(parsed.problems).toHaveLength(1);
    expect(parsed.problems[0]?.where).toBe("samples/9_epoch_1.json");
    expect(parsed.problems[0]?.message).toMatch(/^could not be read \(.+\); the other samples are imported$/);
  });

  it("refuses entries whose declared size is over the limit, without extracting them", () => {
    const big = { ...(log.samples[1] as Record<string, unknown>), metadata: { padding: "x".repeat(20_000) } };
    const parsed = parseInspectLog(evalZip({ header, samples: [log.samples[0] as Record<string, unknown>, big] }), "log.eval", { maxEntryBytes: 15_000 });
    expect(parsed.traces.map((trace) => trace.taskId)).toEqual(["capital_qa:1"]);
    expect(parsed.problems).toHaveLength(1);
    expect(parsed.problems[0]?.where).toBe("samples/2_epoch_1.json");
    expect(parsed.problems[0]?.message).toMatch(/^declares \d+ bytes uncompressed, over the 15000-byte limit per entry; skipped$/);
  });

  it("reads an in-progress zip from _journal/start.json and says it is not finished", () => {
    const start = { version: 2, eval: log.eval, plan: log.plan };
    const parsed = parseInspectLog(evalZip({ start, samples: [log.samples[0] as Record<string, unknown>] }), "running.eval");
    expect(parsed.traces).toHaveLength(1);
    expect(parsed.problems).toEqual([{ where: "log", message: 'the eval is still "started" (the run was in progress or was killed); 1 sample read' }]);
  });

  it("refuses a zip that is not an eval log, and bytes that only look like a zip", () => {
    const notLog = parseInspectLog(zipSync({ "readme.txt": strToU8("hello") }), "other.zip");
    expect(notLog.problems).toEqual([{ where: "other.zip", message: "not an Inspect .eval log: the zip has neither header.json nor _journal/start.json" }]);
    const broken = parseInspectLog(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), "broken.eval");
    expect(broken.traces).toEqual([]);
    expect(broken.problems[0]?.message).toMatch(/^not a readable \.eval zip/);
  });
});

describe("docs/examples/inspect-eval-log.json (the README walkthrough's Inspect log)", () => {
  const parsed = parseInspectLog(readFileSync("docs/examples/inspect-eval-log.json"), "inspect-eval-log.json");

  it("imports cleanly with some failures to reflect on", () => {
    expect(parsed.problems).toEqual([]);
    expect(parsed.traces.map((trace) => [trace.taskId, trace.verdict?.passed])).toEqual([
      ["trivia_agent:1", true],
      ["trivia_agent:2", true],
      ["trivia_agent:3", false],
      ["trivia_agent:4", false],
      ["trivia_agent:5", false],
    ]);
  });

  it("gives every trace tool steps ending in a submitted answer, and a call per step", () => {
    for (const trace of parsed.traces) {
      expect(trace.steps.at(-1)?.action?.tool).toBe("submit");
      expect(trace.steps.at(-1)?.answer).toBe(trace.output);
      expect(trace.calls.map((call) => call.stepIndex)).toEqual(trace.steps.map((_, index) => index));
      expect(trace.calls.every((call) => call.inputTokens !== null && call.costUsd !== null)).toBe(true);
    }
    expect(parsed.traces[4]?.steps.map((step) => step.action?.input)).toEqual(['{"query":"Australia largest city"}', '{"query":"Australia largest city"}', '{"answer":"Sydney"}']);
  });
});
