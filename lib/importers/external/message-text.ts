import type { ExternalMessage } from "./external-trace";
import { isObject, str } from "./json-records";

/**
 * Chat messages as the trace formats write them, read into {@link ExternalMessage}s. The shapes read:
 *
 * - `{role, content}` — OpenAI Chat Completions, Inspect `ChatMessage`, the LangSmith "LangChain format"
 *   (docs.langchain.com/langsmith/log-llm-trace) and Langfuse generation inputs;
 * - LangChain's serialised messages `{lc: 1, type: "constructor", id: [..., "HumanMessage"], kwargs: {content, …}}`;
 * - LangChain's `messages_to_dict` form `{type: "human", data: {content, …}}` and `{type: "ai", content}`.
 *
 * Content is a string or a list of parts; the text of a list is its text parts joined by newlines —
 * the rule of Inspect's `ChatMessage.text` (inspect_ai/model/_chat_message.py) — with
 * `input_text` / `output_text` parts (OpenAI Responses) and `tool_result` parts (Anthropic) read too.
 */

/** A tool call an assistant message asked for. */
export interface ToolCallText {
  id: string | null;
  name: string;
  /** The arguments as text: a JSON string as written, or the arguments object serialised. */
  input: string;
}

const TEXT_PART_TYPES = new Set(["text", "input_text", "output_text"]);

/** The text of a message content: a string as is; the text parts of a list joined by "\n"; "" otherwise. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    const texts: string[] = [];
    for (const part of content) {
      if (typeof part === "string") texts.push(part);
      else if (isObject(part)) {
        const type = part.type;
        if (typeof type === "string" && TEXT_PART_TYPES.has(type) && typeof part.text === "string") texts.push(part.text);
        else if (type === "tool_result") texts.push(contentText(part.content));
      }
    }
    return texts.join("\n");
  }
  if (isObject(content) && typeof content.text === "string") return content.text;
  return "";
}

/** Any value as display text: strings as is, null/undefined as null, anything else as JSON. */
export function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** A role as written (`human`, `ai`, `developer`, `function`, …) mapped to the four roles, or null. */
export function normaliseRole(role: unknown): ExternalMessage["role"] | null {
  if (typeof role !== "string") return null;
  switch (role.toLowerCase()) {
    case "system":
    case "developer":
      return "system";
    case "user":
    case "human":
      return "user";
    case "assistant":
    case "ai":
    case "model":
      return "assistant";
    case "tool":
    case "function":
      return "tool";
    default:
      return null;
  }
}

const LANGCHAIN_CLASS_ROLES: Record<string, ExternalMessage["role"]> = {
  HumanMessage: "user",
  HumanMessageChunk: "user",
  AIMessage: "assistant",
  AIMessageChunk: "assistant",
  SystemMessage: "system",
  ToolMessage: "tool",
  FunctionMessage: "tool",
};

/** The fields of a message whatever its wrapper: LangChain's `kwargs` / `data`, or the object itself. */
function messageBody(value: Record<string, unknown>): Record<string, unknown> {
  if (value.lc === 1 && isObject(value.kwargs)) return value.kwargs;
  if (isObject(value.data) && ("content" in value.data || "tool_calls" in value.data)) return value.data;
  return value;
}

/** The role of a message in any of the shapes read, or null when it has none. */
function messageRole(value: Record<string, unknown>, body: Record<string, unknown>): ExternalMessage["role"] | null {
  if (value.lc === 1 && Array.isArray(value.id)) {
    const className = value.id[value.id.length - 1];
    if (typeof className === "string" && LANGCHAIN_CLASS_ROLES[className]) return LANGCHAIN_CLASS_ROLES[className];
  }
  return normaliseRole(body.role) ?? normaliseRole(value.role) ?? normaliseRole(body.type) ?? normaliseRole(value.type);
}

/** One message in any of the shapes read, or null when it is not a message. */
export function toExternalMessage(value: unknown): ExternalMessage | null {
  if (typeof value === "string") return { role: "user", content: value };
  if (!isObject(value)) return null;
  const body = messageBody(value);
  const role = messageRole(value, body);
  if (!role) return null;
  return { role, content: contentText(body.content) };
}

/**
 * A list of messages: a flat list, or LangChain's batched list of lists (the first batch is read).
 * Items that are not messages are skipped.
 */
export function toExternalMessages(value: unknown): ExternalMessage[] {
  if (!Array.isArray(value)) return [];
  const list = value.length > 0 && Array.isArray(value[0]) ? (value[0] as unknown[]) : value;
  return list.map(toExternalMessage).filter((message): message is ExternalMessage => message !== null);
}

/** Tool-call arguments as text (JSON strings are kept as written). */
export function argumentsText(args: unknown): string {
  if (typeof args === "string") return args;
  return asText(args ?? {}) ?? "{}";
}

/**
 * The tool calls of an assistant message: Inspect `{id, function, arguments}`, OpenAI
 * `{id, function: {name, arguments}}`, LangChain `{id, name, args}` (in `tool_calls` or as `tool_call`
 * content parts) and Anthropic `tool_use` parts `{id, name, input}`.
 */
export function toolCallsOf(message: unknown): ToolCallText[] {
  if (!isObject(message)) return [];
  const body = messageBody(message);
  const calls: ToolCallText[] = [];
  const listed = Array.isArray(body.tool_calls) ? body.tool_calls : [];
  for (const call of listed) {
    if (!isObject(call)) continue;
    if (isObject(call.function)) {
      const name = str(call.function.name);
      if (name) calls.push({ id: str(call.id), name, input: argumentsText(call.function.arguments) });
    } else {
      const name = str(call.function) ?? str(call.name);
      if (name) calls.push({ id: str(call.id), name, input: argumentsText(call.arguments ?? call.args) });
    }
  }
  if (calls.length === 0 && Array.isArray(body.content)) {
    for (const part of body.content) {
      if (!isObject(part) || (part.type !== "tool_call" && part.type !== "tool_use")) continue;
      const name = str(part.name);
      if (name) calls.push({ id: str(part.id), name, input: argumentsText(part.args ?? part.input) });
    }
  }
  return calls;
}

const INPUT_KEYS = ["input", "question", "query", "prompt", "task", "text"];
const OUTPUT_KEYS = ["output", "answer", "result", "response", "text", "completion"];

/** The text of the last message with `role` in a list of messages, or null. */
function lastText(messages: unknown, role: ExternalMessage["role"]): string | null {
  const list = toExternalMessages(messages).filter((message) => message.role === role && message.content.length > 0);
  return list[list.length - 1]?.content ?? null;
}

/**
 * The text of a model's or agent's output in the shapes the trace formats write: a string; an OpenAI
 * completion `{choices: [{message}]}`; LangChain `{generations: [[{text, message}]]}`; `{messages: [...]}`
 * (the last assistant message); a message `{role, content}`; `{output | answer | result | …: string}`.
 * Tool calls are shown as `name(arguments)` when the message has no text. Null when there is nothing.
 */
export function outputTextOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return lastText(value, "assistant") ?? asText(value);
  if (!isObject(value)) return asText(value);
  const choice = Array.isArray(value.choices) ? value.choices[0] : undefined;
  if (isObject(choice)) return messageOutputText(choice.message ?? choice) ?? (typeof choice.text === "string" ? choice.text : null);
  const generation = Array.isArray(value.generations) ? (Array.isArray(value.generations[0]) ? value.generations[0][0] : value.generations[0]) : undefined;
  if (isObject(generation)) return (isObject(generation.message) ? messageOutputText(generation.message) : null) ?? (typeof generation.text === "string" ? generation.text : null);
  if (Array.isArray(value.messages)) {
    const assistants = value.messages.filter((message) => toExternalMessage(message)?.role === "assistant");
    if (assistants.length > 0) return messageOutputText(assistants[assistants.length - 1]);
  }
  if (isObject(value.message)) return messageOutputText(value.message);
  if ("role" in value || value.lc === 1) return messageOutputText(value);
  for (const key of OUTPUT_KEYS) if (key in value) return outputTextOf(value[key]);
  if ("content" in value) return contentText(value.content);
  return asText(value);
}

/** An assistant message's text, or its tool calls as `name(arguments)` lines when it has none. */
function messageOutputText(message: unknown): string | null {
  const text = toExternalMessage(message)?.content ?? "";
  if (text) return text;
  const calls = toolCallsOf(message);
  return calls.length > 0 ? calls.map((call) => `${call.name}(${call.input})`).join("\n") : null;
}

/**
 * The text of an agent's input: a string; a list of messages (the last user message); an object's
 * `input | question | query | prompt | task | text` string or its `messages`; else the object as JSON.
 */
export function inputTextOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return lastText(value, "user") ?? asText(value);
  if (!isObject(value)) return asText(value);
  for (const key of INPUT_KEYS) if (typeof value[key] === "string") return value[key] as string;
  if (Array.isArray(value.messages)) return lastText(value.messages, "user") ?? asText(value);
  for (const key of INPUT_KEYS) if (key in value) return inputTextOf(value[key]);
  return asText(value);
}

/**
 * A short stable id for a task known only by its input: `input:` and the FNV-1a 32-bit hash of the
 * text in hex (not cryptographic — it only groups attempts at the same input).
 */
export function inputTaskId(input: string | null): string {
  let hash = 0x811c9dc5;
  for (const ch of input ?? "") {
    hash ^= ch.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `input:${hash.toString(16).padStart(8, "0")}`;
}

/**
 * The assistant message of a model output — `choices[0].message` (OpenAI), `generations[0][0].message`
 * (LangChain), `message`, the last of `messages` — else the output itself.
 */
export function outputMessageOf(value: unknown): unknown {
  if (!isObject(value)) return value;
  const choice = Array.isArray(value.choices) ? value.choices[0] : undefined;
  if (isObject(choice) && isObject(choice.message)) return choice.message;
  const batch = Array.isArray(value.generations) ? value.generations[0] : undefined;
  const generation = Array.isArray(batch) ? batch[0] : batch;
  if (isObject(generation) && isObject(generation.message)) return generation.message;
  if (isObject(value.message)) return value.message;
  if (Array.isArray(value.messages) && value.messages.length > 0) return value.messages[value.messages.length - 1];
  return value;
}

/**
 * One model turn for step-building: whether it asked for tools, and its thought — the message text
 * when it asked for tools, else the whole output text.
 */
export function modelTurn(output: unknown): { asksForTools: boolean; text: string } {
  const message = outputMessageOf(output);
  const asksForTools = toolCallsOf(message).length > 0;
  return { asksForTools, text: asksForTools ? (toExternalMessage(message)?.content ?? "") : (outputTextOf(output) ?? "") };
}
