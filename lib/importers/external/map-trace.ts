import { randomUUID } from "node:crypto";
import { runConfigSchema, type ModelSettings, type RunConfig } from "@/lib/domain/config";
import type { ChatMessage } from "@/lib/domain/events";
import type { CallId } from "@/lib/domain/ids";
import type { Provenance } from "@/lib/domain/provenance";
import { EXTERNAL_FAMILY_ID } from "@/lib/environments/external/descriptor";
import { environmentEntry } from "@/lib/environments/registry";
import type { ImportedRunInput } from "@/lib/db/store";
import { computeRequestHash } from "@/lib/llm/request-hash";
import { RunLogBuilder } from "../run-log-builder";
import type { ExternalCall, ExternalMessage, ExternalTrace, RawRecord } from "./external-trace";
import { redactTrace } from "./redact";

/**
 * Maps one {@link ExternalTrace} to a read-only run of the `external` family (decision 0039): one
 * trace = one run with one trial.
 *
 * - Each {@link ExternalStep} is a step: its thought, its tool call as the action `tool(input)`
 *   (parsed `{ type: tool, argument: input }`), the tool's result as the observation. A final-answer
 *   turn's action is `final_answer(<answer>)` and ends the episode. A turn with neither is an
 *   unparsed action ("no tool call in this turn").
 * - Each {@link ExternalCall} is a `model-call-end` (role `actor`, source `live`, its tokens and
 *   cost as recorded, never estimated; the request hash as the engine computes it over provider,
 *   model, settings and messages); the thought and action of its step point at it.
 * - The trace's verdict is the `evaluation-end` (`evaluatorKind: "trace-score"`, never an oracle,
 *   `details.source` naming where it came from); the trial and run succeed iff it passed. A trace
 *   with no verdict has no `evaluation-end` (nothing judged it): its trial ends `failure` with the
 *   reason {@link NO_VERDICT_REASON}, so it is counted as not passed and offered for judging.
 * - Records the parser did not understand ({@link RawRecord}) are kept whole in the last step's
 *   observation `state.rawRecords` (the inspector shows them raw); a trace without turns gets one
 *   step (its output as the final answer) that holds them.
 */

/** The reason of the trial of a trace that records no score. */
export const NO_VERDICT_REASON = "No score in the trace: nothing judged this attempt (choose an Evaluator — a rubric judge or a person — to judge it).";

/** The providers a recorded model name may keep as its model id's prefix (lib/domain/config.ts `modelIdSchema`). */
const KNOWN_PROVIDERS = new Set(["openai", "anthropic", "google", "ollama"]);

/** Where the runs go: the arm's label, the task set name and the experiment's provenance. */
export interface MapTraceOptions {
  /** The arm's label ("Imported traces: <file name>"). */
  arm: string;
  /** `RunConfig.taskSetName` (the file name). */
  taskSetName: string;
  /** The experiment's provenance; each run's adds its own `traceId`. */
  provenance: Provenance;
}

/**
 * The app's model id for a recorded model name: `provider:model` when the trace names a provider
 * this app knows (`openai:gpt-4o-mini`, or `openai/gpt-4o-mini` as Inspect writes it), else
 * `compatible:<model>` (an unknown provider is shown as OpenAI-compatible); whitespace becomes `-`
 * (model ids have none).
 */
export function modelIdOf(recorded: string | null): string {
  const name = (recorded ?? "").trim().replace(/\s+/g, "-");
  if (name === "") return "compatible:unknown-model";
  // `openai:gpt-4o` as traces write it, or `openai/gpt-4o` as Inspect and LiteLLM do.
  const match = /^([A-Za-z0-9_-]+)[:/](.+)$/.exec(name);
  if (match) {
    const provider = match[1]!.toLowerCase();
    if (KNOWN_PROVIDERS.has(provider)) return `${provider}:${match[2]}`;
    if (provider === "compatible" && name.includes(":")) return name;
  }
  return `compatible:${name}`;
}

/** A recorded message as a chat message: a `tool` message becomes a `user` message marked `[tool]` (the app's chat roles are system, user and assistant). */
function chatMessageOf(message: ExternalMessage): ChatMessage {
  return message.role === "tool" ? { role: "user", content: `[tool] ${message.content}` } : { role: message.role, content: message.content };
}

function settingsOf(model: string | null): ModelSettings {
  return { modelId: modelIdOf(model), temperature: 0, maxOutputTokens: 8192 };
}

function callData(call: ExternalCall, step: number | null) {
  const settings = settingsOf(call.model);
  const messages = call.messages.map(chatMessageOf);
  const colon = settings.modelId.indexOf(":");
  const requestHash = computeRequestHash({
    provider: settings.modelId.slice(0, colon),
    modelId: settings.modelId.slice(colon + 1),
    temperature: settings.temperature,
    maxOutputTokens: settings.maxOutputTokens,
    stopSequences: [],
    messages,
  });
  return {
    callId: randomUUID() as CallId,
    role: "actor" as const,
    step,
    settings,
    requestHash,
    messages,
    outputText: call.outputText,
    usage: { inputTokens: Math.max(0, Math.round(call.inputTokens ?? 0)), outputTokens: Math.max(0, Math.round(call.outputTokens ?? 0)) },
    costUsd: call.costUsd !== null && call.costUsd >= 0 ? call.costUsd : null,
    price: null,
    latencyMs: Math.max(0, call.latencyMs ?? 0),
    finishReason: "stop",
    source: "live" as const,
    adjustments: call.inputTokens === null && call.outputTokens === null ? ["usage not recorded in the trace (shown as 0 tokens)"] : [],
    contextUse: null,
  };
}

function configOf(trace: ExternalTrace, options: MapTraceOptions): RunConfig {
  const { family } = environmentEntry(EXTERNAL_FAMILY_ID);
  const settings = settingsOf(trace.model ?? trace.calls[0]?.model ?? null);
  return runConfigSchema.parse({
    environment: EXTERNAL_FAMILY_ID,
    taskSetName: options.taskSetName,
    taskId: trace.taskId,
    task: { id: trace.taskId, title: trace.title || trace.taskId, input: trace.input, target: trace.target, sourceFormat: trace.format, recordedOnly: true },
    strategy: "none",
    memoryWindow: null,
    maxTrials: 1,
    maxStepsPerTrial: Math.min(100, Math.max(1, trace.steps.length)),
    models: { actor: settings, reflector: settings },
    templates: family.defaultTemplates,
    replayMode: "live",
    // The year the agent ran, when the trace says (the experiment's is the import's).
    provenance: { ...options.provenance, traceId: trace.traceId, model: trace.model ?? options.provenance.model, year: yearOf(trace.startedAt) ?? options.provenance.year },
  });
}

/**
 * The trace's run; every credential in it is redacted first (./redact.ts).
 * @throws AppError("invalid-input") only when the mapped events break the event schema (a bug in a parser, never the trace's content).
 */
export function mapTrace(recorded: ExternalTrace, options: MapTraceOptions): ImportedRunInput {
  const { trace } = redactTrace(recorded);
  const builder = new RunLogBuilder(configOf(trace, options));
  builder.at(trace.startedAt);
  builder.startTrial();
  const callsByStep = new Map<number, ExternalCall[]>();
  for (const call of trace.calls) {
    if (call.stepIndex === null || call.stepIndex < 0 || call.stepIndex >= trace.steps.length) continue;
    callsByStep.set(call.stepIndex, [...(callsByStep.get(call.stepIndex) ?? []), call]);
  }
  const finalTurn = { thought: null, action: null, startedAt: trace.endedAt ?? trace.startedAt, sourceId: null, answer: trace.output };
  // The agent's final output ends the trajectory as its answer when no turn gave one (a root run's outputs, an Inspect completion).
  const steps =
    trace.steps.length === 0
      ? [{ ...finalTurn, startedAt: trace.startedAt, observation: "(the trace records no agent turns)" }]
      : trace.output !== null && !trace.steps.some((step) => step.answer !== null)
        ? [...trace.steps, { ...finalTurn, observation: "(the agent's final output, as the trace records it)" }]
        : trace.steps;
  steps.forEach((step, index) => {
    builder.at(step.startedAt ?? trace.startedAt);
    let callId: string | null = null;
    for (const call of callsByStep.get(index) ?? []) callId = builder.modelCall(callData(call, index + 1));
    const last = index === steps.length - 1;
    const action = step.action
      ? { text: `${step.action.tool}(${step.action.input})`, parsed: { type: step.action.tool, argument: step.action.input } }
      : step.answer !== null
        ? { text: `final_answer(${step.answer})`, parsed: { type: "final_answer", argument: step.answer } }
        : { text: "", parsed: null };
    builder.step({
      thought: step.thought ?? "",
      action: action.text,
      parsed: action.parsed,
      parseError: "No tool call in this turn (as recorded).",
      observation: step.observation ?? (step.answer !== null ? "Final answer given." : "(no tool result recorded)"),
      done: step.answer !== null,
      answer: step.answer,
      callId,
      state: { recorded: true, sourceId: step.sourceId, ...(last && trace.unknown.length > 0 ? { rawRecords: rawRecordsOf(trace.unknown) } : {}) },
    });
  });
  builder.at(trace.endedAt ?? trace.startedAt);
  for (const call of trace.calls.filter((candidate) => !callsByStep.has(candidate.stepIndex ?? -1))) builder.modelCall(callData(call, null));
  const verdict = trace.verdict;
  if (verdict) {
    const feedback = `${verdict.name} = ${JSON.stringify(verdict.raw)} (${verdict.source})${verdict.explanation ? `: ${verdict.explanation}` : ""}`;
    builder.endTrial({
      outcome: verdict.passed ? "success" : "failure",
      reason: feedback,
      evaluation: {
        verdict: verdict.passed ? "pass" : "fail",
        score: Math.min(1, Math.max(0, Number.isFinite(verdict.score) ? verdict.score : 0)),
        feedback,
        evaluatorKind: "trace-score",
        oracle: false,
        details: { source: verdict.source, name: verdict.name, raw: verdict.raw, explanation: verdict.explanation, traceId: trace.traceId, output: trace.output },
      },
    });
  } else {
    builder.endTrialUnjudged("failure", NO_VERDICT_REASON);
  }
  builder.end(verdict?.passed ? "success" : "failure");
  const title = trace.title || trace.taskId;
  return { config: builder.config, title, cell: { taskId: trace.taskId, arm: options.arm }, drafts: builder.drafts, ...(trace.startedAt ? { startedAt: trace.startedAt } : {}) };
}

function yearOf(iso: string | null): number | null {
  const year = iso ? new Date(iso).getUTCFullYear() : Number.NaN;
  return Number.isInteger(year) ? year : null;
}

/** Raw records as plain JSON (what the observation's state can hold); credentials were redacted by {@link mapTrace}. */
function rawRecordsOf(records: readonly RawRecord[]): Array<{ kind: string; name: string; data: unknown }> {
  return records.map((record) => ({ kind: record.kind, name: record.name, data: JSON.parse(JSON.stringify(record.data ?? null)) as unknown }));
}
