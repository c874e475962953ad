import { readFileSync } from "node:fs";
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { SNIFF_BYTES, sniffTraceFormat } from "@/lib/importers/external/sniff";

/** The format sniffer on the golden files and on the distinctive keys of each format. */

const FIXTURES = "tests/fixtures/traces";
const file = (name: string) => new Uint8Array(readFileSync(`${FIXTURES}/${name}`));

describe("sniffTraceFormat", () => {
  it("recognises each golden file", () => {
    expect(sniffTraceFormat(file("inspect-qa-log.json"), "inspect-qa-log.json")).toBe("inspect");
    expect(sniffTraceFormat(file("inspect-malformed-log.json"), "log.json")).toBe("inspect");
    expect(sniffTraceFormat(file("langsmith-runs.jsonl"), "runs.jsonl")).toBe("langsmith");
    expect(sniffTraceFormat(file("langsmith-malformed.jsonl"), "runs.jsonl")).toBe("langsmith");
    expect(sniffTraceFormat(file("langfuse-traces.json"), "traces.json")).toBe("langfuse");
    expect(sniffTraceFormat(file("langfuse-malformed.jsonl"), "traces.jsonl")).toBe("langfuse");
    expect(sniffTraceFormat(new Uint8Array(readFileSync("docs/examples/inspect-eval-log.json")), "inspect-eval-log.json")).toBe("inspect");
  });

  it("reads a zip as an Inspect .eval log, whatever its name", () => {
    expect(sniffTraceFormat(zipSync({ "header.json": strToU8("{}") }), "upload.bin")).toBe("inspect");
  });

  it("recognises OTLP JSON and JSON lines by resourceSpans", () => {
    const otlp = { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans: [{ traceId: "ab", spanId: "cd", name: "llm", kind: 1 }] }] }] };
    expect(sniffTraceFormat(strToU8(JSON.stringify(otlp)), "t.json")).toBe("otlp");
    expect(sniffTraceFormat(strToU8(`${JSON.stringify(otlp)}\n${JSON.stringify(otlp)}\n`), "t.jsonl")).toBe("otlp");
  });

  it("recognises bare Langfuse observations by traceId and an observation type", () => {
    expect(sniffTraceFormat(strToU8('{"id": "o1", "traceId": "t1", "type": "GENERATION", "model": "gpt-4o"}'), "o.jsonl")).toBe("langfuse");
    expect(sniffTraceFormat(strToU8('{"id": "o1", "traceId": "t1", "type": "function"}'), "o.jsonl")).toBeNull();
  });

  it("does not mistake escaped keys inside strings for keys", () => {
    expect(sniffTraceFormat(strToU8(JSON.stringify({ note: JSON.stringify({ run_type: "llm" }) })), "n.json")).toBeNull();
  });

  it("returns null for other JSON, text and keys beyond the first 64 KB", () => {
    expect(sniffTraceFormat(strToU8('{"hello": "world"}'), "x.json")).toBeNull();
    expect(sniffTraceFormat(strToU8("Question: what?"), "x.txt")).toBeNull();
    const late = `[{"padding": "${"x".repeat(SNIFF_BYTES)}"}, {"run_type": "llm"}]`;
    expect(sniffTraceFormat(strToU8(late), "late.json")).toBeNull();
  });
});
