import { AppError } from "@/lib/domain/errors";
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

/** The sniffer `auto` uses (lib/importers/external/sniff.ts: the first 64 KB). */
export const sniffTraceFile: (bytes: Uint8Array, name: string) => TraceFormat | null = sniffTraceFormat;

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
