import type { ExternalCall, ExternalStep, ExternalTrace, ExternalVerdict, RawRecord } from "./external-trace";
import { arr, isObject, num, str } from "./json-records";
import { asText, contentText, toExternalMessages, toolCallsOf } from "./message-text";
import { verdictFromValue } from "./score-verdict";
import { isoTime, spanMs } from "./trace-time";

/**
 * One Inspect AI sample (an `EvalSample` of inspect_ai/log/_log.py, one epoch) as an
 * {@link ExternalTrace}. Field names follow inspect_ai's source (log/_log.py, event/*.py,
 * model/_chat_message.py, model/_model_output.py, tool/_tool_call.py, log/_condense.py):
 *
 * - steps: one per tool call of each assistant message in `messages` (the message's text is the
 *   thought of its first step; the `tool` message whose `tool_call_id` matches is the observation,
 *   else the `ToolEvent` with that id); an assistant message without tool calls is a step with no
 *   action — the last one carries the final answer; a `submit` tool call's `answer` argument is an answer.
 *   A sample with no messages but `tool` events gets one step per ToolEvent.
 * - calls: one per `ModelEvent` (`input` or its pooled `input_refs` into `events_data.messages`;
 *   `output.usage` tokens and `total_cost`; latency from `timestamp` → `completed`, else
 *   `output.time` or `working_time`), linked to the step made from its output message.
 * - verdict: the chosen scorer's `Score` in `scores` (by name, else the first that reads as pass / fail).
 * - `attachment://<hash>` references are resolved from `attachments` before reading.
 * - events other than model, tool, score, score_edit, sample_init, state, store, span_begin,
 *   span_end and step are kept as raw records `event:<type>`; a sample `error` as `sample:error`.
 */

/** What the log says about every sample. */
export interface InspectLogContext {
  /** `eval.task`. */
  task: string;
  /** `eval.model` in the contract's form (`openai:gpt-4o`), or null. */
  model: string | null;
  /** `eval.eval_id` or `eval.run_id`, for trace ids of samples without a `uuid`. */
  evalId: string;
  /** True when the log ran more than one epoch (titles then name the epoch). */
  multiEpoch: boolean;
  /** The scorer whose score is the verdict; null = the first that reads. */
  scorer: string | null;
  passThreshold?: number;
}

/** A trace and the notes (problems) reading it raised. */
export interface SampleReading {
  trace: ExternalTrace;
  notes: string[];
}

/** Event types read into steps, calls and the verdict, or structural ones with nothing to show. */
const KNOWN_EVENTS = new Set(["model", "tool", "score", "score_edit", "sample_init", "state", "store", "span_begin", "span_end", "step"]);

/** Inspect writes models as `<provider>/<model>`; the contract's form is `<provider>:<model>`. */
export function inspectModelName(model: unknown): string | null {
  const name = str(model);
  if (!name) return null;
  const slash = name.indexOf("/");
  return slash > 0 ? `${name.slice(0, slash)}:${name.slice(slash + 1)}` : name;
}

/** A copy of `value` with every `attachment://<hash>` string replaced by its attachment (when present). */
function resolveAttachments(value: unknown, attachments: Record<string, unknown>): unknown {
  if (typeof value === "string") {
    if (!value.startsWith("attachment://")) return value;
    const content = attachments[value.slice("attachment://".length)];
    return typeof content === "string" ? content : value;
  }
  if (Array.isArray(value)) return value.map((item) => resolveAttachments(item, attachments));
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = resolveAttachments(item, attachments);
    return out;
  }
  return value;
}

/** The events of a sample, with nested `events` of tool and subtask events (older logs) after their parent. */
function flattenEvents(events: unknown[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const event of events) {
    if (!isObject(event)) continue;
    out.push(event);
    const nested = arr(event.events);
    if (nested.length > 0 && (event.event === "tool" || event.event === "subtask")) out.push(...flattenEvents(nested));
  }
  return out;
}

/** A ModelEvent's input messages, expanding range-encoded `input_refs` against the sample's message pool. */
function modelInput(event: Record<string, unknown>, pool: unknown[]): unknown[] {
  const input = arr(event.input);
  if (input.length > 0 || !Array.isArray(event.input_refs)) return input;
  const out: unknown[] = [];
  for (const ref of event.input_refs) {
    if (!Array.isArray(ref) || ref.length !== 2) continue;
    const [start, end] = ref;
    if (typeof start !== "number" || typeof end !== "number") continue;
    for (let i = start; i < end && i < pool.length; i += 1) out.push(pool[i]);
  }
  return out;
}

/** The text of a model output: `completion`, else the first choice's message text, else its tool calls. */
function outputText(output: unknown): string {
  if (!isObject(output)) return "";
  const completion = str(output.completion);
  if (completion) return completion;
  const message = isObject(arr(output.choices)[0]) ? (arr(output.choices)[0] as Record<string, unknown>).message : null;
  const text = isObject(message) ? contentText(message.content) : "";
  if (text) return text;
  return toolCallsOf(message)
    .map((call) => `${call.name}(${call.input})`)
    .join("\n");
}

function outputMessage(output: unknown): Record<string, unknown> | null {
  if (!isObject(output)) return null;
  const choice = arr(output.choices)[0];
  return isObject(choice) && isObject(choice.message) ? choice.message : null;
}

/** The text of a sample's `input`: a string, or the text of its user messages. */
function inputText(input: unknown): string | null {
  if (typeof input === "string") return input;
  const texts = arr(input)
    .filter((message) => isObject(message) && message.role === "user")
    .map((message) => contentText((message as Record<string, unknown>).content))
    .filter((text) => text.length > 0);
  return texts.length > 0 ? texts.join("\n\n") : null;
}

/** A `target` (a string or a list of acceptable answers) as text. */
function targetText(target: unknown): string | null {
  if (typeof target === "string") return target.length > 0 ? target : null;
  const list = arr(target).filter((item): item is string => typeof item === "string");
  return list.length > 0 ? list.join(" | ") : null;
}

/** A tool message's or tool event's result as observation text (an error is named as such). */
function toolResultText(content: unknown, error: unknown): string | null {
  const text = typeof content === "string" || Array.isArray(content) ? contentText(content) : asText(content);
  if (isObject(error) && str(error.message)) {
    const prefix = `Error (${str(error.type) ?? "unknown"}): ${error.message}`;
    return text ? `${prefix}\n${text}` : prefix;
  }
  return text ?? null;
}

/** The answer a `submit`-style tool call carries, or null. */
function submittedAnswer(tool: string, input: string): string | null {
  if (tool !== "submit") return null;
  try {
    const parsed: unknown = JSON.parse(input);
    if (isObject(parsed)) return asText(parsed.answer ?? Object.values(parsed)[0]) ?? null;
  } catch {
    return input;
  }
  return null;
}

/** Reads one sample. @throws only on a programming error; shape problems become notes. */
export function traceFromSample(rawSample: Record<string, unknown>, context: InspectLogContext): SampleReading {
  const attachments = isObject(rawSample.attachments) ? rawSample.attachments : {};
  const sample = Object.keys(attachments).length > 0 ? (resolveAttachments({ ...rawSample, attachments: {} }, attachments) as Record<string, unknown>) : rawSample;
  const notes: string[] = [];
  const id = asText(sample.id) ?? "?";
  const epoch = num(sample.epoch) ?? 1;
  const events = flattenEvents(arr(sample.events));
  const pool = isObject(sample.events_data) ? arr(sample.events_data.messages) : [];

  const toolMessages = new Map<string, Record<string, unknown>>();
  for (const message of arr(sample.messages)) {
    if (isObject(message) && message.role === "tool" && str(message.tool_call_id)) toolMessages.set(message.tool_call_id as string, message);
  }
  const toolEvents = new Map<string, Record<string, unknown>>();
  for (const event of events) if (event.event === "tool" && str(event.id)) toolEvents.set(event.id as string, event);
  const modelEvents = events.filter((event) => event.event === "model");

  // Which ModelEvent produced an assistant message: same message id, else same first tool-call id, else same text.
  const eventOfMessage = (message: Record<string, unknown>): Record<string, unknown> | null => {
    const messageId = str(message.id);
    const firstCall = toolCallsOf(message)[0]?.id ?? null;
    const text = contentText(message.content);
    for (const event of modelEvents) {
      const produced = outputMessage(event.output);
      if (!produced) continue;
      if (messageId && str(produced.id) === messageId) return event;
      if (firstCall && toolCallsOf(produced)[0]?.id === firstCall) return event;
      if (!messageId && !firstCall && text && contentText(produced.content) === text) return event;
    }
    return null;
  };

  const steps: ExternalStep[] = [];
  const stepOfEvent = new Map<Record<string, unknown>, number>();
  const assistants = arr(sample.messages).filter((message): message is Record<string, unknown> => isObject(message) && message.role === "assistant");
  assistants.forEach((message, index) => {
    const text = contentText(message.content) || null;
    const calls = toolCallsOf(message);
    const event = eventOfMessage(message);
    if (event && !stepOfEvent.has(event)) stepOfEvent.set(event, steps.length);
    const turnStart = event ? isoTime(event.timestamp) : null;
    const sourceId = str(message.id);
    if (calls.length === 0) {
      const last = index === assistants.length - 1;
      steps.push({ thought: last ? null : text, action: null, observation: null, answer: last ? text : null, startedAt: turnStart, sourceId });
      return;
    }
    calls.forEach((call, callIndex) => {
      const toolMessage = call.id ? toolMessages.get(call.id) : undefined;
      const toolEvent = call.id ? toolEvents.get(call.id) : undefined;
      const observation = toolMessage ? toolResultText(toolMessage.content, toolMessage.error) : toolEvent ? toolResultText(toolEvent.result, toolEvent.error) : null;
      steps.push({
        thought: callIndex === 0 ? text : null,
        action: { tool: call.name, input: call.input },
        observation,
        answer: submittedAnswer(call.name, call.input),
        startedAt: (callIndex === 0 ? turnStart : null) ?? (toolEvent ? isoTime(toolEvent.timestamp) : null),
        sourceId: call.id ?? sourceId,
      });
    });
  });
  if (steps.length === 0) {
    for (const event of toolEvents.values()) {
      const tool = str(event.function) ?? "tool";
      const input = asText(event.arguments ?? {}) ?? "{}";
      steps.push({ thought: null, action: { tool, input }, observation: toolResultText(event.result, event.error), answer: submittedAnswer(tool, input), startedAt: isoTime(event.timestamp), sourceId: str(event.id) });
    }
  }

  const calls: ExternalCall[] = modelEvents.map((event) => {
    const output = isObject(event.output) ? event.output : {};
    const usage = isObject(output.usage) ? output.usage : {};
    const outputSeconds = num(output.time) ?? num(event.working_time);
    return {
      model: inspectModelName(event.model) ?? inspectModelName(output.model) ?? context.model ?? "unknown",
      messages: toExternalMessages(modelInput(event, pool)),
      outputText: outputText(output),
      inputTokens: num(usage.input_tokens),
      outputTokens: num(usage.output_tokens),
      costUsd: num(usage.total_cost),
      latencyMs: spanMs(event.timestamp, event.completed) ?? (outputSeconds === null ? null : Math.round(outputSeconds * 1000)),
      stepIndex: stepOfEvent.get(event) ?? null,
      sourceId: str(event.uuid),
    };
  });

  const unknown: RawRecord[] = [];
  for (const event of events) {
    const type = str(event.event) ?? "unknown";
    if (KNOWN_EVENTS.has(type)) continue;
    unknown.push({ kind: `event:${type}`, name: str(event.source) ?? str(event.name) ?? type, data: event });
  }
  if (isObject(sample.error)) unknown.push({ kind: "sample:error", name: str(sample.error.message) ?? "error", data: sample.error });

  const verdict = sampleVerdict(sample.scores, context, notes);
  const lastAssistant = assistants[assistants.length - 1];
  const output = outputText(sample.output) || (lastAssistant ? contentText(lastAssistant.content) : "") || null;
  const timestamps = events.map((event) => isoTime(event.timestamp)).filter((time): time is string => time !== null);

  const trace: ExternalTrace = {
    format: "inspect",
    traceId: str(sample.uuid) ?? `${context.evalId}:${id}:${epoch}`,
    title: `${context.task} · sample ${id}${context.multiEpoch ? ` (epoch ${epoch})` : ""}`,
    taskId: `${context.task}:${id}`,
    input: inputText(sample.input),
    target: targetText(sample.target),
    output,
    steps,
    calls,
    verdict,
    model: calls[0]?.model ?? context.model,
    unknown,
    startedAt: isoTime(sample.started_at) ?? timestamps[0] ?? null,
    endedAt: isoTime(sample.completed_at) ?? timestamps[timestamps.length - 1] ?? null,
  };
  return { trace, notes };
}

/** The verdict from `scores` ({scorer name: Score}): the named scorer, else the first that reads. */
function sampleVerdict(scores: unknown, context: InspectLogContext, notes: string[]): ExternalVerdict | null {
  if (!isObject(scores) || Object.keys(scores).length === 0) return null;
  const names = Object.keys(scores);
  const read = (name: string) => {
    const score = scores[name];
    const value = isObject(score) ? score.value : undefined;
    const explanation = isObject(score) ? (str(score.explanation) ?? "") : "";
    return verdictFromValue(value, { name, source: `Inspect scorer \`${name}\``, explanation }, { passThreshold: context.passThreshold });
  };
  if (context.scorer) {
    if (!(context.scorer in scores)) {
      notes.push(`no score from scorer \`${context.scorer}\` (the sample has ${names.map((name) => `\`${name}\``).join(", ")}); no verdict`);
      return null;
    }
    const { verdict, note } = read(context.scorer);
    if (note) notes.push(note);
    return verdict;
  }
  const skipped: string[] = [];
  for (const name of names) {
    const { verdict, note } = read(name);
    if (verdict) {
      if (note) notes.push(note);
      return verdict;
    }
    if (note) skipped.push(note);
  }
  notes.push(...skipped);
  return null;
}
