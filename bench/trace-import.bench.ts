/**
 * Trace-import benchmark (part of `npm run bench`): OTLP JSON-lines files of synthetic agent
 * traces (10 spans each, tests/helpers/synthetic-otlp.ts) read with the streaming parser
 * (lib/importers/external/otlp-parser.ts) and imported through TraceImportService into a SQLite
 * store. Prints, for 10,000 spans:
 * - the streaming parse handing each trace on once complete and past the late-span window (the parser's own memory), and the
 *   same for 50,000 spans: the peak heap growth should not grow with the file;
 * - the parse keeping every trace (what an import holds before its one transaction), with the most
 *   spans the parser held at once;
 * - the full import (parse, map to runs, store in one transaction);
 * - for each: wall time, peak heap growth over the start (sampled every 5 ms: it includes garbage
 *   not yet collected) and, with `--expose-gc` (`NODE_OPTIONS=--expose-gc`), the heap still held
 *   after a GC. Asserts nothing (tests/importers/external/otlp-10k.test.ts does).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import { parseOtlpStream } from "@/lib/importers/external/otlp-parser";
import { TraceImportService } from "@/lib/server/trace-import-service";
import { writeSyntheticOtlpFile } from "../tests/helpers/synthetic-otlp";

const gc = (globalThis as { gc?: () => void }).gc;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function measure<T>(label: string, work: () => Promise<T>): Promise<T> {
  gc?.();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 5);
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  gc?.();
  const held = gc ? `, held after GC +${mb(Math.max(0, process.memoryUsage().heapUsed - base))}` : "";
  process.stdout.write(`  ${label}: ${seconds.toFixed(2)} s, peak heap +${mb(peak - base)}${held}\n`);
  return result;
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "trace-import-bench-"));
  try {
    const file = path.join(dir, "agents.otlp.jsonl");
    const big = path.join(dir, "agents-50k.otlp.jsonl");
    const written = writeSyntheticOtlpFile(file, { traces: 1_000, turns: 4 });
    writeSyntheticOtlpFile(big, { traces: 5_000, turns: 4 });
    process.stdout.write(`trace import: ${written.spans.toLocaleString("en-US")} spans, 1,000 traces, ${mb(fs.statSync(file).size)} of OTLP JSON lines${gc ? "" : " (run with NODE_OPTIONS=--expose-gc for the held-after-GC figures)"}\n`);
    let handed = 0;
    await measure("streaming parse, each trace handed on (10,000 spans)", () => parseOtlpStream(fs.createReadStream(file), "agents.otlp.jsonl", { onTrace: () => (handed += 1) }));
    await measure("streaming parse, each trace handed on (50,000 spans)", () => parseOtlpStream(fs.createReadStream(big), "agents-50k.otlp.jsonl", { onTrace: () => (handed += 1) }));
    const parsed = await measure("parse keeping every trace (10,000 spans)", () => parseOtlpStream(fs.createReadStream(file), "agents.otlp.jsonl"));
    process.stdout.write(`  at most ${parsed.stats.maxPendingSpans} spans held at once by the parser\n`);
    const store = new SqliteRunStore(path.join(dir, "runs.db"));
    const bytes = new Uint8Array(fs.readFileSync(file));
    const imported = await measure("full import: parse, map, store (10,000 spans)", () => new TraceImportService(store).importFile({ name: "agents.otlp.jsonl", bytes, format: "otlp" }));
    process.stdout.write(`  ${imported.traces} runs stored\n`);
    await store.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main();
