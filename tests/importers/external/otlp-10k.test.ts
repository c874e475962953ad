import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseOtlpStream } from "@/lib/importers/external/otlp-parser";
import { writeSyntheticOtlpFile } from "../../helpers/synthetic-otlp";

/**
 * Bounded memory: the parser streams the file line by line and lets a trace's spans go as soon as
 * the trace is complete, so it never holds more than one trace's spans (10 here) however many
 * traces the file has. Counting the spans held is exact and does not depend on the GC; the heap
 * and time figures are in the bench (bench/trace-import.bench.ts).
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "otlp-10k-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("a 10,000-span OTLP JSON-lines file", () => {
  it("imports every span and trace while holding at most one trace's spans, whatever the file's length", async () => {
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
    expect(parsed.stats).toEqual({ lines: 2_000, spans: 10_000, traces: 1_000, maxPendingSpans: 10 });
    expect(handed).toBe(1_000);
    // Four tool turns per trace, plus the final answer from the agent's output.
    expect(steps).toBe(5_000);

    // Five times the traces: the parser still holds one trace's spans at most.
    const longer = path.join(dir, "50k.jsonl");
    writeSyntheticOtlpFile(longer, { traces: 5_000, turns: 4 });
    const longerParse = await parseOtlpStream(fs.createReadStream(longer), "50k.jsonl", { onTrace: () => undefined });
    expect(longerParse.stats).toMatchObject({ spans: 50_000, traces: 5_000, maxPendingSpans: 10 });
  });

  it("holds a trace whose spans are spread over the file until its root arrives, and reports spans that come after", async () => {
    const file = path.join(dir, "interleaved.jsonl");
    writeSyntheticOtlpFile(file, { traces: 3, turns: 1 });
    const [a1, a2, b1, b2, c1, c2] = fs.readFileSync(file, "utf8").split("\n");
    // Trace A's turns, then all of B, then A's root: A's 2 spans wait while B's 4 arrive and complete B (6 held at most); a copy of A's turns comes last.
    fs.writeFileSync(file, [a1, b1, b2, a2, c1, c2, a1].join("\n"));
    const parsed = await parseOtlpStream(fs.createReadStream(file), "interleaved.jsonl");
    expect(parsed.traces.map((trace) => trace.traceId.slice(-1))).toEqual(["1", "0", "2"]);
    expect(parsed.stats.maxPendingSpans).toBe(6);
    expect(parsed.problems).toEqual([
      { where: "line 7", message: expect.stringMatching(/came after the trace was complete/) },
      { where: "line 7", message: expect.stringMatching(/came after the trace was complete/) },
    ]);
  });
});
