import { afterEach, describe, expect, it } from "vitest";
import type { ServerContext } from "@/lib/server/app-context";
import { familyDescriptor } from "@/lib/environments/descriptors";
import { finishedRun, outcomes, sqliteContext } from "../../bundles/helpers";

/**
 * The playground's own OTLP export (`cli export-otlp`, scope `reflexion-playground.event-log`)
 * imports back as the run it came from: exporting the imported run gives the same spans, up to
 * what legitimately differs (EXCLUDED below).
 */

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

function context(): ServerContext {
  const { context } = sqliteContext();
  open.push(async () => {
    await context.workers.stop();
    await context.store.close();
  });
  return context;
}

/**
 * What the comparison leaves out, and why:
 * - `traceId`, `spanId`, `parentSpanId`: hashes of the run and branch ids (lib/otel/span-ids.ts), which are new on import;
 * - `reflexion.run_id`, `reflexion.branch_id`, `reflexion.event_id`: the new run's, branch's and events' ids;
 * - `session.id` / `gen_ai.conversation.id` when they were the run's id (a run outside an experiment: no cache scope);
 * - the `branch` of the agent span's `metadata` JSON (the new branch id).
 * Everything else — names, kinds, times, every other attribute, span events, status — must be equal.
 */
const ID_ATTRIBUTES = ["reflexion.run_id", "reflexion.branch_id", "reflexion.event_id"];

interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Array<{ key: string; value: unknown }>;
  [key: string]: unknown;
}

function comparable(line: string, runId: string): unknown[] {
  const request = JSON.parse(line) as { resourceSpans: Array<{ resource: unknown; scopeSpans: Array<{ scope: unknown; spans: JsonSpan[] }> }> };
  const spans = request.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => ({ span, scope: scope.scope, resource: resource.resource }))));
  const names = new Map(spans.map(({ span }) => [span.spanId, span.name]));
  return spans.map(({ span, scope, resource }) => {
    const { traceId: _trace, spanId: _span, parentSpanId, attributes, ...rest } = span;
    const kept = attributes
      .filter((attribute) => !ID_ATTRIBUTES.includes(attribute.key))
      .filter((attribute) => !((attribute.key === "session.id" || attribute.key === "gen_ai.conversation.id") && JSON.stringify(attribute.value) === JSON.stringify({ stringValue: runId })))
      .map((attribute) => {
        if (attribute.key !== "metadata" || !span.name.startsWith("invoke_agent")) return attribute;
        const { branch: _branch, ...metadata } = JSON.parse((attribute.value as { stringValue: string }).stringValue) as Record<string, unknown>;
        return { key: "metadata", value: metadata };
      });
    return { ...rest, parent: parentSpanId ? names.get(parentSpanId) : null, attributes: kept, scope, resource };
  });
}

describe("re-importing the playground's own OTLP export", () => {
  it.each(["qa", "household", "code"] as const)("rebuilds a demo %s Reflexion run (trials, steps, model calls, verdicts, reflections) so that its export equals the original up to ids", async (family) => {
    const ctx = context();
    const run = await finishedRun(ctx, family);
    const original = await ctx.otlp.jsonLines(run.id);
    const originalEvents = await ctx.store.list(run.id, run.rootBranchId);
    expect(originalEvents.filter((event) => event.type === "reflection-end").length).toBeGreaterThan(0);

    const imported = await ctx.traceImports.importFile({ name: "qa-run.otlp.jsonl", bytes: new TextEncoder().encode(original), format: "auto" });
    expect(imported).toMatchObject({ format: "otlp", traces: 1, problems: [], reused: false });
    const [runId] = imported.runIds;
    const importedRun = await ctx.store.getRun(runId as never);
    expect(importedRun?.config).toMatchObject({ environment: family, taskId: run.config.taskId, strategy: "reflexion", provenance: { kind: "external-trace", recordedBy: "agent", traceFormat: "otlp" } });
    const events = await ctx.store.list(importedRun!.id, importedRun!.rootBranchId);
    // The same trajectory, verdicts and reflections as the original log.
    expect(outcomes(events)).toEqual(outcomes(originalEvents));

    const again = await ctx.otlp.jsonLines(importedRun!.id);
    const [before] = original.split("\n").filter(Boolean);
    const [after] = again.split("\n").filter(Boolean);
    const expected = comparable(before!, run.id);
    // One AGENT, a CHAIN per trial, an LLM per call, a TOOL per action, an EVALUATOR per verdict (and a hidden-tests TOOL per code verdict).
    const count = (type: string) => originalEvents.filter((event) => event.type === type).length;
    expect(expected.length).toBe(1 + count("trial-start") + count("model-call-end") + count("step-action") + count("evaluation-end") * (familyDescriptor(family).hiddenTests ? 2 : 1));
    expect(comparable(after!, importedRun!.id)).toEqual(expected);
  });

  it("reports a fork branch's trace as a problem instead of importing half a run", async () => {
    const ctx = context();
    const run = await finishedRun(ctx, "qa");
    const { branchId } = await ctx.service.fork(run.id, { atSeq: 1, replay: "recorded" });
    await ctx.workers.untilSettled(branchId);
    const lines = (await ctx.otlp.jsonLines(run.id)).split("\n").filter(Boolean);
    expect(lines).toHaveLength(2);
    const imported = await ctx.traceImports.importFile({ name: "forked.jsonl", bytes: new TextEncoder().encode(lines.join("\n")), format: "otlp" });
    expect(imported.traces).toBe(1);
    expect(imported.problems.map((problem) => problem.message)).toEqual([expect.stringMatching(/a fork branch .* only root branches are imported/)]);
  });
});
