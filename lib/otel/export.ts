import { ExportResultCode } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { reflexionResource, spansOfBranch, type BranchLog } from "./trace-from-log";

/**
 * The two sinks of the OTLP export: OTLP/HTTP **protobuf** to a collector endpoint
 * (Phoenix `…/v1/traces` accepts protobuf only; Langfuse `…/api/public/otel/v1/traces` with its
 * Basic auth header) through the official `@opentelemetry/exporter-trace-otlp-proto`, and an OTLP
 * JSON-lines file (one `ExportTraceServiceRequest` per line, per the OTel file-exporter spec) with
 * `@opentelemetry/otlp-transformer`'s JSON serialiser — no hand-built wire format.
 */

/** The instrumentation scope of the spans: they are built from the event log, not by instrumenting calls. */
export const OTEL_SCOPE_NAME = "reflexion-playground.event-log";

/** Every branch's spans, one trace per branch (lib/otel/trace-from-log.ts). */
export function spansOfBranches(logs: BranchLog[], appVersion: string): ReadableSpan[][] {
  const resource = reflexionResource(appVersion);
  const scope = { name: OTEL_SCOPE_NAME, version: appVersion };
  return logs.map((log) => spansOfBranch(log, resource, scope));
}

/** OTLP JSON lines: one ExportTraceServiceRequest (JSON, hex ids) per trace, each ending in a newline. */
export function toJsonLines(traces: ReadableSpan[][]): string {
  const decoder = new TextDecoder();
  return traces
    .filter((spans) => spans.length > 0)
    .map((spans) => {
      const bytes = JsonTraceSerializer.serializeRequest(spans);
      if (!bytes) throw new Error("The OTLP JSON serialiser returned nothing for a trace.");
      return `${decoder.decode(bytes)}\n`;
    })
    .join("");
}

/** Where to send: the collector's traces URL and the request headers (e.g. Langfuse's `Authorization: Basic …`). */
export interface OtlpTarget {
  url: string;
  headers: Record<string, string>;
  /** Per request, ms (default 10 000). */
  timeoutMillis?: number;
}

/**
 * Sends spans as OTLP/HTTP protobuf with the official exporter (one request per trace) and shuts
 * it down. @throws Error with the collector's answer when an export fails.
 */
export async function sendOtlp(traces: ReadableSpan[][], target: OtlpTarget): Promise<{ spans: number; requests: number }> {
  const exporter = new OTLPTraceExporter({ url: target.url, headers: target.headers, timeoutMillis: target.timeoutMillis ?? 10_000 });
  let spans = 0;
  let requests = 0;
  try {
    for (const trace of traces) {
      if (trace.length === 0) continue;
      await new Promise<void>((resolve, reject) => {
        exporter.export(trace, (result) => {
          if (result.code === ExportResultCode.SUCCESS) resolve();
          else reject(new Error(`The OTLP endpoint refused the spans: ${result.error?.message ?? "unknown error"}`));
        });
      });
      spans += trace.length;
      requests += 1;
    }
  } finally {
    await exporter.shutdown();
  }
  return { spans, requests };
}
