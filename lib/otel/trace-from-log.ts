import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type Link, type SpanContext, type SpanStatus } from "@opentelemetry/api";
import { resourceFromAttributes, type Resource } from "@opentelemetry/resources";
import type { ReadableSpan, TimedEvent } from "@opentelemetry/sdk-trace-base";
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
import { EVENT_GEN_AI_EVALUATION_RESULT } from "@opentelemetry/semantic-conventions/incubating";
import { SEMRESATTRS_PROJECT_NAME } from "@arizeai/openinference-semantic-conventions";
import type { Annotation } from "@/lib/domain/annotations";
import type { RunConfig } from "@/lib/domain/config";
import type { RunEvent, RunEventOf } from "@/lib/domain/events";
import { familyDescriptor } from "@/lib/environments/descriptors";
import { agentAttributes, evaluationResultEventAttributes, evaluatorAttributes, llmAttributes, llmErrorAttributes, toolAttributes, trialAttributes } from "./attributes";
import { annotationSpanEvents } from "./annotation-events";
import { durationOf, hrTimeOf, spanIdOf, traceIdOf } from "./span-ids";

/**
 * OpenTelemetry spans built from a run's event log (shared/docs/scale-and-export.md §5.3),
 * so old runs and fully cached replays export as well as live ones. One trace per branch:
 *
 * - the branch → AGENT span (`invoke_agent <strategy>`), linked to its parent branch's AGENT span;
 * - each trial → CHAIN (`invoke_workflow trial k`), from `trial-start` to its last event (its
 *   evaluation, reflection and checkpoints included);
 * - each `model-call-end` → LLM (`chat <model>`), ending at the event, starting `latencyMs` before;
 *   the Self-Reflection call whose text became the reflection carries `reflexion.reflection = true`;
 *   `model-call-error` → LLM with status ERROR and `error.type`;
 * - each `step-action` + its `step-observation` → TOOL (`execute_tool <verb>`); for code tasks the
 *   observation is the sandbox's internal-test run, and the hidden tests of an evaluation are one
 *   more TOOL (`execute_tool sandbox.hidden_tests`, `durationMs` long);
 * - each `evaluation-end` → EVALUATOR span plus its `gen_ai.evaluation.result` event;
 * - each person's annotation → an `annotation` span event on its node's span (lib/otel/annotation-events.ts).
 *
 * Ids are deterministic (lib/otel/span-ids.ts); times are the recorded `occurredAt` (ms).
 */

/** What a trace is built from: the run's identity and config, one branch and that branch's own events. */
export interface BranchLog {
  runId: string;
  title: string;
  config: RunConfig;
  branchId: string;
  parentBranchId: string | null;
  forkSeq: number | null;
  /** The branch's own events in seq order (not those inherited from its parent). */
  events: RunEvent[];
  /** `session.id`: the experiment (its cache scope) or the run. */
  sessionId: string;
  /** People's annotations this trace carries (lib/otel/annotation-events.ts `annotationsByBranch`); none when absent. */
  annotations?: readonly Annotation[];
}

/** The service the spans come from (`service.name`, Phoenix project). */
export const OTEL_SERVICE_NAME = "reflexion-playground";

/** The resource of every exported span. */
export function reflexionResource(appVersion: string): Resource {
  return resourceFromAttributes({ [ATTR_SERVICE_NAME]: OTEL_SERVICE_NAME, [ATTR_SERVICE_VERSION]: appVersion, [SEMRESATTRS_PROJECT_NAME]: OTEL_SERVICE_NAME });
}

interface Draft {
  key: string;
  parentKey: string | null;
  name: string;
  kind: SpanKind;
  startMs: number;
  endMs: number;
  attributes: Attributes;
  status?: SpanStatus;
  events?: TimedEvent[];
  links?: Link[];
}

const ms = (event: RunEvent): number => Date.parse(event.occurredAt);

function trialOf(event: RunEvent): number | null {
  const data: object = event.data;
  return "trial" in data && typeof data.trial === "number" ? data.trial : null;
}

function toolName(config: RunConfig, action: RunEventOf<"step-action">): { tool: string; description: string } {
  const verb = action.data.action?.type ?? "unparsed-action";
  const { toolPrefix, toolDescription } = familyDescriptor(config.environment).step;
  return { tool: toolPrefix === null ? verb : `${toolPrefix}.${verb}`, description: toolDescription ?? `${config.environment} environment action` };
}

/** The spans of one branch's trace, parents before children, in a stable order. */
export function spansOfBranch(log: BranchLog, resource: Resource, scope: { name: string; version: string }): ReadableSpan[] {
  const { events, config } = log;
  const first = events[0];
  if (!first) return [];
  const end = events.reduce((latest, event) => Math.max(latest, ms(event)), ms(first));
  const runEnd = events.find((event): event is RunEventOf<"run-end"> => event.type === "run-end");
  const reflectionCalls = new Set(events.flatMap((event) => (event.type === "reflection-end" ? [event.data.callId] : [])));
  const drafts: Draft[] = [];
  const links: Link[] = [];
  if (log.parentBranchId !== null) {
    links.push({ context: contextOf(log.runId, log.parentBranchId, "agent"), attributes: { "reflexion.link": "forked-from", ...(log.forkSeq !== null ? { "reflexion.fork_seq": log.forkSeq } : {}) } });
  }
  drafts.push({
    key: "agent",
    parentKey: null,
    name: `invoke_agent ${config.strategy}`,
    kind: SpanKind.INTERNAL,
    startMs: ms(first),
    endMs: end,
    attributes: agentAttributes({ ...log, outcome: runEnd?.data.outcome ?? null }),
    links,
  });

  // Trials: from trial-start to the last event that names the trial.
  const trialBounds = new Map<number, { start: number; end: number; outcome: string | null; reason: string | null }>();
  for (const event of events) {
    const trial = trialOf(event);
    if (trial === null) continue;
    const bounds = trialBounds.get(trial) ?? { start: ms(event), end: ms(event), outcome: null, reason: null };
    bounds.start = Math.min(bounds.start, event.type === "model-call-end" ? ms(event) - event.data.latencyMs : ms(event));
    bounds.end = Math.max(bounds.end, ms(event));
    if (event.type === "trial-end") {
      bounds.outcome = event.data.outcome;
      bounds.reason = event.data.reason;
    }
    trialBounds.set(trial, bounds);
  }
  for (const [trial, bounds] of [...trialBounds.entries()].sort(([a], [b]) => a - b)) {
    drafts.push({ key: `trial:${trial}`, parentKey: "agent", name: `invoke_workflow trial ${trial}`, kind: SpanKind.INTERNAL, startMs: bounds.start, endMs: bounds.end, attributes: trialAttributes(trial, bounds.outcome, bounds.reason) });
  }

  let previousMs = ms(first);
  for (const event of events) {
    const parentKey = trialOf(event) === null ? "agent" : `trial:${trialOf(event)}`;
    switch (event.type) {
      case "model-call-end": {
        const reflection = event.data.role === "reflector" && reflectionCalls.has(event.data.callId);
        drafts.push({ key: event.id, parentKey, name: `chat ${event.data.settings.modelId}`, kind: SpanKind.CLIENT, startMs: ms(event) - event.data.latencyMs, endMs: ms(event), attributes: llmAttributes(event, reflection) });
        break;
      }
      case "model-call-error":
        drafts.push({ key: event.id, parentKey, name: `chat ${event.data.modelId}`, kind: SpanKind.CLIENT, startMs: ms(event), endMs: ms(event), attributes: llmErrorAttributes(event), status: { code: SpanStatusCode.ERROR, message: event.data.message } });
        break;
      case "step-action": {
        const observation = events.find((candidate): candidate is RunEventOf<"step-observation"> => candidate.type === "step-observation" && candidate.data.trial === event.data.trial && candidate.data.step === event.data.step);
        const { tool, description } = toolName(config, event);
        drafts.push({
          key: event.id,
          parentKey,
          name: `execute_tool ${tool}`,
          kind: SpanKind.INTERNAL,
          startMs: ms(event),
          endMs: observation ? ms(observation) : ms(event),
          attributes: toolAttributes({ tool, description, input: event.data.text, output: observation?.data.text ?? event.data.parseError ?? "", trial: event.data.trial, step: event.data.step, eventId: event.id }),
        });
        break;
      }
      case "evaluation-end": {
        const time = hrTimeOf(ms(event));
        drafts.push({
          key: event.id,
          parentKey,
          name: `evaluate ${event.data.evaluatorKind}`,
          kind: SpanKind.INTERNAL,
          startMs: previousMs,
          endMs: ms(event),
          attributes: evaluatorAttributes(event),
          events: [{ name: EVENT_GEN_AI_EVALUATION_RESULT, time, attributes: evaluationResultEventAttributes(event), droppedAttributesCount: 0 }],
        });
        const hidden = event.data.hiddenTests;
        if (hidden) {
          drafts.push({
            key: `${event.id}:hidden-tests`,
            parentKey: event.id,
            name: "execute_tool sandbox.hidden_tests",
            kind: SpanKind.INTERNAL,
            startMs: ms(event) - hidden.durationMs,
            endMs: ms(event),
            attributes: toolAttributes({
              tool: "sandbox.hidden_tests",
              description: "The dataset's hidden tests, run once per trial for reporting only (never shown to the agent).",
              input: `${hidden.total} hidden tests`,
              output: `${hidden.verdict}: ${hidden.passed}/${hidden.total} passed`,
              trial: event.data.trial,
              step: null,
              eventId: event.id,
            }),
          });
        }
        break;
      }
      default:
        break;
    }
    previousMs = ms(event);
  }
  const notes = annotationSpanEvents(log.annotations ?? [], events);
  for (const draft of drafts) {
    const added = notes.get(draft.key);
    if (added) draft.events = [...(draft.events ?? []), ...added];
  }
  return drafts.map((draft) => toReadable(log, draft, resource, scope));
}

function contextOf(runId: string, branchId: string, key: string): SpanContext {
  return { traceId: traceIdOf(runId, branchId), spanId: spanIdOf(runId, branchId, key), traceFlags: TraceFlags.SAMPLED };
}

function toReadable(log: BranchLog, draft: Draft, resource: Resource, scope: { name: string; version: string }): ReadableSpan {
  const context = contextOf(log.runId, log.branchId, draft.key);
  const endMs = Math.max(draft.startMs, draft.endMs);
  return {
    name: draft.name,
    kind: draft.kind,
    spanContext: () => context,
    parentSpanContext: draft.parentKey === null ? undefined : contextOf(log.runId, log.branchId, draft.parentKey),
    startTime: hrTimeOf(draft.startMs),
    endTime: hrTimeOf(endMs),
    duration: durationOf(draft.startMs, endMs),
    status: draft.status ?? { code: SpanStatusCode.UNSET },
    attributes: draft.attributes,
    links: draft.links ?? [],
    events: draft.events ?? [],
    ended: true,
    resource,
    instrumentationScope: scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}
