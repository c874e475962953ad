import { randomUUID } from "node:crypto";
import { SemanticConventions as OI, OpenInferenceSpanKind } from "@arizeai/openinference-semantic-conventions";
import { runConfigSchema, type ModelSettings, type RunConfig } from "@/lib/domain/config";
import type { ChatMessage } from "@/lib/domain/events";
import type { CallId } from "@/lib/domain/ids";
import type { Provenance } from "@/lib/domain/provenance";
import { cleanReflection } from "@/lib/engine/prompts";
import { findFamilyDescriptor } from "@/lib/environments/descriptors";
import { environmentEntry } from "@/lib/environments/registry";
import type { ImportedRunInput } from "@/lib/db/store";
import { OTEL_SCOPE_NAME } from "@/lib/otel/export";
import { REFLEXION_ATTR } from "@/lib/otel/attributes";
import { RunLogBuilder } from "../run-log-builder";
import type { TraceProblem } from "./external-trace";
import type { AttributeValue, OtlpSpan } from "./otlp-spans";

/**
 * This app's own OTLP export (`cli export-otlp`, scope `reflexion-playground.event-log`,
 * lib/otel/trace-from-log.ts) read back as the run it came from. It does not go through
 * ExternalTrace: the `reflexion.*` attributes name every event the spans were built from (trials,
 * outcomes, roles, steps, the reflection call), so the events are rebuilt directly, in the
 * engine's order, at the recorded times, under the run's own family. Exporting the imported run
 * gives the same spans up to what the export does not carry (docs: trace import, "round trip").
 *
 * What an export does not carry, so the imported run does not have it either: the task's content
 * (a recorded-only stand-in `{ id, recordedOnly: true }` takes its place, so the run cannot be
 * forked or re-run), the templates (the family's defaults are recorded), costs and price rows,
 * context-window use, reflection warnings, evaluation details, and the thought text (taken from the
 * Actor call's completion by the family's own reader). Fork branches' traces are not imported.
 */

/** Whether a trace's spans are this app's own export (every span from its event-log scope). */
export function isOwnExport(spans: readonly OtlpSpan[]): boolean {
  return spans.length > 0 && spans.every((span) => span.scope === OTEL_SCOPE_NAME);
}

const str = (value: AttributeValue | undefined): string | null => (typeof value === "string" ? value : value === undefined || value === null ? null : JSON.stringify(value));
const int = (value: AttributeValue | undefined): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);
const iso = (ms: number): string => new Date(Math.round(ms)).toISOString();
const json = (value: AttributeValue | undefined): Record<string, unknown> => {
  try {
    const parsed: unknown = JSON.parse(str(value) ?? "{}");
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

function messagesOf(attributes: Record<string, AttributeValue>): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (let index = 0; ; index += 1) {
    const role = str(attributes[`${OI.LLM_INPUT_MESSAGES}.${index}.${OI.MESSAGE_ROLE}`]);
    if (role === null) break;
    messages.push({ role: role as ChatMessage["role"], content: str(attributes[`${OI.LLM_INPUT_MESSAGES}.${index}.${OI.MESSAGE_CONTENT}`]) ?? "" });
  }
  return messages;
}

function settingsOf(span: OtlpSpan): ModelSettings {
  const a = span.attributes;
  const provider = str(a[OI.LLM_PROVIDER]) ?? "demo";
  const model = str(a[OI.LLM_MODEL_NAME]) ?? "demo";
  const params = json(a[OI.LLM_INVOCATION_PARAMETERS]);
  return {
    modelId: provider === "reflexion-demo" ? model : `${provider}:${model}`,
    temperature: typeof params.temperature === "number" ? params.temperature : 0,
    maxOutputTokens: typeof params.max_tokens === "number" ? params.max_tokens : 256,
  };
}

/** What one own-export trace became: a run, or a problem saying why not. */
export type OwnExportResult = { run: ImportedRunInput; problems: TraceProblem[] } | { run: null; problems: TraceProblem[] };

/** Options: the arm and task set the run joins, and the experiment's provenance. */
export interface OwnExportOptions {
  arm: string;
  provenance: Provenance;
}

/** Rebuilds the run of one own-export trace (one branch). A fork branch's trace, or one whose family is not registered here, is a problem. */
export function mapOwnExport(traceId: string, spans: readonly OtlpSpan[], options: OwnExportOptions): OwnExportResult {
  const where = `trace ${traceId}`;
  const agent = spans.find((span) => span.parentSpanId === null && str(span.attributes[REFLEXION_ATTR.runId]) !== null);
  if (!agent) return { run: null, problems: [{ where, message: "an export of this app with no root AGENT span (reflexion.run_id); not imported." }] };
  const a = agent.attributes;
  if (str(a[REFLEXION_ATTR.parentBranchId]) !== null) {
    return { run: null, problems: [{ where, message: `a fork branch (${str(a[REFLEXION_ATTR.branchId])}) of run ${str(a[REFLEXION_ATTR.runId])}: only root branches are imported; a fork's trace holds only the events after its fork point.` }] };
  }
  const environment = str(a[REFLEXION_ATTR.environment]) ?? "";
  if (!findFamilyDescriptor(environment)) return { run: null, problems: [{ where, message: `task family "${environment}" is not registered in this app; not imported.` }] };
  const family = environmentEntry(environment).family;
  const meta = json(a[OI.METADATA]);
  const ordered = [...spans].sort((x, y) => x.startMs - y.startMs);
  const llm = ordered.filter((span) => str(span.attributes[OI.OPENINFERENCE_SPAN_KIND]) === OpenInferenceSpanKind.LLM);
  const actorSpan = llm.find((span) => str(span.attributes[REFLEXION_ATTR.role]) === "actor" && span.status.code !== 2);
  const reflectorSpan = llm.find((span) => str(span.attributes[REFLEXION_ATTR.role]) === "reflector" && span.status.code !== 2);
  const actor = actorSpan ? settingsOf(actorSpan) : { modelId: "demo", temperature: 0, maxOutputTokens: 256 };
  const strategy = String(meta.strategy ?? str(a[OI.AGENT_NAME]) ?? "reflexion");
  const sessionId = str(a[OI.SESSION_ID]);
  const runId = str(a[REFLEXION_ATTR.runId]);
  const taskId = str(a[REFLEXION_ATTR.taskId]) ?? traceId;
  const tools = ordered.filter((span) => str(span.attributes[OI.OPENINFERENCE_SPAN_KIND]) === OpenInferenceSpanKind.TOOL && int(span.attributes[REFLEXION_ATTR.step]) !== null);
  let config: RunConfig;
  try {
    config = runConfigSchema.parse({
      environment,
      taskSetName: typeof meta.taskSet === "string" ? meta.taskSet : "builtin",
      taskId,
      task: { id: taskId, recordedOnly: true },
      strategy,
      memoryWindow: meta.memoryWindow === undefined ? undefined : meta.memoryWindow,
      maxTrials: typeof meta.maxTrials === "number" ? meta.maxTrials : undefined,
      maxStepsPerTrial: Math.max(family.defaultMaxStepsPerTrial ?? 6, ...tools.map((span) => int(span.attributes[REFLEXION_ATTR.step]) ?? 1)),
      models: { actor, reflector: reflectorSpan ? settingsOf(reflectorSpan) : actor },
      templates: family.templatesFor?.(strategy as RunConfig["strategy"]) ?? family.defaultTemplates,
      seed: typeof meta.seed === "number" ? meta.seed : 0,
      replayMode: meta.replayMode === "recorded" ? "recorded" : "live",
      cacheScope: sessionId !== null && sessionId !== runId ? sessionId : null,
      provenance: { ...options.provenance, traceId, model: actor.modelId },
    });
  } catch (error) {
    return { run: null, problems: [{ where, message: `its run config could not be rebuilt (${error instanceof Error ? error.message : String(error)}); not imported.` }] };
  }
  const builder = new RunLogBuilder(config);
  const trialSpans = ordered.filter((span) => span.parentSpanId === agent.spanId && int(span.attributes[REFLEXION_ATTR.trial]) !== null && str(span.attributes[OI.OPENINFERENCE_SPAN_KIND]) === OpenInferenceSpanKind.CHAIN);
  for (const trialSpan of trialSpans.sort((x, y) => (int(x.attributes[REFLEXION_ATTR.trial]) ?? 0) - (int(y.attributes[REFLEXION_ATTR.trial]) ?? 0))) {
    // The code family's hidden tests are a TOOL span under the trial's EVALUATOR span.
    const children = ordered.filter((span) => span.parentSpanId === trialSpan.spanId);
    const evaluators = new Set(children.filter((span) => kindOf(span) === OpenInferenceSpanKind.EVALUATOR).map((span) => span.spanId));
    const hidden = ordered.filter((span) => span.parentSpanId !== null && evaluators.has(span.parentSpanId));
    rebuildTrial(builder, trialSpan, children, hidden, family.splitCompletion.bind(family), family.parseAction.bind(family), findFamilyDescriptor(environment)?.step.toolPrefix ?? null);
  }
  const outcome = str(a[REFLEXION_ATTR.outcome]);
  builder.at(iso(agent.endMs));
  if (outcome === "success" || outcome === "failure") builder.end(outcome);
  return { run: { config: builder.config, title: str(a[OI.INPUT_VALUE]) ?? `${environment} task ${taskId}`, cell: { taskId, arm: options.arm }, drafts: builder.drafts, startedAt: iso(agent.startMs) }, problems: [] };
}

type Split = (completion: string) => { thought: string };
type Parse = (text: string) => { ok: true; action: { type: string; argument: string } } | { ok: false; error: string };

/** One trial's events from its CHAIN span's children (LLM, TOOL and EVALUATOR spans), in the engine's order and at the recorded times. */
function rebuildTrial(builder: RunLogBuilder, trialSpan: OtlpSpan, children: OtlpSpan[], hidden: OtlpSpan[], split: Split, parse: Parse, toolPrefix: string | null): void {
  builder.at(iso(trialSpan.startMs)).startTrial();
  const outcome = (str(trialSpan.attributes[REFLEXION_ATTR.outcome]) ?? "failure") as "success" | "failure" | "halted";
  const output = str(trialSpan.attributes[OI.OUTPUT_VALUE]) ?? outcome;
  const reason = output.startsWith(`${outcome}: `) ? output.slice(outcome.length + 2) : "";
  // Each span at the time its event was written: an LLM span ends at its model-call-end, a TOOL span starts at its action, an EVALUATOR span ends at its evaluation-end.
  const timeOf = (span: OtlpSpan) => (kindOf(span) === OpenInferenceSpanKind.TOOL ? span.startMs : span.endMs);
  const items = [...children].sort((x, y) => timeOf(x) - timeOf(y));
  let lastActorCall: { callId: string; text: string } | null = null;
  let evaluated = false;
  const tools = items.filter((span) => kindOf(span) === OpenInferenceSpanKind.TOOL);
  for (const span of items) {
    const a = span.attributes;
    const kind = kindOf(span);
    if (kind === OpenInferenceSpanKind.LLM) {
      const role = (str(a[REFLEXION_ATTR.role]) ?? "actor") as "actor" | "reflector" | "evaluator";
      const step = int(a[REFLEXION_ATTR.step]);
      if (span.status.code === 2) {
        builder.at(iso(span.endMs));
        continue;
      }
      const meta = json(a[OI.METADATA]);
      const callId = randomUUID();
      builder.modelCall(
        {
          callId: callId as CallId,
          role,
          step,
          settings: settingsOf(span),
          requestHash: typeof meta.requestHash === "string" ? meta.requestHash : "",
          messages: messagesOf(a),
          outputText: str(a[`${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_CONTENT}`]) ?? str(a[OI.OUTPUT_VALUE]) ?? "",
          usage: { inputTokens: int(a[OI.LLM_TOKEN_COUNT_PROMPT]) ?? 0, outputTokens: int(a[OI.LLM_TOKEN_COUNT_COMPLETION]) ?? 0 },
          costUsd: null,
          price: null,
          latencyMs: Math.max(0, span.endMs - span.startMs),
          finishReason: str(a[OI.LLM_FINISH_REASON]) ?? "stop",
          source: a[REFLEXION_ATTR.source] === "cache" ? "cache" : "live",
          adjustments: [],
          contextUse: null,
        },
        iso(span.endMs),
      );
      const outputText = str(a[`${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_CONTENT}`]) ?? "";
      if (role === "actor" && step !== null) lastActorCall = { callId, text: outputText };
      // The reflection and its checkpoint are the trial's last events: they end its span.
      if (a[REFLEXION_ATTR.reflection] === true) builder.at(iso(Math.max(span.endMs, trialSpan.endMs))).reflect([cleanReflection(outputText)], null, [callId]);
    } else if (kind === OpenInferenceSpanKind.TOOL) {
      const text = str(a[OI.INPUT_VALUE]) ?? "";
      const parsed = parse(text);
      const isLast = span === tools.at(-1);
      const done = isLast && outcome !== "halted" && children.some((child) => kindOf(child) === OpenInferenceSpanKind.EVALUATOR);
      // The verb is the tool's name (`<toolPrefix>.<verb>`): the export's own record of what the action was read as (code's depends on the step).
      const tool = str(a[OI.TOOL_NAME]) ?? "";
      const verb = toolPrefix !== null && tool.startsWith(`${toolPrefix}.`) ? tool.slice(toolPrefix.length + 1) : tool;
      const action = verb === "unparsed-action" || verb === "" ? null : { type: verb, argument: parsed.ok ? parsed.action.argument : text };
      const call = lastActorCall;
      lastActorCall = null;
      builder.step({
        thought: call ? split(call.text).thought : "",
        action: text,
        parsed: action,
        parseError: action ? undefined : parsed.ok ? "Not a valid action (as exported)." : parsed.error,
        observation: str(a[OI.OUTPUT_VALUE]) ?? "",
        done,
        answer: done && action ? action.argument : null,
        callId: call?.callId ?? null,
        times: { thought: iso(span.startMs), action: iso(span.startMs), observation: iso(span.endMs) },
      });
    } else if (kind === OpenInferenceSpanKind.EVALUATOR) {
      const result = json(a[OI.OUTPUT_VALUE]);
      const hiddenSpan = hidden.find((candidate) => candidate.parentSpanId === span.spanId);
      const meta = json(a[OI.METADATA]);
      const reflectionFollows = items.some((item) => item.attributes[REFLEXION_ATTR.reflection] === true);
      builder.at(iso(span.endMs)).endTrial({
        endedAt: reflectionFollows ? undefined : iso(trialSpan.endMs),
        outcome,
        reason,
        evaluation: {
          verdict: result.verdict === "pass" ? "pass" : "fail",
          score: typeof result.score === "number" ? result.score : 0,
          feedback: typeof result.feedback === "string" ? result.feedback : "",
          evaluatorKind: (typeof meta.evaluatorKind === "string" ? meta.evaluatorKind : "exact-match") as "exact-match",
          oracle: meta.oracle === true,
          details: {},
          falsePositive: meta.falsePositive === true,
          hiddenTests: hiddenSpan ? hiddenTestsOf(hiddenSpan) : null,
        },
      });
      evaluated = true;
    }
  }
  if (!evaluated) builder.at(iso(trialSpan.endMs)).endTrialUnjudged(outcome === "halted" ? "halted" : "failure", reason);
}

/** The hidden-test report of a `sandbox.hidden_tests` span (`<verdict>: <passed>/<total> passed`, its duration); the per-test results are not in the export. */
function hiddenTestsOf(span: OtlpSpan) {
  const match = /^(pass|fail): (\d+)\/(\d+) passed$/.exec(str(span.attributes[OI.OUTPUT_VALUE]) ?? "");
  return {
    verdict: (match?.[1] ?? "fail") as "pass" | "fail",
    passed: Number(match?.[2] ?? 0),
    total: Number(match?.[3] ?? 0),
    tests: [],
    durationMs: Math.max(0, span.endMs - span.startMs),
  };
}

function kindOf(span: OtlpSpan): string {
  return str(span.attributes[OI.OPENINFERENCE_SPAN_KIND]) ?? "";
}
