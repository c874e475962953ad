import http from "node:http";
import root from "otlp-transformer-protobuf-root/build/src/generated/root.js";
import { z } from "zod";

/**
 * A tiny OTLP/HTTP receiver on 127.0.0.1 for tests: it keeps each POST's headers and
 * body, answers 200 with an empty ExportTraceServiceResponse, and decodes bodies with
 * OpenTelemetry's own generated protobuf definitions (the otlp-transformer's `root`).
 */
export interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export async function startReceiver(): Promise<{ url: string; requests: ReceivedRequest[]; close: () => Promise<void> }> {
  const requests: ReceivedRequest[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      requests.push({ path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(200, { "content-type": "application/x-protobuf" });
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the receiver has no TCP port");
  const { port } = address;
  return { url: `http://127.0.0.1:${port}/v1/traces`, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A decoded span, with hex ids and flattened attributes. */
export interface DecodedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Record<string, unknown>;
  events: Array<{ name: string; attributes: Record<string, unknown> }>;
  links: Array<{ traceId: string; spanId: string }>;
  status: { code?: number; message?: string };
}

type AnyValue = { stringValue?: string; boolValue?: boolean; intValue?: string; doubleValue?: number; arrayValue?: { values?: AnyValue[] } };
const anyValueSchema: z.ZodType<AnyValue> = z.lazy(() =>
  z.object({
    stringValue: z.string().optional(),
    boolValue: z.boolean().optional(),
    intValue: z.string().optional(),
    doubleValue: z.number().optional(),
    arrayValue: z.object({ values: z.array(anyValueSchema).optional() }).optional(),
  }),
);
const keyValuesSchema = z.array(z.object({ key: z.string(), value: anyValueSchema.optional() })).optional();
const rawSpanSchema = z.object({
  traceId: z.string().optional(),
  spanId: z.string().optional(),
  parentSpanId: z.string().optional(),
  name: z.string(),
  kind: z.number().optional(),
  startTimeUnixNano: z.string(),
  endTimeUnixNano: z.string(),
  attributes: keyValuesSchema,
  events: z.array(z.object({ name: z.string(), attributes: keyValuesSchema })).optional(),
  links: z.array(z.object({ traceId: z.string().optional(), spanId: z.string().optional() })).optional(),
  status: z.object({ code: z.number().optional(), message: z.string().optional() }).optional(),
});
const requestSchema = z.object({
  resourceSpans: z
    .array(
      z.object({
        resource: z.object({ attributes: keyValuesSchema }).optional(),
        scopeSpans: z.array(z.object({ scope: z.object({ name: z.string().optional() }).optional(), spans: z.array(rawSpanSchema).optional() })).optional(),
      }),
    )
    .optional(),
});

function valueOf(value: AnyValue | undefined): unknown {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}

function attributesOf(list: z.infer<typeof keyValuesSchema>): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, valueOf(entry.value)]));
}

function member(value: unknown, key: string): unknown {
  return (typeof value === "object" || typeof value === "function") && value !== null ? Reflect.get(value, key) : undefined;
}

const hex = (base64: string | undefined) => Buffer.from(base64 ?? "", "base64").toString("hex");

/** Decodes one ExportTraceServiceRequest body (protobuf) into its resource attributes, scope name and spans. */
export function decodeTraces(body: Buffer): { resource: Record<string, unknown>; scope: string; spans: DecodedSpan[] } {
  // The generated root is static code: its message classes hang off nested namespaces the .d.ts does not type.
  const codec = ["opentelemetry", "proto", "collector", "trace", "v1", "ExportTraceServiceRequest"].reduce<unknown>(member, root);
  const decode = member(codec, "decode");
  const toObject = member(codec, "toObject");
  if (typeof decode !== "function" || typeof toObject !== "function") throw new Error("ExportTraceServiceRequest is missing from the generated protobuf root");
  const message = requestSchema.parse(Reflect.apply(toObject, codec, [Reflect.apply(decode, codec, [body]), { longs: String, bytes: String, defaults: false }]));
  const resourceSpans = message.resourceSpans ?? [];
  const first = resourceSpans[0];
  const spans = resourceSpans.flatMap((entry) =>
    (entry.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: hex(span.traceId),
        spanId: hex(span.spanId),
        parentSpanId: hex(span.parentSpanId),
        name: span.name,
        kind: span.kind ?? 0,
        startTimeUnixNano: span.startTimeUnixNano,
        endTimeUnixNano: span.endTimeUnixNano,
        attributes: attributesOf(span.attributes),
        events: (span.events ?? []).map((event) => ({ name: event.name, attributes: attributesOf(event.attributes) })),
        links: (span.links ?? []).map((link) => ({ traceId: hex(link.traceId), spanId: hex(link.spanId) })),
        status: span.status ?? {},
      })),
    ),
  );
  return { resource: attributesOf(first?.resource?.attributes), scope: first?.scopeSpans?.[0]?.scope?.name ?? "", spans };
}
