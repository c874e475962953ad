import { describe, expect, it } from "vitest";
import { nullNonFiniteTokens, parseLenientJson, readJsonRecords } from "@/lib/importers/external/json-records";
import { contentText, inputTaskId, outputTextOf, toExternalMessage, toolCallsOf } from "@/lib/importers/external/message-text";
import { verdictFromValue } from "@/lib/importers/external/score-verdict";
import { isoTime, spanMs } from "@/lib/importers/external/trace-time";

/** The helpers the trace parsers share: record reading, message text, score reading, timestamps. */

const label = { name: "s", source: "test `s`" };

describe("verdictFromValue", () => {
  it("reads Inspect's C / I / P / N as value_to_float does, partial credit failing", () => {
    expect(["C", "I", "P", "N"].map((value) => [verdictFromValue(value, label).verdict?.score, verdictFromValue(value, label).verdict?.passed])).toEqual([
      [1, true],
      [0, false],
      [0.5, false],
      [0, false],
    ]);
  });

  it("reads booleans, numbers in 0..1 against the threshold, labels and numeric strings", () => {
    expect(verdictFromValue(true, label).verdict).toMatchObject({ passed: true, score: 1, raw: true });
    expect(verdictFromValue(0.4, label).verdict).toMatchObject({ passed: false, score: 0.4 });
    expect(verdictFromValue(0.5, label).verdict?.passed).toBe(true);
    expect(verdictFromValue(0.5, label, { passThreshold: 0.6 }).verdict?.passed).toBe(false);
    expect(verdictFromValue("Correct", label).verdict).toMatchObject({ passed: true, score: 1 });
    expect(verdictFromValue("wrong", label).verdict).toMatchObject({ passed: false, score: 0 });
    expect(verdictFromValue("0.75", label).verdict).toMatchObject({ passed: true, score: 0.75, raw: "0.75" });
  });

  it("clamps numbers outside 0..1 with a note, and gives no verdict for what does not read", () => {
    expect(verdictFromValue(-2, label)).toEqual({ verdict: expect.objectContaining({ passed: false, score: 0, raw: -2 }) as unknown, note: "test `s`: the score -2 is outside 0..1 (scale unknown); read as 0 (failed)" });
    expect(verdictFromValue({ a: 1 }, label)).toEqual({ verdict: null, note: 'test `s`: the value {"a":1} does not read as pass or fail' });
    expect(verdictFromValue(undefined, label)).toEqual({ verdict: null, note: "test `s`: no value does not read as pass or fail" });
  });
});

describe("readJsonRecords", () => {
  it("reads an array with the line each element starts on", () => {
    expect(readJsonRecords('[\n  {"a": 1},\n  {"b": 2}\n]').records).toEqual([
      { line: 2, value: { a: 1 } },
      { line: 3, value: { b: 2 } },
    ]);
  });

  it("reads JSON lines, skipping blank lines and reporting bad ones by number", () => {
    const read = readJsonRecords('{"a": 1}\n\n{"b":\n{"c": 3}\n');
    expect(read.jsonLines).toBe(true);
    expect(read.records).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 4, value: { c: 3 } },
    ]);
    expect(read.problems.map((problem) => problem.where)).toEqual(["line 3"]);
  });

  it("reads a pretty-printed single object as one record, not as lines", () => {
    expect(readJsonRecords('{\n  "a": {\n    "b": 1\n  }\n}\n').records).toEqual([{ line: 1, value: { a: { b: 1 } } }]);
  });

  it("reads Python's bare NaN / Infinity as null, leaving strings alone", () => {
    expect(nullNonFiniteTokens('{"x": NaN, "y": -Infinity, "s": "NaN and Infinity"}')).toBe('{"x": null, "y": null, "s": "NaN and Infinity"}');
    expect(parseLenientJson('[Infinity, "a\\"NaN"]')).toEqual([null, 'a"NaN']);
  });
});

describe("message text", () => {
  it("joins the text parts of a content list, as Inspect's ChatMessage.text does", () => {
    expect(contentText([{ type: "reasoning", reasoning: "hm" }, { type: "text", text: "a" }, { type: "image", image: "x" }, { type: "text", text: "b" }])).toBe("a\nb");
  });

  it("reads LangChain serialised, messages_to_dict and OpenAI messages", () => {
    expect(toExternalMessage({ lc: 1, type: "constructor", id: ["langchain_core", "messages", "AIMessage"], kwargs: { content: "hi" } })).toEqual({ role: "assistant", content: "hi" });
    expect(toExternalMessage({ type: "human", data: { content: "q" } })).toEqual({ role: "user", content: "q" });
    expect(toExternalMessage({ role: "developer", content: [{ type: "input_text", text: "rules" }] })).toEqual({ role: "system", content: "rules" });
    expect(toExternalMessage({ foo: 1 })).toBeNull();
  });

  it("reads tool calls in Inspect, OpenAI, LangChain and Anthropic shapes", () => {
    expect(toolCallsOf({ tool_calls: [{ id: "1", function: "search", arguments: { q: "x" } }] })).toEqual([{ id: "1", name: "search", input: '{"q":"x"}' }]);
    expect(toolCallsOf({ tool_calls: [{ id: "2", function: { name: "calc", arguments: '{"e": "1+1"}' } }] })).toEqual([{ id: "2", name: "calc", input: '{"e": "1+1"}' }]);
    expect(toolCallsOf({ lc: 1, kwargs: { tool_calls: [{ id: "3", name: "s", args: {} }] } })).toEqual([{ id: "3", name: "s", input: "{}" }]);
    expect(toolCallsOf({ role: "assistant", content: [{ type: "tool_use", id: "4", name: "t", input: { a: 1 } }] })).toEqual([{ id: "4", name: "t", input: '{"a":1}' }]);
  });

  it("finds the output text of the common output shapes", () => {
    expect(outputTextOf({ choices: [{ message: { role: "assistant", content: "x" } }] })).toBe("x");
    expect(outputTextOf({ generations: [[{ text: "y" }]] })).toBe("y");
    expect(outputTextOf({ messages: [{ role: "user", content: "q" }, { role: "assistant", content: "z" }] })).toBe("z");
    expect(outputTextOf({ answer: "w" })).toBe("w");
    expect(outputTextOf({ other: 1 })).toBe('{"other":1}');
  });

  it("hashes an input into a stable task id", () => {
    expect(inputTaskId("abc")).toBe(inputTaskId("abc"));
    expect(inputTaskId("abc")).not.toBe(inputTaskId("abd"));
    expect(inputTaskId("abc")).toMatch(/^input:[0-9a-f]{8}$/);
  });
});

describe("trace time", () => {
  it("reads zone-less ISO as UTC, epoch milliseconds, and spans", () => {
    expect(isoTime("2024-04-29T00:49:12.090000")).toBe("2024-04-29T00:49:12.090Z");
    expect(isoTime("2024-04-29T02:49:12+02:00")).toBe("2024-04-29T00:49:12.000Z");
    expect(isoTime(1714351752090)).toBe("2024-04-29T00:49:12.090Z");
    expect(isoTime("yesterday")).toBeNull();
    expect(spanMs("2024-04-29T00:49:12.090000", "2024-04-29T00:49:12.459000")).toBe(369);
    expect(spanMs("2024-04-29T00:49:13Z", "2024-04-29T00:49:12Z")).toBeNull();
  });
});
