import { AppError, isAppError } from "@/lib/domain/errors";
import type { ParsedTraces, TraceFormat } from "./external-trace";
import { parseInspectLog } from "./inspect-parser";
import { parseLangfuseExport } from "./langfuse-parser";
import { parseLangSmithExport } from "./langsmith-parser";
import { parseOtlp, type OwnExportTrace } from "./otlp-parser";
import { sniffTraceFormat } from "./sniff";

/**
 * The trace formats and their parsers: one entry per {@link TraceFormat}. A parser takes the file's
 * bytes (already gunzipped) and name and returns its traces and per-record problems; it throws only
 * when the file is not in its format at all.
 */

/** A parse of one file; an OTLP file may also hold traces of this app's own export. */
export type ParsedTraceFile = ParsedTraces & { ownExports?: OwnExportTrace[] };

/** A format's parser. */
export type TraceParser = (bytes: Uint8Array, name: string) => ParsedTraceFile | Promise<ParsedTraceFile>;

/** What a request may ask for: a format, or `auto` (sniffed from the content). */
export const TRACE_FORMAT_CHOICES = ["auto", "otlp", "inspect", "langsmith", "langfuse"] as const;
export type TraceFormatChoice = (typeof TRACE_FORMAT_CHOICES)[number];

const decoder = new TextDecoder();

/** The parser of each format. */
export const TRACE_PARSERS: Record<TraceFormat, TraceParser> = {
  otlp: parseOtlp,
  inspect: (bytes, name) => parseInspectLog(bytes, name),
  langsmith: (bytes, name) => parseLangSmithExport(decoder.decode(bytes), name),
  langfuse: (bytes, name) => parseLangfuseExport(decoder.decode(bytes), name),
};

/** What a file of each format looks like, for "Expected …" in messages. */
export const TRACE_FORMAT_DESCRIPTIONS: Record<TraceFormat, string> = {
  otlp: "OTLP JSON or JSON lines: one ExportTraceServiceRequest per line, with resourceSpans → scopeSpans → spans",
  inspect: "an Inspect AI eval log: the JSON log (an object with `eval` and `samples`) or the .eval zip",
  langsmith: "a LangSmith run export: runs (with `run_type`) as a JSON array, one run per line, or a single run",
  langfuse: "a Langfuse trace export: traces with their `observations` (as GET /api/public/traces/{id} returns them) as a JSON array, one per line, or a single trace",
};

/**
 * A file that could not be read in the format asked for or sniffed, or whose format could not be
 * told: naming another format may help, so each caller adds how to name it (the CLI `--format`, the
 * UI its format picker); the message itself only says "name the format".
 */
export class TraceFormatError extends AppError {
  /** Marks the error across copies of this module (Next may bundle it into several server chunks, as lib/domain/errors.ts explains). */
  readonly traceFormatMayHelp = true;
}

/** True when `error` is a {@link TraceFormatError} (from any copy of this module): naming another format may help. */
export function isTraceFormatError(error: unknown): error is TraceFormatError {
  return isAppError(error) && (error as { traceFormatMayHelp?: unknown }).traceFormatMayHelp === true;
}

/** The sniffer `auto` uses (lib/importers/external/sniff.ts: the first 64 KB). */
export const sniffTraceFile: (bytes: Uint8Array, name: string) => TraceFormat | null = sniffTraceFormat;

/** True when `bytes` hold nothing but ASCII whitespace (or nothing). */
function isBlank(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
  return true;
}

/**
 * The format to read `bytes` in: `requested` when it names one, else the sniffed format.
 * @throws AppError("invalid-input") saying the file is empty when it holds nothing but whitespace
 *   (whatever the format); TraceFormatError("invalid-input") naming the file and the formats when
 *   `auto` recognises nothing.
 */
export function resolveTraceFormat(bytes: Uint8Array, name: string, requested: TraceFormatChoice): TraceFormat {
  if (isBlank(bytes)) {
    throw new AppError("invalid-input", `${name} is empty${bytes.byteLength > 0 ? " (only whitespace)" : ""}: it holds no traces. Export the traces again — the file may have been cut off, or read before the exporter wrote to it.`);
  }
  if (requested !== "auto") return requested;
  const sniffed = sniffTraceFile(bytes, name);
  if (sniffed) return sniffed;
  throw new TraceFormatError(
    "invalid-input",
    `${name}: could not tell the trace format from its content. Expected OTLP JSON / JSON lines (ExportTraceServiceRequest with resourceSpans), an Inspect AI eval log, or a LangSmith / Langfuse export; name the format it is in (otlp, inspect, langsmith or langfuse).`,
  );
}
