import { OpenInferenceSpanKind, SemanticConventions as OI } from "@arizeai/openinference-semantic-conventions";
import type { Attributes } from "@opentelemetry/api";
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_EVALUATION_EXPLANATION,
  ATTR_GEN_AI_EVALUATION_NAME,
  ATTR_GEN_AI_EVALUATION_SCORE_LABEL,
  ATTR_GEN_AI_EVALUATION_SCORE_VALUE,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MAX_TOKENS,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_REQUEST_TEMPERATURE,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_GEN_AI_WORKFLOW_NAME,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_WORKFLOW,
} from "@opentelemetry/semantic-conventions/incubating";
import type { RunConfig } from "@/lib/domain/config";
import type { RunEventOf } from "@/lib/domain/events";
import { isDemoModel, splitModelId } from "@/lib/domain/model-id";

/**
 * Attribute builders per span kind (shared/docs/scale-and-export.md §5.3). Every key is a
 * constant of OpenInference (`@arizeai/openinference-semantic-conventions`) or of the OTel GenAI
 * conventions (`@opentelemetry/semantic-conventions/incubating`, Development status), plus a few
 * `reflexion.*` keys of ours. Values come only from the named event fields — an allow-list: nothing
 * of the environment, the provider settings' secrets or request headers can reach a span.
 */

/** Our own attribute keys (namespaced, for filters in Phoenix / Langfuse). */
export const REFLEXION_ATTR = {
  runId: "reflexion.run_id",
  branchId: "reflexion.branch_id",
  parentBranchId: "reflexion.parent_branch_id",
  forkSeq: "reflexion.fork_seq",
  environment: "reflexion.environment",
  taskId: "reflexion.task_id",
  trial: "reflexion.trial",
  step: "reflexion.step",
  outcome: "reflexion.outcome",
  role: "reflexion.role",
  /** `live` or `cache`: whether the model was called or the response cache served it. */
  source: "reflexion.source",
  /** True on the Self-Reflection's LLM span whose text became the reflection. */
  reflection: "reflexion.reflection",
  oracle: "reflexion.oracle",
  falsePositive: "reflexion.false_positive",
  eventId: "reflexion.event_id",
} as const;

/** `openai:gpt-4o` → `openai`; `demo` → `reflexion-demo` (the scripted stand-in). */
export function providerOf(modelId: string): string {
  return isDemoModel(modelId) ? "reflexion-demo" : splitModelId(modelId).provider;
}

/** `openai:gpt-4o` → `gpt-4o`; `demo` → `demo`. */
export function modelNameOf(modelId: string): string {
  return splitModelId(modelId).model;
}

/** The root span of a branch: OpenInference AGENT, GenAI `invoke_agent`. */
export function agentAttributes(input: { runId: string; branchId: string; parentBranchId: string | null; forkSeq: number | null; config: RunConfig; sessionId: string; outcome: string | null }): Attributes {
  const { config } = input;
  const attributes: Attributes = {
    [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.AGENT,
    [OI.SESSION_ID]: input.sessionId,
    [OI.AGENT_NAME]: config.strategy,
    [OI.INPUT_VALUE]: `${config.environment} task ${config.taskId}`,
    [OI.METADATA]: JSON.stringify({
      strategy: config.strategy,
      memoryWindow: config.memoryWindow,
      maxTrials: config.maxTrials,
      seed: config.seed,
      branch: input.branchId,
      replayMode: config.replayMode,
      taskSet: config.taskSetName,
    }),
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
    [ATTR_GEN_AI_AGENT_NAME]: config.strategy,
    [ATTR_GEN_AI_CONVERSATION_ID]: input.sessionId,
    [REFLEXION_ATTR.runId]: input.runId,
    [REFLEXION_ATTR.branchId]: input.branchId,
    [REFLEXION_ATTR.environment]: config.environment,
    [REFLEXION_ATTR.taskId]: config.taskId,
  };
  if (input.outcome !== null) {
    attributes[OI.OUTPUT_VALUE] = input.outcome;
    attributes[REFLEXION_ATTR.outcome] = input.outcome;
  }
  if (input.parentBranchId !== null) attributes[REFLEXION_ATTR.parentBranchId] = input.parentBranchId;
  if (input.forkSeq !== null) attributes[REFLEXION_ATTR.forkSeq] = input.forkSeq;
  return attributes;
}

/** One trial: OpenInference CHAIN, GenAI `invoke_workflow`. */
export function trialAttributes(trial: number, outcome: string | null, reason: string | null): Attributes {
  const attributes: Attributes = {
    [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.CHAIN,
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_INVOKE_WORKFLOW,
    [ATTR_GEN_AI_WORKFLOW_NAME]: `trial ${trial}`,
    [REFLEXION_ATTR.trial]: trial,
  };
  if (outcome !== null) {
    attributes[OI.OUTPUT_VALUE] = reason ? `${outcome}: ${reason}` : outcome;
    attributes[REFLEXION_ATTR.outcome] = outcome;
  }
  return attributes;
}

/** One model call: OpenInference LLM (flattened messages, token counts, model), GenAI `chat`. */
export function llmAttributes(event: RunEventOf<"model-call-end">, reflection: boolean): Attributes {
  const { data } = event;
  const modelId = data.settings.modelId;
  const attributes: Attributes = {
    [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.LLM,
    [OI.LLM_MODEL_NAME]: modelNameOf(modelId),
    [OI.LLM_PROVIDER]: providerOf(modelId),
    [OI.LLM_INVOCATION_PARAMETERS]: JSON.stringify({ temperature: data.settings.temperature, max_tokens: data.settings.maxOutputTokens }),
    [OI.LLM_TOKEN_COUNT_PROMPT]: data.usage.inputTokens,
    [OI.LLM_TOKEN_COUNT_COMPLETION]: data.usage.outputTokens,
    [OI.LLM_TOKEN_COUNT_TOTAL]: data.usage.inputTokens + data.usage.outputTokens,
    [OI.LLM_FINISH_REASON]: data.finishReason,
    [OI.INPUT_VALUE]: data.messages.at(-1)?.content ?? "",
    [OI.OUTPUT_VALUE]: data.outputText,
    [OI.METADATA]: JSON.stringify({ source: data.source, role: data.role, requestHash: data.requestHash, ...(reflection ? { reflection: true } : {}) }),
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_CHAT,
    [ATTR_GEN_AI_PROVIDER_NAME]: providerOf(modelId),
    [ATTR_GEN_AI_REQUEST_MODEL]: modelNameOf(modelId),
    [ATTR_GEN_AI_REQUEST_TEMPERATURE]: data.settings.temperature,
    [ATTR_GEN_AI_REQUEST_MAX_TOKENS]: data.settings.maxOutputTokens,
    [ATTR_GEN_AI_RESPONSE_FINISH_REASONS]: [data.finishReason],
    [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: data.usage.inputTokens,
    [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: data.usage.outputTokens,
    [ATTR_GEN_AI_INPUT_MESSAGES]: JSON.stringify(data.messages.map((message) => ({ role: message.role, parts: [{ type: "text", content: message.content }] }))),
    [ATTR_GEN_AI_OUTPUT_MESSAGES]: JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: data.outputText }], finish_reason: data.finishReason }]),
    [REFLEXION_ATTR.role]: data.role,
    [REFLEXION_ATTR.source]: data.source,
    [REFLEXION_ATTR.trial]: data.trial,
    [REFLEXION_ATTR.eventId]: event.id,
  };
  data.messages.forEach((message, index) => {
    attributes[`${OI.LLM_INPUT_MESSAGES}.${index}.${OI.MESSAGE_ROLE}`] = message.role;
    attributes[`${OI.LLM_INPUT_MESSAGES}.${index}.${OI.MESSAGE_CONTENT}`] = message.content;
  });
  attributes[`${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_ROLE}`] = "assistant";
  attributes[`${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_CONTENT}`] = data.outputText;
  if (data.step !== null) attributes[REFLEXION_ATTR.step] = data.step;
  if (reflection) attributes[REFLEXION_ATTR.reflection] = true;
  return attributes;
}

/** A failed model call: an LLM span with the error's code (`error.type`). */
export function llmErrorAttributes(event: RunEventOf<"model-call-error">): Attributes {
  const { data } = event;
  return {
    [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.LLM,
    [OI.LLM_MODEL_NAME]: modelNameOf(data.modelId),
    [OI.LLM_PROVIDER]: providerOf(data.modelId),
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_CHAT,
    [ATTR_GEN_AI_PROVIDER_NAME]: providerOf(data.modelId),
    [ATTR_GEN_AI_REQUEST_MODEL]: modelNameOf(data.modelId),
    "error.type": data.code,
    [REFLEXION_ATTR.role]: data.role,
    [REFLEXION_ATTR.trial]: data.trial,
    [REFLEXION_ATTR.eventId]: event.id,
  };
}

/** An action and its observation (or a sandbox job): OpenInference TOOL, GenAI `execute_tool`. */
export function toolAttributes(input: { tool: string; description: string; input: string; output: string; trial: number; step: number | null; eventId: string }): Attributes {
  const attributes: Attributes = {
    [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.TOOL,
    [OI.TOOL_NAME]: input.tool,
    [OI.TOOL_DESCRIPTION]: input.description,
    [OI.INPUT_VALUE]: input.input,
    [OI.OUTPUT_VALUE]: input.output,
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
    [ATTR_GEN_AI_TOOL_NAME]: input.tool,
    [REFLEXION_ATTR.trial]: input.trial,
    [REFLEXION_ATTR.eventId]: input.eventId,
  };
  if (input.step !== null) attributes[REFLEXION_ATTR.step] = input.step;
  return attributes;
}

/** The Evaluator's verdict: OpenInference EVALUATOR. */
export function evaluatorAttributes(event: RunEventOf<"evaluation-end">): Attributes {
  const { data } = event;
  return {
    [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.EVALUATOR,
    [OI.INPUT_VALUE]: `trial ${data.trial}`,
    [OI.OUTPUT_VALUE]: JSON.stringify({ verdict: data.verdict, score: data.score, feedback: data.feedback }),
    [OI.METADATA]: JSON.stringify({ evaluatorKind: data.evaluatorKind, oracle: data.oracle, falsePositive: data.falsePositive }),
    [ATTR_GEN_AI_EVALUATION_NAME]: data.evaluatorKind,
    [ATTR_GEN_AI_EVALUATION_SCORE_VALUE]: data.score,
    [ATTR_GEN_AI_EVALUATION_SCORE_LABEL]: data.verdict,
    [REFLEXION_ATTR.trial]: data.trial,
    [REFLEXION_ATTR.oracle]: data.oracle,
    [REFLEXION_ATTR.falsePositive]: data.falsePositive,
    [REFLEXION_ATTR.eventId]: event.id,
  };
}

/** The attributes of the `gen_ai.evaluation.result` span event (OTel GenAI events, Development). */
export function evaluationResultEventAttributes(event: RunEventOf<"evaluation-end">): Attributes {
  return {
    [ATTR_GEN_AI_EVALUATION_NAME]: event.data.evaluatorKind,
    [ATTR_GEN_AI_EVALUATION_SCORE_VALUE]: event.data.score,
    [ATTR_GEN_AI_EVALUATION_SCORE_LABEL]: event.data.verdict,
    [ATTR_GEN_AI_EVALUATION_EXPLANATION]: event.data.feedback,
  };
}
