/**
 * OTLP JSON spans as plain records (the protobuf JSON mapping of `ExportTraceServiceRequest`,
 * opentelemetry-proto `trace/v1`): ids as hex strings, times as nanosecond strings or numbers,
 * attribute values as `AnyValue` (`stringValue`, `intValue`, `doubleValue`, `boolValue`,
 * `arrayValue`, `kvlistValue`, `bytesValue`). Pure reading: no convention is applied here.
 */

/** An attribute value read from `AnyValue`: arrays and key-value lists become arrays and objects. */
export type AttributeValue = string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue };

/** One span event (e.g. `gen_ai.evaluation.result`). */
export interface OtlpSpanEvent {
  name: string;
  /** Epoch ms, or null when the event has no time. */
  timeMs: number | null;
  attributes: Record<string, AttributeValue>;
}

/** One span with its resource's and scope's names, as the file held it. */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  /** Null for a root span (absent or empty `parentSpanId`). */
  parentSpanId: string | null;
  name: string;
  /** OTLP SpanKind number (0 unspecified … 5 consumer). */
  kind: number;
  /** Epoch ms (fractional: nanosecond precision kept as far as a double holds it). */
  startMs: number;
  endMs: number;
  attributes: Record<string, AttributeValue>;
  events: OtlpSpanEvent[];
  /** OTLP status code (0 unset, 1 ok, 2 error) and message. */
  status: { code: number; message: string };
  /** The instrumentation scope's name (`reflexion-playground.event-log` for this app's own export). */
  scope: string;
  /** The resource's attributes (service.name, …). */
  resource: Record<string, AttributeValue>;
  /** 1-based line of the file the span came from. */
  line: number;
}

type Json = unknown;

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An OTLP `AnyValue` as a plain value; an unknown shape is kept as its JSON. */
export function anyValue(value: Json): AttributeValue {
  if (!isObject(value)) return null;
  if ("stringValue" in value) return typeof value.stringValue === "string" ? value.stringValue : String(value.stringValue);
  if ("boolValue" in value) return value.boolValue === true || value.boolValue === "true";
  if ("intValue" in value) return Number(value.intValue);
  if ("doubleValue" in value) return Number(value.doubleValue);
  if ("bytesValue" in value) return typeof value.bytesValue === "string" ? value.bytesValue : null;
  if ("arrayValue" in value) {
    const values = isObject(value.arrayValue) && Array.isArray(value.arrayValue.values) ? value.arrayValue.values : [];
    return values.map(anyValue);
  }
  if ("kvlistValue" in value) return attributesOf(isObject(value.kvlistValue) ? value.kvlistValue.values : []);
  return null;
}

/** `[{ key, value }]` as a record; entries without a string key are skipped (they name nothing). */
export function attributesOf(list: Json): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  if (!Array.isArray(list)) return out;
  for (const entry of list) {
    if (isObject(entry) && typeof entry.key === "string") out[entry.key] = anyValue(entry.value);
  }
  return out;
}

/** Nanoseconds (string or number) as epoch ms; null when absent or not a number. */
function nanosToMs(value: Json): number | null {
  if (value === undefined || value === null || value === "") return null;
  if (typeof value === "string" && /^\d+$/.test(value)) {
    // Split so the integer part stays exact: ns strings exceed 2^53.
    const ms = value.length > 6 ? Number(value.slice(0, -6)) + Number(value.slice(-6)) / 1e6 : Number(value) / 1e6;
    return Number.isFinite(ms) ? ms : null;
  }
  const number = Number(value);
  return Number.isFinite(number) ? number / 1e6 : null;
}

/** An id as hex: the JSON mapping writes hex strings; an empty string is no id. */
function idOf(value: Json): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim().toLowerCase() : null;
}

/** What reading one request gave: its spans and the problems of spans that could not be read. */
export interface RequestSpans {
  spans: OtlpSpan[];
  problems: Array<{ where: string; message: string }>;
}

/**
 * The spans of one `ExportTraceServiceRequest` (parsed JSON) found on `line`.
 * @returns null when `request` is not one (no `resourceSpans` array); a span without a trace id,
 *   span id or start time is a problem, never a thrown error.
 */
export function spansOfRequest(request: Json, line: number): RequestSpans | null {
  if (!isObject(request) || !Array.isArray(request.resourceSpans)) return null;
  const spans: OtlpSpan[] = [];
  const problems: RequestSpans["problems"] = [];
  for (const resourceSpans of request.resourceSpans) {
    if (!isObject(resourceSpans)) continue;
    const resource = attributesOf(isObject(resourceSpans.resource) ? resourceSpans.resource.attributes : []);
    const scopeSpansList = Array.isArray(resourceSpans.scopeSpans) ? resourceSpans.scopeSpans : Array.isArray(resourceSpans.instrumentationLibrarySpans) ? resourceSpans.instrumentationLibrarySpans : [];
    for (const scopeSpans of scopeSpansList) {
      if (!isObject(scopeSpans) || !Array.isArray(scopeSpans.spans)) continue;
      const scopeRecord = isObject(scopeSpans.scope) ? scopeSpans.scope : isObject(scopeSpans.instrumentationLibrary) ? scopeSpans.instrumentationLibrary : {};
      const scope = typeof scopeRecord.name === "string" ? scopeRecord.name : "";
      for (const raw of scopeSpans.spans) {
        const span = spanOf(raw, { scope, resource, line });
        if (typeof span === "string") problems.push({ where: `line ${line}`, message: span });
        else spans.push(span);
      }
    }
  }
  return { spans, problems };
}

function spanOf(raw: Json, context: { scope: string; resource: Record<string, AttributeValue>; line: number }): OtlpSpan | string {
  if (!isObject(raw)) return "a span that is not a JSON object; skipped.";
  const name = typeof raw.name === "string" ? raw.name : "";
  const traceId = idOf(raw.traceId);
  const spanId = idOf(raw.spanId);
  const label = `span ${name ? `"${name}"` : "(no name)"}${spanId ? ` ${spanId}` : ""}`;
  if (!traceId || !spanId) return `${label} has no ${traceId ? "spanId" : "traceId"}; skipped (every OTLP span needs both).`;
  const startMs = nanosToMs(raw.startTimeUnixNano);
  if (startMs === null) return `${label} has no startTimeUnixNano; skipped.`;
  const endMs = nanosToMs(raw.endTimeUnixNano) ?? startMs;
  const status = isObject(raw.status) ? raw.status : {};
  const events = Array.isArray(raw.events)
    ? raw.events.filter(isObject).map((event) => ({ name: typeof event.name === "string" ? event.name : "", timeMs: nanosToMs(event.timeUnixNano), attributes: attributesOf(event.attributes) }))
    : [];
  return {
    traceId,
    spanId,
    parentSpanId: idOf(raw.parentSpanId),
    name,
    kind: typeof raw.kind === "number" ? raw.kind : Number(raw.kind ?? 0) || 0,
    startMs,
    endMs: Math.max(startMs, endMs),
    attributes: attributesOf(raw.attributes),
    events,
    status: { code: Number(status.code ?? 0) || 0, message: typeof status.message === "string" ? status.message : "" },
    scope: context.scope,
    resource: context.resource,
    line: context.line,
  };
}
