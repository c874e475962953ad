import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LATE_SPAN_WINDOW_LINES, parseOtlpStream } from "@/lib/importers/external/otlp-parser";
import { writeSyntheticOtlpFile } from "../../helpers/synthetic-otlp";

/**
 * Bounded memory: the parser streams the file line by line and lets a trace's spans go once the
 * trace is complete and its late-span window (LATE_SPAN_WINDOW_LINES further lines) has passed, so
 * it holds the spans of the traces completed in the last window's lines — here two lines and 10
 * spans per trace: (256 / 2 + 1) × 10 — however many traces the file has. Counting the spans held
 * is exact and does not depend on the GC; the heap and time figures are in the bench
 * (bench/trace-import.bench.ts).
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "otlp-10k-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("a 10,000-span OTLP JSON-lines file", () => {
  it("imports every span and trace while holding at most the window's traces' spans, whatever the file's length", async () => {
    const file = path.join(dir, "10k.jsonl");
    const written = writeSyntheticOtlpFile(file, { traces: 1_000, turns: 4 });
    expect(written.spans).toBe(10_000);
    let handed = 0;
    let steps = 0;
    const parsed = await parseOtlpStream(fs.createReadStream(file), "10k.jsonl", {
      onTrace: (trace) => {
        handed += 1;
        steps += trace.steps.length;
      },
    });
    expect(parsed.problems).toEqual([]);
    // Two lines per trace: the traces completed in the window's last 256 lines, and the one completing.
    const held = (LATE_SPAN_WINDOW_LINES / 2 + 1) * 10;
    expect(parsed.stats).toEqual({ lines: 2_000, spans: 10_000, traces: 1_000, maxPendingSpans: held, lateSpans: 0 });
    expect(handed).toBe(1_000);
    // Four tool turns per trace, plus the final answer from the agent's output.
    expect(steps).toBe(5_000);

    // Five times the traces: the parser holds no more.
    const longer = path.join(dir, "50k.jsonl");
    writeSyntheticOtlpFile(longer, { traces: 5_000, turns: 4 });
    const longerParse = await parseOtlpStream(fs.createReadStream(longer), "50k.jsonl", { onTrace: () => undefined });
    expect(longerParse.stats).toMatchObject({ spans: 50_000, traces: 5_000, maxPendingSpans: held });
    // Without the window, one trace's spans at a time.
    const eager = await parseOtlpStream(fs.createReadStream(longer), "50k.jsonl", { onTrace: () => undefined, lateSpanWindowLines: 0 });
    expect(eager.stats).toMatchObject({ spans: 50_000, traces: 5_000, maxPendingSpans: 10 });
  });

  it("holds a trace whose spans are spread over the file until its root arrives, and keeps the first copy of a repeated span", async () => {
    const file = path.join(dir, "interleaved.jsonl");
    writeSyntheticOtlpFile(file, { traces: 3, turns: 1 });
    const [a1, a2, b1, b2, c1, c2] = fs.readFileSync(file, "utf8").split("\n");
    // Trace A's turns, then all of B, then A's root: A's 2 spans wait while B's 4 arrive; complete traces are held for late spans, so all 12 are held at the end; a copy of A's turns comes last.
    fs.writeFileSync(file, [a1, b1, b2, a2, c1, c2, a1].join("\n"));
    const parsed = await parseOtlpStream(fs.createReadStream(file), "interleaved.jsonl");
    expect(parsed.traces.map((trace) => trace.traceId.slice(-1))).toEqual(["1", "0", "2"]);
    expect(parsed.stats).toMatchObject({ spans: 12, maxPendingSpans: 12, lateSpans: 0 });
    expect(parsed.problems).toEqual([
      { where: "line 7", message: expect.stringMatching(/is repeated \(the same span id came before\); the first copy is kept/) },
      { where: "line 7", message: expect.stringMatching(/is repeated/) },
    ]);
    expect(parsed.traces[1]!.steps).toHaveLength(2);
  });

  /** Trace A's root without its evaluator, B whole, then A's evaluator: the Collector's file exporter writes spans as its batches hold them. */
  function lateEvaluatorFile(file: string): void {
    writeSyntheticOtlpFile(file, { traces: 2, turns: 1 });
    const [a1, a2, b1, b2] = fs.readFileSync(file, "utf8").split("\n");
    const request = JSON.parse(a2!) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ name: string }> }> }> };
    const spans = request.resourceSpans[0]!.scopeSpans[0]!.spans;
    const only = (name: string) => JSON.stringify({ resourceSpans: [{ ...request.resourceSpans[0], scopeSpans: [{ ...request.resourceSpans[0]!.scopeSpans[0], spans: spans.filter((span) => span.name === name) }] }] });
    fs.writeFileSync(file, [a1, only("calculator-agent"), b1, b2, only("exact_match")].join("\n"));
  }

  it("merges a span that arrives in a later line than its trace's root, so the trace gets its evaluator's verdict", async () => {
    const file = path.join(dir, "late-evaluator.jsonl");
    lateEvaluatorFile(file);
    const parsed = await parseOtlpStream(fs.createReadStream(file), "late-evaluator.jsonl");
    expect(parsed.problems).toEqual([]);
    expect(parsed.stats).toMatchObject({ spans: 8, traces: 2, lateSpans: 1 });
    // Trace 0's evaluator scored 0 ("incorrect"); trace 1's, in its own line, 1.
    expect(parsed.traces.map((trace) => [trace.traceId.slice(-1), trace.verdict?.passed])).toEqual([
      ["0", false],
      ["1", true],
    ]);
  });

  it("reports a span that arrives after the window, naming the window and what to do", async () => {
    const file = path.join(dir, "too-late.jsonl");
    lateEvaluatorFile(file);
    const parsed = await parseOtlpStream(fs.createReadStream(file), "too-late.jsonl", { lateSpanWindowLines: 2 });
    expect(parsed.problems).toEqual([
      {
        where: "line 5",
        message: expect.stringMatching(/^span "exact_match" \S+ of trace 0+ came 3 lines after the trace was complete \(line 2\); spans are merged into a complete trace for 2 lines, so it is not imported — keep a trace's spans within 2 lines of each other/),
      },
    ]);
    expect(parsed.traces.map((trace) => trace.verdict)).toEqual([null, expect.objectContaining({ passed: true })]);
  });
});
