// Over 400 lines: one pass over a trace's spans reads both conventions (OpenInference and OTel gen_ai.*) side by side; split, the halves would share every helper and the step being built.
import { createHash } from "node:crypto";
import { OpenInferenceSpanKind, SemanticConventions as OI } from "@arizeai/openinference-semantic-conventions";
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_EVALUATION_EXPLANATION,
  ATTR_GEN_AI_EVALUATION_NAME,
  ATTR_GEN_AI_EVALUATION_SCORE_LABEL,
  ATTR_GEN_AI_EVALUATION_SCORE_VALUE,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_SYSTEM,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_GEN_AI_WORKFLOW_NAME,
  EVENT_GEN_AI_EVALUATION_RESULT,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_CREATE_AGENT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_GENERATE_CONTENT,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_WORKFLOW,
  GEN_AI_OPERATION_NAME_VALUE_TEXT_COMPLETION,
} from "@opentelemetry/semantic-conventions/incubating";
import type { ExternalCall, ExternalMessage, ExternalStep, ExternalTrace, ExternalVerdict, RawRecord } from "./external-trace";
import type { AttributeValue, OtlpSpan } from "./otlp-spans";
import { REFLEXION_ATTR } from "@/lib/otel/attributes";

/**
 * One trace's spans (OTLP, any producer) as an {@link ExternalTrace}, reading two attribute
 * conventions:
 *
 * - **OpenInference** (`openinference.span.kind` LLM / TOOL / AGENT / CHAIN / EVALUATOR …;
 *   `llm.input_messages.N.message.role|content`, `llm.output_messages…`, `llm.token_count.prompt|
 *   completion`, `llm.cost.total`, `llm.model_name`, `llm.provider`, `tool.name`, `input.value`,
 *   `output.value`);
 * - **OTel GenAI** (`gen_ai.operation.name` chat / text_completion / generate_content → LLM,
 *   execute_tool → TOOL, invoke_agent / create_agent → AGENT, invoke_workflow → CHAIN;
 *   `gen_ai.request.model`, `gen_ai.usage.input_tokens|output_tokens`, `gen_ai.input.messages` /
 *   `gen_ai.output.messages` as JSON parts, `gen_ai.tool.name`, `gen_ai.tool.call.arguments|result`,
 *   and `gen_ai.evaluation.result` span events with `gen_ai.evaluation.score.value|label`).
 *
 * Turns: every LLM span opens a step (its output text is the thought); the TOOL span that follows
 * it is that step's action and observation (a second tool call in a row opens a step with no
 * thought). The last LLM turn without a tool call is the final answer. AGENT and CHAIN spans give
 * the title, input and output; EVALUATOR spans and evaluation events give the verdict (the last one
 * recorded wins). Every other span (RETRIEVER, EMBEDDING, GUARDRAIL, a span with no kind …) is a
 * {@link RawRecord} `span:<KIND>` with its attributes, never dropped.
 */

type Kind = "LLM" | "TOOL" | "AGENT" | "CHAIN" | "EVALUATOR" | string;

const text = (value: AttributeValue | undefined): string | null => (value === undefined || value === null ? null : typeof value === "string" ? value : JSON.stringify(value));
const num = (value: AttributeValue | undefined): number | null => (typeof value === "number" && Number.isFinite(value) ? value : typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)) ? Number(value) : null);

/** The span's kind under either convention; `UNKNOWN` when it names none. */
export function kindOf(span: OtlpSpan): Kind {
  const oi = text(span.attributes[OI.OPENINFERENCE_SPAN_KIND]);
  if (oi) return oi.toUpperCase();
  switch (text(span.attributes[ATTR_GEN_AI_OPERATION_NAME])) {
    case GEN_AI_OPERATION_NAME_VALUE_CHAT:
    case GEN_AI_OPERATION_NAME_VALUE_TEXT_COMPLETION:
    case GEN_AI_OPERATION_NAME_VALUE_GENERATE_CONTENT:
      return OpenInferenceSpanKind.LLM;
    case GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL:
      return OpenInferenceSpanKind.TOOL;
    case GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT:
    case GEN_AI_OPERATION_NAME_VALUE_CREATE_AGENT:
      return OpenInferenceSpanKind.AGENT;
    case GEN_AI_OPERATION_NAME_VALUE_INVOKE_WORKFLOW:
      return OpenInferenceSpanKind.CHAIN;
    case null:
      return "UNKNOWN";
    default:
      return String(span.attributes[ATTR_GEN_AI_OPERATION_NAME]).toUpperCase();
  }
}

const ROLES = new Set(["system", "user", "assistant", "tool"]);

function roleOf(value: string | null): ExternalMessage["role"] {
  const role = (value ?? "user").toLowerCase();
  if (role === "developer") return "system";
  if (role === "model") return "assistant";
  return (ROLES.has(role) ? role : "user") as ExternalMessage["role"];
}

/**
 * OpenInference flattened messages `<prefix>.N.message.role|content`, in index order; a message
 * whose content is a list of parts (`<prefix>.N.message.contents.M.message_content.text`) joins
 * its text parts.
 */
function flattenedMessages(attributes: Record<string, AttributeValue>, prefix: string): ExternalMessage[] {
  const byIndex = new Map<number, { role: string | null; content: string | null; parts: Map<number, string> }>();
  const head = `${prefix}.`;
  const partKey = `${OI.MESSAGE_CONTENTS}.`;
  for (const [key, value] of Object.entries(attributes)) {
    if (!key.startsWith(head)) continue;
    const rest = key.slice(head.length);
    const dot = rest.indexOf(".");
    const index = Number(rest.slice(0, dot));
    if (dot < 1 || !Number.isInteger(index)) continue;
    const field = rest.slice(dot + 1);
    const entry = byIndex.get(index) ?? { role: null, content: null, parts: new Map<number, string>() };
    if (field === OI.MESSAGE_ROLE) entry.role = text(value);
    else if (field === OI.MESSAGE_CONTENT) entry.content = text(value);
    else if (field.startsWith(partKey) && field.endsWith(`.${OI.MESSAGE_CONTENT_TEXT}`)) {
      const part = Number(field.slice(partKey.length, field.length - OI.MESSAGE_CONTENT_TEXT.length - 1));
      if (Number.isInteger(part)) entry.parts.set(part, text(value) ?? "");
    } else continue;
    byIndex.set(index, entry);
  }
  return [...byIndex.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, entry]) => ({
      role: roleOf(entry.role),
      content: entry.content ?? [...entry.parts.entries()].sort(([a], [b]) => a - b).map(([, part]) => part).join("\n"),
    }));
}

/**
 * GenAI messages (`[{ role, parts: [{ type: "text", content }] }]` as JSON, or the older
 * `{ role, content }`). A tool call part reads `name(arguments)`, a tool response its response;
 * `textOnly`: only text parts (an assistant's words before its tool call: the step's thought).
 */
function genAiMessages(value: AttributeValue | undefined, textOnly = false): ExternalMessage[] {
  let parsed: unknown = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      return [{ role: "user", content: value }];
    }
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((message): ExternalMessage[] => {
    if (typeof message !== "object" || message === null) return [];
    const record = message as { role?: unknown; content?: unknown; parts?: unknown };
    const parts = Array.isArray(record.parts) ? record.parts : [];
    const content =
      typeof record.content === "string"
        ? record.content
        : parts
            .map((part: { type?: string; content?: unknown; name?: string; arguments?: unknown; response?: unknown; result?: unknown }) => {
              if (part.type === "text" || part.type === "reasoning") return typeof part.content === "string" ? part.content : "";
              if (textOnly && part.type !== "text") return "";
              if (part.type === "tool_call") return `${part.name ?? "tool"}(${typeof part.arguments === "string" ? part.arguments : JSON.stringify(part.arguments ?? {})})`;
              if (part.type === "tool_call_response") return typeof part.response === "string" ? part.response : JSON.stringify(part.response ?? part.result ?? null);
              return typeof part.content === "string" ? part.content : "";
            })
            .filter((piece: string) => piece !== "")
            .join("\n");
    return [{ role: roleOf(typeof record.role === "string" ? record.role : null), content }];
  });
}

/** The tool calls an OpenInference output message names (`…message.tool_calls.N.tool_call.function.name|arguments`). */
function outputToolCalls(attributes: Record<string, AttributeValue>): Array<{ tool: string; input: string }> {
  const calls = new Map<string, { tool: string; input: string }>();
  const prefix = `${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_TOOL_CALLS}.`;
  for (const [key, value] of Object.entries(attributes)) {
    if (!key.startsWith(prefix)) continue;
    const [index, ...rest] = key.slice(prefix.length).split(".");
    const field = rest.join(".");
    const entry = calls.get(index ?? "0") ?? { tool: "", input: "" };
    if (field === OI.TOOL_CALL_FUNCTION_NAME) entry.tool = text(value) ?? "";
    if (field === OI.TOOL_CALL_FUNCTION_ARGUMENTS_JSON) entry.input = text(value) ?? "";
    calls.set(index ?? "0", entry);
  }
  return [...calls.values()].filter((call) => call.tool !== "");
}

function callOf(span: OtlpSpan, stepIndex: number | null): ExternalCall {
  const a = span.attributes;
  const oiMessages = flattenedMessages(a, OI.LLM_INPUT_MESSAGES);
  const messages = oiMessages.length > 0 ? oiMessages : genAiMessages(a[ATTR_GEN_AI_INPUT_MESSAGES]);
  const oiOutput = flattenedMessages(a, OI.LLM_OUTPUT_MESSAGES);
  const output = oiOutput.length > 0 ? oiOutput : genAiMessages(a[ATTR_GEN_AI_OUTPUT_MESSAGES]);
  const outputText = output.map((message) => message.content).join("\n") || text(a[OI.OUTPUT_VALUE]) || "";
  const modelName = text(a[OI.LLM_MODEL_NAME]) ?? text(a[ATTR_GEN_AI_REQUEST_MODEL]) ?? text(a[ATTR_GEN_AI_RESPONSE_MODEL]) ?? span.name;
  const provider = text(a[OI.LLM_PROVIDER]) ?? text(a[ATTR_GEN_AI_PROVIDER_NAME]) ?? text(a[ATTR_GEN_AI_SYSTEM]);
  return {
    model: provider && !modelName.includes(":") ? `${provider}:${modelName}` : modelName,
    messages: messages.length > 0 ? messages : text(a[OI.INPUT_VALUE]) ? [{ role: "user", content: text(a[OI.INPUT_VALUE]) ?? "" }] : [],
    outputText,
    inputTokens: num(a[OI.LLM_TOKEN_COUNT_PROMPT]) ?? num(a[ATTR_GEN_AI_USAGE_INPUT_TOKENS]),
    outputTokens: num(a[OI.LLM_TOKEN_COUNT_COMPLETION]) ?? num(a[ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]),
    costUsd: num(a[OI.LLM_COST_TOTAL]),
    latencyMs: Math.max(0, span.endMs - span.startMs),
    stepIndex,
    sourceId: span.spanId,
  };
}

const PASS_LABELS = new Set(["pass", "passed", "correct", "true", "yes", "c", "success", "succeeded", "resolved"]);
const FAIL_LABELS = new Set(["fail", "failed", "incorrect", "false", "no", "i", "failure", "error", "unresolved"]);

/**
 * A verdict from a score value and / or label: a label reading as pass or fail decides; otherwise a
 * value in 0..1 passes at ≥ 0.5; a value outside 0..1 passes when positive (score clamped to 0..1).
 * Null when neither says anything.
 */
export function verdictOf(input: { name: string | null; value: number | null; label: string | null; explanation: string | null; source: string }): ExternalVerdict | null {
  const label = input.label?.trim() ?? null;
  const byLabel = label === null ? null : PASS_LABELS.has(label.toLowerCase()) ? true : FAIL_LABELS.has(label.toLowerCase()) ? false : null;
  if (byLabel === null && input.value === null) return null;
  const value = input.value;
  const passed = byLabel ?? (value !== null && value >= 0 && value <= 1 ? value >= 0.5 : (value ?? 0) > 0);
  const score = value !== null ? Math.min(1, Math.max(0, value)) : passed ? 1 : 0;
  return {
    passed,
    score,
    name: input.name ?? "score",
    source: input.source,
    explanation: input.explanation ?? "",
    raw: value !== null && label !== null ? { value, label } : (value ?? label),
  };
}

/** The verdict of an EVALUATOR span: its `gen_ai.evaluation.*` attributes, else its `output.value` (a number, a label, or JSON with score / label / explanation). */
function evaluatorVerdict(span: OtlpSpan): ExternalVerdict | null {
  const a = span.attributes;
  const source = `OpenInference EVALUATOR span "${span.name}"`;
  const fromAttributes = verdictOf({ name: text(a[ATTR_GEN_AI_EVALUATION_NAME]) ?? span.name, value: num(a[ATTR_GEN_AI_EVALUATION_SCORE_VALUE]), label: text(a[ATTR_GEN_AI_EVALUATION_SCORE_LABEL]), explanation: text(a[ATTR_GEN_AI_EVALUATION_EXPLANATION]), source });
  if (fromAttributes) return fromAttributes;
  const output = text(a[OI.OUTPUT_VALUE]);
  if (output === null) return null;
  try {
    const parsed: unknown = JSON.parse(output);
    if (typeof parsed === "number") return verdictOf({ name: span.name, value: parsed, label: null, explanation: null, source });
    if (typeof parsed === "object" && parsed !== null) {
      const record = parsed as Record<string, unknown>;
      const value = typeof record.score === "number" ? record.score : null;
      const label = typeof record.label === "string" ? record.label : typeof record.verdict === "string" ? record.verdict : null;
      return verdictOf({ name: typeof record.name === "string" ? record.name : span.name, value, label, explanation: typeof record.explanation === "string" ? record.explanation : null, source });
    }
  } catch {
    // A bare label such as "correct".
  }
  return verdictOf({ name: span.name, value: null, label: output, explanation: null, source });
}

/** The verdicts of a span's `gen_ai.evaluation.result` events. */
function eventVerdicts(span: OtlpSpan): Array<{ at: number; verdict: ExternalVerdict }> {
  return span.events.flatMap((event) => {
    if (event.name !== EVENT_GEN_AI_EVALUATION_RESULT) return [];
    const a = event.attributes;
    const name = text(a[ATTR_GEN_AI_EVALUATION_NAME]);
    const verdict = verdictOf({ name, value: num(a[ATTR_GEN_AI_EVALUATION_SCORE_VALUE]), label: text(a[ATTR_GEN_AI_EVALUATION_SCORE_LABEL]), explanation: text(a[ATTR_GEN_AI_EVALUATION_EXPLANATION]), source: `gen_ai.evaluation.result event${name ? ` \`${name}\`` : ""} on span "${span.name}"` });
    return verdict ? [{ at: event.timeMs ?? span.endMs, verdict }] : [];
  });
}

/**
 * The task id the agent declared: `reflexion.task_id` on any of the trace's spans (the root's first),
 * so an outside agent finds its lessons under its own ids (docs/external-agents.md). Null when none.
 */
function declaredTaskId(spans: readonly OtlpSpan[]): string | null {
  for (const span of spans) {
    const value = span.attributes[REFLEXION_ATTR.taskId];
    if (typeof value === "string" && value.trim() !== "") return value.trim().slice(0, 200);
  }
  return null;
}

/** A stable task id: a hash of the task's input (the same question in two traces is one task), else the trace's id. */
function taskIdOf(input: string | null, traceId: string): string {
  return input ? `task-${createHash("sha256").update(input.trim()).digest("hex").slice(0, 12)}` : `trace-${traceId.slice(0, 16)}`;
}

/**
 * The text of an agent's `input.value` / `output.value`: frameworks record JSON (LangGraph
 * `{"messages": [...]}`, a chain's `{"input": "…"}`); the last message of `role` (user / human,
 * assistant / ai), or the `input` / `question` / `query` / `output` / `answer` field, else the value as written.
 */
export function messageText(value: string | null, role: "user" | "assistant"): string | null {
  if (value === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return value;
  }
  if (typeof parsed === "string") return parsed;
  if (typeof parsed !== "object" || parsed === null) return value;
  const record = parsed as Record<string, unknown>;
  const aliases = role === "user" ? ["user", "human"] : ["assistant", "ai"];
  if (Array.isArray(record.messages)) {
    const texts = record.messages.flatMap((message: unknown): Array<{ role: string; content: string }> => {
      if (Array.isArray(message) && typeof message[0] === "string" && typeof message[1] === "string") return [{ role: message[0], content: message[1] }];
      if (typeof message !== "object" || message === null) return [];
      const m = message as Record<string, unknown>;
      const who = typeof m.role === "string" ? m.role : typeof m.type === "string" ? m.type : "";
      return typeof m.content === "string" ? [{ role: who.toLowerCase(), content: m.content }] : [];
    });
    const found = texts.filter((message) => aliases.includes(message.role)).at(-1);
    if (found) return found.content;
  }
  for (const key of role === "user" ? ["input", "question", "query"] : ["output", "answer"]) {
    if (typeof record[key] === "string") return record[key];
  }
  return value;
}

const iso = (ms: number): string => new Date(Math.floor(ms)).toISOString();

/** One trace's spans (any order) as an ExternalTrace; `format` is `otlp`. */
export function traceOfSpans(traceId: string, spans: readonly OtlpSpan[]): ExternalTrace {
  const ordered = [...spans].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
  const ids = new Set(ordered.map((span) => span.spanId));
  const roots = ordered.filter((span) => span.parentSpanId === null || !ids.has(span.parentSpanId));
  const root = roots.find((span) => kindOf(span) === OpenInferenceSpanKind.AGENT) ?? roots[0] ?? ordered[0];
  const steps: ExternalStep[] = [];
  const calls: ExternalCall[] = [];
  const unknown: RawRecord[] = [];
  const verdicts: Array<{ at: number; verdict: ExternalVerdict }> = [];
  let agentName: string | null = null;
  let input: string | null = null;
  let output: string | null = null;
  let pendingAnswer: number | null = null;
  for (const span of ordered) {
    const kind = kindOf(span);
    verdicts.push(...eventVerdicts(span));
    const a = span.attributes;
    switch (kind) {
      case OpenInferenceSpanKind.LLM: {
        const call = callOf(span, steps.length);
        calls.push(call);
        const toolCalls = outputToolCalls(a);
        const words = flattenedMessages(a, OI.LLM_OUTPUT_MESSAGES).length > 0 ? call.outputText : genAiMessages(a[ATTR_GEN_AI_OUTPUT_MESSAGES], true).map((message) => message.content).join("\n") || call.outputText;
        steps.push({ thought: words || null, action: null, observation: null, answer: null, startedAt: iso(span.startMs), sourceId: span.spanId });
        pendingAnswer = toolCalls.length === 0 ? steps.length - 1 : null;
        break;
      }
      case OpenInferenceSpanKind.TOOL: {
        const tool = text(a[OI.TOOL_NAME]) ?? text(a[ATTR_GEN_AI_TOOL_NAME]) ?? span.name;
        const toolInput = text(a[OI.INPUT_VALUE]) ?? text(a[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]) ?? "";
        const result = text(a[OI.OUTPUT_VALUE]) ?? text(a[ATTR_GEN_AI_TOOL_CALL_RESULT]) ?? (span.status.code === 2 ? `Error: ${span.status.message}` : null);
        const last = steps.at(-1);
        if (last && last.action === null && last.answer === null) {
          last.action = { tool, input: toolInput };
          last.observation = result;
        } else {
          steps.push({ thought: null, action: { tool, input: toolInput }, observation: result, answer: null, startedAt: iso(span.startMs), sourceId: span.spanId });
        }
        pendingAnswer = null;
        break;
      }
      case OpenInferenceSpanKind.AGENT:
      case OpenInferenceSpanKind.CHAIN: {
        if (span === root || (agentName === null && kind === OpenInferenceSpanKind.AGENT)) {
          agentName = text(a[OI.AGENT_NAME]) ?? text(a[ATTR_GEN_AI_AGENT_NAME]) ?? text(a[ATTR_GEN_AI_WORKFLOW_NAME]) ?? span.name;
        }
        if (span === root) {
          input = messageText(text(a[OI.INPUT_VALUE]), "user") ?? input;
          output = messageText(text(a[OI.OUTPUT_VALUE]), "assistant") ?? output;
        }
        break;
      }
      case OpenInferenceSpanKind.EVALUATOR: {
        const verdict = evaluatorVerdict(span);
        if (verdict) verdicts.push({ at: span.endMs, verdict });
        else unknown.push({ kind: `span:${kind}`, name: span.name, data: { spanId: span.spanId, attributes: a, note: "an EVALUATOR span with no score or label this importer reads" } });
        break;
      }
      default:
        unknown.push({ kind: `span:${kind}`, name: span.name, data: { spanId: span.spanId, parentSpanId: span.parentSpanId, startMs: span.startMs, endMs: span.endMs, attributes: a, events: span.events } });
    }
  }
  if (pendingAnswer !== null) {
    const step = steps[pendingAnswer];
    if (step) {
      step.answer = step.thought ?? "";
      step.thought = null;
    }
  }
  const firstUser = calls[0]?.messages.find((message) => message.role === "user")?.content ?? null;
  const finalAnswer = steps.find((step) => step.answer !== null)?.answer ?? null;
  if (finalAnswer === null && output !== null) steps.push({ thought: null, action: null, observation: null, answer: output, startedAt: root ? iso(root.endMs) : null, sourceId: root?.spanId ?? null });
  verdicts.sort((x, y) => x.at - y.at);
  const taskInput = input ?? firstUser;
  return {
    format: "otlp",
    traceId,
    title: agentName ?? root?.name ?? traceId,
    taskId: declaredTaskId(ordered) ?? taskIdOf(taskInput, traceId),
    input: taskInput,
    target: null,
    output: output ?? finalAnswer,
    steps,
    calls,
    verdict: verdicts.at(-1)?.verdict ?? null,
    model: calls[0]?.model ?? null,
    unknown,
    startedAt: root ? iso(root.startMs) : null,
    endedAt: root ? iso(Math.max(...ordered.map((span) => span.endMs))) : null,
  };
}
