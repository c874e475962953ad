import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { EnvironmentId } from "@/lib/domain/config";
import { runEventSchema, type RunEvent } from "@/lib/domain/events";
import { spansOfBranches, toJsonLines } from "@/lib/otel/export";
import type { BranchLog } from "@/lib/otel/trace-from-log";
import type { ServerContext } from "@/lib/server/app-context";
import { finishedRun, sqliteContext, TEST_SECRETS } from "../bundles/helpers";
import { decodeTraces, startReceiver, type DecodedSpan } from "./receiver";

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

function contextWith(env: Record<string, string>): ServerContext {
  const { context } = sqliteContext({ ...TEST_SECRETS, ...env });
  open.push(async () => {
    await context.workers.stop();
    await context.store.close();
  });
  return context;
}

const kindOf = (span: DecodedSpan) => span.attributes["openinference.span.kind"];
const nanos = (iso: string) => (BigInt(Date.parse(iso)) * 1_000_000n).toString();

/** The checklist of required attributes per OpenInference span kind. */
const REQUIRED: Record<string, string[]> = {
  AGENT: ["session.id", "agent.name", "gen_ai.operation.name", "gen_ai.agent.name", "reflexion.run_id", "reflexion.branch_id", "metadata"],
  CHAIN: ["gen_ai.operation.name", "reflexion.trial", "reflexion.outcome", "output.value"],
  LLM: [
    "llm.model_name",
    "llm.provider",
    "llm.token_count.prompt",
    "llm.token_count.completion",
    "llm.input_messages.0.message.role",
    "llm.input_messages.0.message.content",
    "llm.output_messages.0.message.content",
    "gen_ai.operation.name",
    "gen_ai.request.model",
    "gen_ai.usage.input_tokens",
    "gen_ai.usage.output_tokens",
    "gen_ai.input.messages",
    "gen_ai.output.messages",
    "reflexion.source",
    "reflexion.role",
  ],
  TOOL: ["tool.name", "input.value", "output.value", "gen_ai.operation.name", "gen_ai.tool.name"],
  EVALUATOR: ["output.value", "gen_ai.evaluation.name", "gen_ai.evaluation.score.value", "gen_ai.evaluation.score.label"],
};

function checkTree(spans: DecodedSpan[], events: RunEvent[], environment: EnvironmentId) {
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
  const roots = spans.filter((span) => span.parentSpanId === "");
  expect(roots.map(kindOf)).toEqual(["AGENT"]);
  for (const span of spans) {
    if (span.parentSpanId !== "") expect(byId.has(span.parentSpanId), `${span.name}'s parent is in the trace`).toBe(true);
    for (const key of REQUIRED[String(kindOf(span))] ?? ["missing kind"]) expect(span.attributes[key], `${span.name}: ${key}`).not.toBeUndefined();
  }
  const count = (type: RunEvent["type"]) => events.filter((event) => event.type === type).length;
  const ofKind = (kind: string) => spans.filter((span) => kindOf(span) === kind);
  const root = roots[0];
  if (!root) throw new Error("no root");
  expect(ofKind("CHAIN")).toHaveLength(count("trial-start"));
  for (const chain of ofKind("CHAIN")) expect(chain.parentSpanId).toBe(root.spanId);
  expect(ofKind("LLM")).toHaveLength(count("model-call-end"));
  for (const llm of ofKind("LLM")) expect(kindOf(byId.get(llm.parentSpanId) ?? llm)).toBe("CHAIN");
  expect(ofKind("LLM").filter((llm) => llm.attributes["reflexion.reflection"] === true)).toHaveLength(count("reflection-end"));
  const hidden = environment === "code" ? count("evaluation-end") : 0;
  expect(ofKind("TOOL")).toHaveLength(count("step-action") + hidden);
  const evaluators = ofKind("EVALUATOR");
  expect(evaluators).toHaveLength(count("evaluation-end"));
  for (const evaluator of evaluators) {
    expect(evaluator.events.map((event) => event.name)).toEqual(["gen_ai.evaluation.result"]);
    expect(evaluator.events[0]?.attributes["gen_ai.evaluation.score.value"]).toEqual(expect.any(Number));
  }
  const start = events[0];
  const end = events.at(-1);
  if (!start || !end) throw new Error("no events");
  expect(root.startTimeUnixNano).toBe(nanos(start.occurredAt));
  expect(root.endTimeUnixNano).toBe(nanos(end.occurredAt));
}

describe("OTLP export: the exporter's protobuf, received on 127.0.0.1 and decoded with OpenTelemetry's definitions", () => {
  for (const environment of ["qa", "household", "code"] satisfies EnvironmentId[]) {
    it(`a ${environment} run: span tree, kinds, required attributes per kind, recorded times, auth header, no secrets`, async () => {
      const receiver = await startReceiver();
      open.push(receiver.close);
      const context = contextWith({ REFLEXION_OTLP_ENDPOINT: receiver.url, REFLEXION_OTLP_HEADERS: "Authorization=Basic%20cGs6c2s=,x-langfuse-ingestion-version=4" });
      const run = await finishedRun(context, environment);
      const sent = await context.otlp.send(run.id);
      expect(sent.requests).toBe(1);
      expect(receiver.requests).toHaveLength(1);
      const request = receiver.requests[0];
      if (!request) throw new Error("nothing received");
      expect(request.path).toBe("/v1/traces");
      expect(request.headers["content-type"]).toBe("application/x-protobuf");
      expect(request.headers.authorization).toBe("Basic cGs6c2s=");
      expect(request.headers["x-langfuse-ingestion-version"]).toBe("4");
      for (const secret of Object.values(TEST_SECRETS)) expect(request.body.includes(Buffer.from(secret))).toBe(false);

      const decoded = decodeTraces(request.body);
      expect(decoded.resource["service.name"]).toBe("reflexion-playground");
      expect(decoded.scope).toBe("reflexion-playground.event-log");
      const events = (await context.service.events(run.id)).events;
      checkTree(decoded.spans, events, environment);
      expect(new Set(decoded.spans.filter((span) => kindOf(span) === "LLM").map((span) => span.attributes["reflexion.source"]))).toEqual(new Set(["live"]));

      // Deterministic ids: a second export sends the same trace and span ids.
      await context.otlp.send(run.id);
      const again = decodeTraces(receiver.requests[1]?.body ?? Buffer.alloc(0));
      expect(again.spans.map((span) => `${span.traceId}/${span.spanId}`)).toEqual(decoded.spans.map((span) => `${span.traceId}/${span.spanId}`));
    });
  }

  it("a recorded replay exports as its own trace, served from the cache, linked to the branch it forked from", async () => {
    const receiver = await startReceiver();
    open.push(receiver.close);
    const context = contextWith({ REFLEXION_OTLP_ENDPOINT: receiver.url });
    const run = await finishedRun(context, "qa");
    const { branchId } = await context.service.fork(run.id, { atSeq: 1, replay: "recorded" });
    await context.workers.untilSettled(branchId);
    await context.otlp.send(run.id);
    expect(receiver.requests).toHaveLength(2);
    const [original, replay] = receiver.requests.map((request) => decodeTraces(request.body));
    if (!original || !replay) throw new Error("two traces expected");
    const llm = replay.spans.filter((span) => kindOf(span) === "LLM");
    expect(llm.length).toBeGreaterThan(0);
    expect(new Set(llm.map((span) => span.attributes["reflexion.source"]))).toEqual(new Set(["cache"]));
    const root = replay.spans.find((span) => span.parentSpanId === "");
    const originalRoot = original.spans.find((span) => span.parentSpanId === "");
    expect(root?.links).toEqual([{ traceId: originalRoot?.traceId, spanId: originalRoot?.spanId }]);
    expect(root?.attributes["reflexion.parent_branch_id"]).toBe(run.rootBranchId);
  });

  it("without an endpoint, sending says what to set", async () => {
    const context = contextWith({});
    const run = await finishedRun(context, "qa");
    await expect(context.otlp.send(run.id)).rejects.toThrow(/REFLEXION_OTLP_ENDPOINT/);
  });
});

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const GOLDEN = path.join(__dirname, "golden");

/** The logs with a fixed clock: ids renamed in order of appearance, event i at 2026-01-01T00:00:i s, every call 100 ms, every sandbox job 50 ms. */
function normalised(logs: BranchLog[]): BranchLog[] {
  const names = new Map<string, string>();
  const text = JSON.stringify(logs).replace(UUID, (id) => {
    if (!names.has(id)) names.set(id, `00000000-0000-4000-8000-${String(names.size).padStart(12, "0")}`);
    return names.get(id) ?? id;
  });
  const base = Date.parse("2026-01-01T00:00:00.000Z");
  const parsed: BranchLog[] = logs.map((log, index) => ({ ...log, ...z.object({ runId: z.string(), branchId: z.string(), parentBranchId: z.string().nullable(), sessionId: z.string(), events: z.array(runEventSchema) }).parse(JSON.parse(text)[index]) }));
  return parsed.map((log) => ({
    ...log,
    events: log.events.map((event, index) => {
      const data: Record<string, unknown> = { ...event.data };
      if ("latencyMs" in data) data.latencyMs = 100;
      if (event.type === "evaluation-end" && event.data.hiddenTests) data.hiddenTests = { ...event.data.hiddenTests, durationMs: 50 };
      return runEventSchema.parse({ ...event, occurredAt: new Date(base + (index + 1) * 1000).toISOString(), data });
    }),
  }));
}

describe("OTLP JSON lines: golden files (deterministic ids and a fixed clock)", () => {
  for (const environment of ["qa", "household", "code"] satisfies EnvironmentId[]) {
    it(`${environment}: the JSON lines equal tests/otel/golden/${environment}.jsonl`, async () => {
      const context = contextWith({});
      const run = await finishedRun(context, environment);
      const lines = toJsonLines(spansOfBranches(normalised(await context.otlp.branchLogs(run.id)), "0.0.0-golden"));
      const file = path.join(GOLDEN, `${environment}.jsonl`);
      if (process.env.UPDATE_GOLDEN === "1") fs.writeFileSync(file, lines);
      expect(lines).toBe(fs.readFileSync(file, "utf8"));
      // Each line is one ExportTraceServiceRequest in the OTLP JSON encoding (hex ids).
      const first = JSON.parse(lines.split("\n")[0] ?? "{}");
      expect(first.resourceSpans[0].scopeSpans[0].spans[0].traceId).toMatch(/^[0-9a-f]{32}$/);
      // The file sink of the service gives the same spans, with the run's real times.
      expect((await context.otlp.jsonLines(run.id)).split("\n").filter(Boolean)).toHaveLength(1);
    });
  }
});
