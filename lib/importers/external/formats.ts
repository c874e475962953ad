import { AppError } from "@/lib/domain/errors";
import type { ParsedTraces, TraceFormat } from "./external-trace";
import { parseOtlp, type OwnExportTrace } from "./otlp-parser";

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

const notYet = (format: string): TraceParser => () => {
  throw new AppError("invalid-input", `Importing ${format} traces is not available yet in this build; OTLP JSON / JSON lines are (--format otlp).`);
};

/** The parser of each format. */
export const TRACE_PARSERS: Record<TraceFormat, TraceParser> = {
  otlp: parseOtlp,
  inspect: notYet("Inspect AI eval logs"),
  langsmith: notYet("LangSmith exports"),
  langfuse: notYet("Langfuse exports"),
};

/**
 * Recognises OTLP by its first bytes: a JSON object whose start names `resourceSpans`. Stands in
 * for the sniffer of every format (lib/importers/external/sniff.ts) where that is not wired.
 */
export function sniffOtlp(bytes: Uint8Array): TraceFormat | null {
  const head = new TextDecoder().decode(bytes.subarray(0, 4096)).trimStart();
  return head.startsWith("{") && head.includes('"resourceSpans"') ? "otlp" : null;
}

/** The sniffer `auto` uses. */
export const sniffTraceFile: (bytes: Uint8Array, name: string) => TraceFormat | null = sniffOtlp;

/**
 * The format to read `bytes` in: `requested` when it names one, else the sniffed format.
 * @throws AppError("invalid-input") naming the file and the formats when `auto` recognises nothing.
 */
export function resolveTraceFormat(bytes: Uint8Array, name: string, requested: TraceFormatChoice): TraceFormat {
  if (requested !== "auto") return requested;
  const sniffed = sniffTraceFile(bytes, name);
  if (sniffed) return sniffed;
  throw new AppError(
    "invalid-input",
    `${name}: could not tell the trace format from its content. Expected OTLP JSON / JSON lines (ExportTraceServiceRequest with resourceSpans), an Inspect AI eval log, or a LangSmith / Langfuse export; name it with format (--format otlp|inspect|langsmith|langfuse).`,
  );
}
