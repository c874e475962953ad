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
 * `traceId`. A trace is complete as soon as its root span (no `parentSpanId`) has arrived and every
 * other span's parent is there; exporters write a root span last (it ends last). A complete trace is
 * still held for {@link LATE_SPAN_WINDOW_LINES} further lines: the OpenTelemetry Collector's file
 * exporter writes whatever its batches hold, so a span that ends after the root (an evaluator
 * scoring the answer) or a span of another batch arrives in a later line, and it is merged into its
 * trace. After the window the trace is turned into an {@link ExternalTrace} (or kept as an own
 * export) and its spans let go; a span of it that arrives later still is reported as a problem
 * naming the window (it is not imported). So the parser holds the spans of the traces completed in
 * the last {@link LATE_SPAN_WINDOW_LINES} lines plus those of incomplete traces
 * ({@link OtlpReadStats.maxPendingSpans}) — a bound set by the window and the traces' sizes, not by
 * the file's length. A span repeated in its trace (same span id) is reported and its first copy kept.
 *
 * Never throws on a bad record: a line that is not JSON, not a request, or a span without ids is a
 * {@link TraceProblem} ("line 12: …") and reading goes on.
 */

/** What reading cost: for the bench and the bounded-memory test. */
export interface OtlpReadStats {
  lines: number;
  spans: number;
  traces: number;
  /** The most spans held at once: waiting for their trace to complete, or complete and held for late spans. */
  maxPendingSpans: number;
  /** Spans that arrived after their trace was complete and were merged into it within the window. */
  lateSpans: number;
}

/**
 * How many lines after a trace is complete its late spans are still merged into it. The Collector's
 * file exporter writes one request per line, one line per batch it is handed, so a span that ends a
 * few batches after its trace's root (an evaluator, a slow tool) lands a few lines later; 256 lines
 * catches that with a wide margin while the parser holds only the traces completed in those lines.
 */
export const LATE_SPAN_WINDOW_LINES = 256;

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

interface Held extends Pending {
  /** The line on which the trace became complete. */
  completedAt: number;
}

/** Options of {@link parseOtlpStream}. */
export interface OtlpStreamOptions {
  /** Called with each outside agent's trace once it is complete and its late-span window has passed; when given, traces are handed over, not collected (`traces` stays empty). */
  onTrace?: (trace: ExternalTrace) => void;
  /** Lines a complete trace is held for late spans; default {@link LATE_SPAN_WINDOW_LINES}, 0 hands a trace on as soon as it is complete. */
  lateSpanWindowLines?: number;
}

/** Reads an OTLP JSON / JSON-lines stream. `name` is the file's name (for problems). */
export async function parseOtlpStream(stream: NodeJS.ReadableStream, name: string, options: OtlpStreamOptions = {}): Promise<ParsedOtlp> {
  const traces: ExternalTrace[] = [];
  const ownExports: OwnExportTrace[] = [];
  const problems: TraceProblem[] = [];
  const stats: OtlpReadStats = { lines: 0, spans: 0, traces: 0, maxPendingSpans: 0, lateSpans: 0 };
  const window = Math.max(0, Math.floor(options.lateSpanWindowLines ?? LATE_SPAN_WINDOW_LINES));
  const pending = new Map<string, Pending>();
  // Complete traces in the order they completed (Map iteration order), so the oldest is handed on first.
  const held = new Map<string, Held>();
  // Traces handed on, with the line each became complete on (for the late-span problem).
  const done = new Map<string, number>();
  let heldSpans = 0;

  const handOn = (traceId: string, group: Held) => {
    held.delete(traceId);
    heldSpans -= group.spans.length;
    done.set(traceId, group.completedAt);
    stats.traces += 1;
    if (isOwnExport(group.spans)) ownExports.push({ traceId, spans: group.spans });
    else if (options.onTrace) options.onTrace(traceOfSpans(traceId, group.spans));
    else traces.push(traceOfSpans(traceId, group.spans));
  };
  const hold = (traceId: string, group: Pending, line: number) => {
    pending.delete(traceId);
    held.set(traceId, { ...group, completedAt: line });
  };
  /** Hands on the traces whose window has passed once `line` has been read. */
  const release = (line: number) => {
    for (const [traceId, group] of held) {
      if (group.completedAt + window > line) break;
      handOn(traceId, group);
    }
  };
  const complete = (group: Pending) => group.spans.some((span) => span.parentSpanId === null) && group.spans.every((span) => span.parentSpanId === null || group.ids.has(span.parentSpanId));
  const take = (request: unknown, line: number): boolean => {
    const read = spansOfRequest(request, line);
    if (!read) return false;
    for (const problem of read.problems) problems.push(problem);
    const touched = new Set<string>();
    for (const span of read.spans) {
      const completedAt = done.get(span.traceId);
      if (completedAt !== undefined) {
        problems.push({
          where: `line ${line}`,
          message: `span "${span.name}" ${span.spanId} of trace ${span.traceId} came ${line - completedAt} lines after the trace was complete (line ${completedAt}); spans are merged into a complete trace for ${window} lines, so it is not imported — keep a trace's spans within ${window} lines of each other (e.g. the Collector's groupbytrace processor before the file exporter), or export whole traces per request.`,
        });
        continue;
      }
      const group = held.get(span.traceId) ?? pending.get(span.traceId) ?? { spans: [], ids: new Set<string>() };
      if (group.ids.has(span.spanId)) {
        problems.push({ where: `line ${line}`, message: `span "${span.name}" ${span.spanId} of trace ${span.traceId} is repeated (the same span id came before); the first copy is kept.` });
        continue;
      }
      group.spans.push(span);
      group.ids.add(span.spanId);
      stats.spans += 1;
      heldSpans += 1;
      if (held.has(span.traceId)) stats.lateSpans += 1;
      else {
        pending.set(span.traceId, group);
        touched.add(span.traceId);
      }
    }
    stats.maxPendingSpans = Math.max(stats.maxPendingSpans, heldSpans);
    for (const traceId of touched) {
      const group = pending.get(traceId);
      if (group && complete(group)) hold(traceId, group, line);
    }
    return true;
  };

  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let whole: string[] | null = null;
  let lineNo = 0;
  /** Reads one line of JSON lines; false when the file turns out to be one pretty-printed document. */
  const readLine = (line: string): boolean => {
    if (line.trim() === "") return true;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      // Not one request per line: a pretty-printed single request (or array of them) — read the rest as one document.
      if (stats.spans === 0 && problems.length === 0 && /^\s*[{[]/.test(line)) return false;
      problems.push({ where: `line ${lineNo}`, message: `not JSON (${error instanceof Error ? error.message : String(error)}); skipped. Each line of an OTLP JSON-lines file is one ExportTraceServiceRequest.` });
      return true;
    }
    if (!take(parsed, lineNo)) problems.push({ where: `line ${lineNo}`, message: "not an OTLP ExportTraceServiceRequest (no resourceSpans array); skipped." });
    return true;
  };
  for await (const line of lines) {
    lineNo += 1;
    stats.lines = lineNo;
    if (whole) whole.push(line);
    else if (!readLine(line)) whole = [line];
    else release(lineNo);
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
  for (const [traceId, group] of [...held]) handOn(traceId, group);
  // Traces whose root never arrived (a cut file, a partial export) are imported with what is there.
  for (const [traceId, group] of [...pending]) {
    pending.delete(traceId);
    handOn(traceId, { ...group, completedAt: lineNo });
  }
  return { format: "otlp", traces, problems, ownExports, stats };
}

/** {@link parseOtlpStream} over bytes already in memory (an upload). */
export function parseOtlp(bytes: Uint8Array, name: string): Promise<ParsedOtlp> {
  return parseOtlpStream(Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]), name);
}
