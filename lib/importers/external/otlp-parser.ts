import { Readable } from "node:stream";
import { createInterface } from "node:readline";
import type { ExternalTrace, ParsedTraces, TraceProblem } from "./external-trace";
import { traceOfSpans } from "./otlp-conventions";
import { isOwnExport } from "./own-export";
import { spansOfRequest, type OtlpSpan } from "./otlp-spans";

/**
 * Reads OTLP trace files: one `ExportTraceServiceRequest` as JSON (a whole file, pretty-printed or
 * not), or JSON lines — one request per line, as the OpenTelemetry file exporter writes them
 * (opentelemetry-specification, "OTLP File Exporter": `.jsonl`, one `ExportTraceServiceRequest` per
 * line) and as `cli export-otlp` does.
 *
 * Streaming: lines are read one at a time (node:readline over a stream) and spans are grouped by
 * `traceId`. A trace is complete — and is turned into an {@link ExternalTrace} (or kept as an own
 * export) and its spans let go — as soon as its root span (no `parentSpanId`) has arrived and every
 * other span's parent is there; exporters write a root span last (it ends last), so a file of many
 * traces holds about one trace's spans at a time ({@link OtlpReadStats.maxPendingSpans}). Spans of
 * a trace that arrive after it was complete are reported as a problem, not silently merged.
 *
 * Never throws on a bad record: a line that is not JSON, not a request, or a span without ids is a
 * {@link TraceProblem} ("line 12: …") and reading goes on.
 */

/** What reading cost: for the bench and the bounded-memory test. */
export interface OtlpReadStats {
  lines: number;
  spans: number;
  traces: number;
  /** The most spans held at once, waiting for their trace to complete. */
  maxPendingSpans: number;
}

/** One trace of this app's own export, kept as spans: lib/importers/external/own-export.ts rebuilds its run. */
export interface OwnExportTrace {
  traceId: string;
  spans: OtlpSpan[];
}

/** The parse of one OTLP file: outside agents' traces, own-export traces, problems, stats. */
export interface ParsedOtlp extends ParsedTraces {
  format: "otlp";
  ownExports: OwnExportTrace[];
  stats: OtlpReadStats;
}

interface Pending {
  spans: OtlpSpan[];
  ids: Set<string>;
}

/** Options of {@link parseOtlpStream}. */
export interface OtlpStreamOptions {
  /** Called with each outside agent's trace as soon as it is complete; when given, traces are handed over, not collected (`traces` stays empty). */
  onTrace?: (trace: ExternalTrace) => void;
}

/** Reads an OTLP JSON / JSON-lines stream. `name` is the file's name (for problems). */
export async function parseOtlpStream(stream: NodeJS.ReadableStream, name: string, options: OtlpStreamOptions = {}): Promise<ParsedOtlp> {
  const traces: ExternalTrace[] = [];
  const ownExports: OwnExportTrace[] = [];
  const problems: TraceProblem[] = [];
  const stats: OtlpReadStats = { lines: 0, spans: 0, traces: 0, maxPendingSpans: 0 };
  const pending = new Map<string, Pending>();
  const done = new Set<string>();
  let pendingSpans = 0;

  const flush = (traceId: string) => {
    const group = pending.get(traceId);
    if (!group) return;
    pending.delete(traceId);
    pendingSpans -= group.spans.length;
    done.add(traceId);
    stats.traces += 1;
    if (isOwnExport(group.spans)) ownExports.push({ traceId, spans: group.spans });
    else if (options.onTrace) options.onTrace(traceOfSpans(traceId, group.spans));
    else traces.push(traceOfSpans(traceId, group.spans));
  };
  const complete = (group: Pending) => group.spans.some((span) => span.parentSpanId === null) && group.spans.every((span) => span.parentSpanId === null || group.ids.has(span.parentSpanId));
  const take = (request: unknown, line: number): boolean => {
    const read = spansOfRequest(request, line);
    if (!read) return false;
    for (const problem of read.problems) problems.push(problem);
    const touched = new Set<string>();
    for (const span of read.spans) {
      if (done.has(span.traceId)) {
        problems.push({ where: `line ${line}`, message: `span "${span.name}" ${span.spanId} of trace ${span.traceId} came after the trace was complete (its root span and every parent had arrived); it is not imported — export whole traces per request.` });
        continue;
      }
      const group = pending.get(span.traceId) ?? { spans: [], ids: new Set<string>() };
      group.spans.push(span);
      group.ids.add(span.spanId);
      pending.set(span.traceId, group);
      touched.add(span.traceId);
      stats.spans += 1;
      pendingSpans += 1;
    }
    stats.maxPendingSpans = Math.max(stats.maxPendingSpans, pendingSpans);
    for (const traceId of touched) {
      const group = pending.get(traceId);
      if (group && complete(group)) flush(traceId);
    }
    return true;
  };

  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let whole: string[] | null = null;
  let lineNo = 0;
  for await (const line of lines) {
    lineNo += 1;
    stats.lines = lineNo;
    if (whole) {
      whole.push(line);
      continue;
    }
    if (line.trim() === "") continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      if (traces.length + ownExports.length + pending.size === 0 && problems.length === 0 && /^\s*[{[]/.test(line)) {
        // Not one request per line: a pretty-printed single request (or array of them) — read the rest as one document.
        whole = [line];
        continue;
      }
      problems.push({ where: `line ${lineNo}`, message: `not JSON (${error instanceof Error ? error.message : String(error)}); skipped. Each line of an OTLP JSON-lines file is one ExportTraceServiceRequest.` });
      continue;
    }
    if (!take(parsed, lineNo)) problems.push({ where: `line ${lineNo}`, message: "not an OTLP ExportTraceServiceRequest (no resourceSpans array); skipped." });
  }
  if (whole) {
    let document: unknown;
    try {
      document = JSON.parse(whole.join("\n"));
    } catch (error) {
      problems.push({ where: "line 1", message: `${name} is neither OTLP JSON lines nor one JSON document (${error instanceof Error ? error.message : String(error)}).` });
    }
    const requests = Array.isArray(document) ? document : document === undefined ? [] : [document];
    requests.forEach((request, index) => {
      if (!take(request, 1)) problems.push({ where: requests.length > 1 ? `line 1, request ${index + 1}` : "line 1", message: "not an OTLP ExportTraceServiceRequest (no resourceSpans array); skipped." });
    });
  }
  // Traces whose root never arrived (a cut file, a partial export) are imported with what is there.
  for (const traceId of [...pending.keys()]) flush(traceId);
  return { format: "otlp", traces, problems, ownExports, stats };
}

/** {@link parseOtlpStream} over bytes already in memory (an upload). */
export function parseOtlp(bytes: Uint8Array, name: string): Promise<ParsedOtlp> {
  return parseOtlpStream(Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]), name);
}
