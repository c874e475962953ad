import type { TraceFormat } from "./external-trace";
import { isZip } from "./inspect-parser";

/**
 * Guessing a trace file's format from its first {@link SNIFF_BYTES} bytes (the file may be larger than
 * memory allows to parse twice, and a JSON document cut there does not parse, so the sniffer looks for
 * the formats' distinctive keys in the text rather than parsing it):
 *
 * 1. a zip (`PK\x03\x04`, the `.eval` recorder's own check) → `inspect`;
 * 2. `"resourceSpans"` (OTLP JSON's `ExportTraceServiceRequest`) → `otlp`;
 * 3. `"eval"` together with `"samples"`, `"status"` or `"version"` at the start of an object, or a
 *    `"task_id"` / `"eval_id"` key → `inspect`;
 * 4. `"observations"` or `"parentObservationId"` (a Langfuse trace / observation) → `langfuse` (before
 *    LangSmith: Langfuse's LangChain integration may copy `run_type` into observation metadata);
 * 5. `"run_type"` (a LangSmith run) or `"dotted_order"` → `langsmith`;
 * 6. `"traceId"` with `"type": "GENERATION"` (or another Langfuse observation type) or `"dataType"`
 *    (bare Langfuse observations or scores) → `langfuse`;
 * otherwise null (the caller asks for an explicit format).
 */

/** How much of a file the sniffer reads. */
export const SNIFF_BYTES = 64 * 1024;

const LANGFUSE_TYPES = /"type"\s*:\s*"(GENERATION|SPAN|EVENT|AGENT|TOOL|CHAIN|RETRIEVER|EVALUATOR|EMBEDDING|GUARDRAIL)"/;

/** The format of a trace file, or null when none of the rules above match. `name` breaks no ties but `.eval`. */
export function sniffTraceFormat(bytes: Uint8Array, name: string): TraceFormat | null {
  if (isZip(bytes)) return "inspect";
  const head = new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(0, SNIFF_BYTES));
  const text = head.replace(/^\uFEFF/, "").trimStart();
  if (!text.startsWith("{") && !text.startsWith("[")) return name.toLowerCase().endsWith(".eval") ? "inspect" : null;
  const has = (key: string) => new RegExp(`"${key}"\\s*:`).test(text);
  if (has("resourceSpans")) return "otlp";
  if (has("eval") && (has("samples") || has("status") || has("version") || has("plan"))) return "inspect";
  if (has("task_id") && has("eval_id")) return "inspect";
  if (has("observations") || has("parentObservationId")) return "langfuse";
  if (has("run_type") || has("dotted_order")) return "langsmith";
  if (has("traceId") && (LANGFUSE_TYPES.test(text) || has("dataType"))) return "langfuse";
  return null;
}
