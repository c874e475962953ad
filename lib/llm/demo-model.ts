import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { DEMO_MODEL_ID } from "@/lib/domain/model-id";
import type { DemoScriptBook } from "@/lib/domain/demo-script";
import { MEMORY_SUMMARY_LIST_HEADER, MEMORY_SUMMARY_PROMPT_END } from "@/lib/domain/memory-summary";
import { CHARS_PER_TOKEN, estimateTokens } from "@/lib/domain/token-estimate";
import { lessonsOf } from "@/lib/domain/optimiser/lessons";
import { FEEDBACK_PROMPT_END, REFINE_PROMPT_END, REFINE_STOP_PHRASE, reviewedAnswerOf } from "@/lib/domain/self-refine";

/**
 * The offline demo model: a deterministic, clearly labelled scripted stand-in
 * (DESIGN.md §4). It is a real AI SDK `LanguageModelV3`, so the engine calls it
 * through exactly the same `streamText` path as a hosted provider: stop
 * sequences, usage, finish reasons and streaming all behave like the real thing.
 *
 * What it says comes from {@link DemoScriptBook}s (one per environment family,
 * e.g. the QA book); this module knows nothing about tasks.
 */

/**
 * A script for the demo model (defined in lib/domain/demo-script.ts, re-exported
 * here for convenience). Given the whole prompt as one string (every message's
 * text joined with `"\n\n"`, see {@link flattenPrompt}), it returns the
 * completion, or `null` when it has no script for that prompt.
 */
export type { DemoScriptBook };

/** Provider id reported by the demo model (`LanguageModelV3.provider`). */
export const DEMO_PROVIDER = "demo";

/** Model id of the demo model, both as `LanguageModelV3.modelId` and as the app's model id (lib/domain/model-id). */
export { DEMO_MODEL_ID };

/** Options for {@link createDemoModel}. */
export interface DemoModelOptions {
  /** Scripts to ask, in order; the first non-null answer wins. Default: none (always the fallback). */
  books?: readonly DemoScriptBook[];
  /**
   * Delay between streamed word chunks, in ms (default 0: no added delay; the
   * stream still yields to the event loop between chunks). A small value
   * (e.g. 15) makes the demo visibly "type" in the UI; tests keep 0.
   */
  chunkDelayMs?: number;
  /**
   * Delay of every call before it answers, in ms (default 0), like a hosted
   * model's time to first token: `doStream` and `doGenerate` resolve only after
   * it. Aborting the call's signal during the delay rejects at once with the
   * signal's reason. The text never depends on it (still deterministic).
   */
  callDelayMs?: number;
}

/**
 * Waits `ms` milliseconds (`setTimeout`), or when `ms` is 0 one turn of the
 * event loop (`setImmediate`): either way a macrotask, so timers and I/O of
 * other work (e.g. HTTP requests to the same server) run before it resolves.
 * Rejects with the signal's reason as soon as `signal` aborts (or at once when
 * it already has), and then leaves no timer behind.
 */
export function waitMacrotask(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    let cancel: () => void;
    const onAbort = (): void => {
      cancel();
      reject(abortReason(signal!));
    };
    const done = (): void => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    };
    if (ms > 0) {
      const timer = setTimeout(done, ms);
      cancel = () => clearTimeout(timer);
    } else {
      const immediate = setImmediate(done);
      cancel = () => clearImmediate(immediate);
    }
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** What a fetch-based provider rejects with on abort: the signal's reason (an `AbortError` DOMException by default). */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? Object.assign(new Error("The operation was aborted."), { name: "AbortError" });
}

/**
 * A stream of `parts` that delivers one part per macrotask ({@link waitMacrotask}):
 * each part waits `chunkDelayMs` ms (0 = the next turn of the event loop), so
 * a consumer never receives two parts without the event loop turning between
 * them. Aborting `signal` errors the stream with the signal's reason.
 */
function macrotaskStream<T>(parts: readonly T[], chunkDelayMs: number, signal: AbortSignal | undefined): ReadableStream<T> {
  let index = 0;
  return new ReadableStream<T>({
    async pull(controller) {
      if (index >= parts.length) {
        controller.close();
        return;
      }
      try {
        await waitMacrotask(chunkDelayMs, signal);
      } catch (error) {
        controller.error(error);
        return;
      }
      controller.enqueue(parts[index++]!);
      if (index >= parts.length) controller.close();
    },
  });
}

/**
 * Joins every text part of an AI SDK prompt into one string, messages and parts
 * separated by `"\n\n"`. System messages contribute their content; non-text
 * parts (files, tool calls, reasoning) are ignored.
 */
export function flattenPrompt(prompt: LanguageModelV3Prompt): string {
  const texts: string[] = [];
  for (const message of prompt) {
    if (message.role === "system") {
      texts.push(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === "text") texts.push(part.text);
    }
  }
  return texts.join("\n\n");
}

/**
 * The generic answer used when no script matches. It is clearly marked as the
 * offline demo model and keeps the ReAct format, so the engine can still parse it:
 * - prompt ends with `Thought <n>:` → `" I am the offline demo model and have no script for this task.\nAction <n>: Finish[unknown]"`
 * - prompt ends with `Action <n>:` → `" Finish[unknown]"`
 * - a Self-Refine feedback prompt (ends with `Feedback:`) → a labelled sentence finding nothing to change, with the stop phrase;
 * - a Self-Refine refine prompt (ends with `Improved answer:`) → the answer under review, unchanged;
 * - anything else (e.g. a reflection prompt) → one fallback reflection sentence.
 */
export function fallbackReply(prompt: string): string {
  const tail = prompt.trimEnd();
  const thought = /Thought (\d+):$/.exec(tail);
  if (thought) {
    return ` I am the offline demo model and have no script for this task.\nAction ${thought[1]}: Finish[unknown]`;
  }
  if (/Action \d+:$/.test(tail)) return " Finish[unknown]";
  if (tail.endsWith(FEEDBACK_PROMPT_END)) return `I am the offline demo model (a scripted stand-in) with no feedback script for this task; I find nothing to change. ${REFINE_STOP_PHRASE}`;
  if (tail.endsWith(REFINE_PROMPT_END)) return reviewedAnswerOf(tail) || "unknown";
  // Household prompts end with the command prompt `>`: answer with a harmless `think:` command.
  if (tail.endsWith(">")) return " think: I am the offline demo model and have no script for this task.";
  return "I am the offline demo model and have no scripted reflection for this task; next time I should read the question carefully and check each fact before answering.";
}

/**
 * The demo model's answer to a flattened prompt: the first non-null answer of
 * `books` (asked in order), else {@link fallbackReply}. Pure and deterministic.
 * Stop sequences and the token limit are applied later, by the model itself.
 */
export function demoReply(books: readonly DemoScriptBook[], prompt: string, seed?: number): string {
  const summary = demoMemorySummary(prompt);
  if (summary !== null) return summary;
  for (const book of books) {
    const answer = book.respond(prompt, seed === undefined ? undefined : { seed });
    if (answer !== null) return withReflectionLessons(prompt, answer);
  }
  return fallbackReply(prompt);
}

/**
 * The demo's Self-Reflection restates the lessons block of its template (lib/domain/optimiser/lessons.ts):
 * a reflection prompt (ending with `Reflection:` or the code family's `[self-reflection]:`) that
 * carries one gets its lessons appended to the scripted reflection, so they reach the Actor's memory
 * as a real model following such a template would carry them. Other prompts' answers are unchanged.
 */
export function withReflectionLessons(prompt: string, answer: string): string {
  const tail = prompt.trimEnd();
  if (!/Reflection:$/.test(tail) && !tail.endsWith("[self-reflection]:")) return answer;
  const lessons = lessonsOf(prompt);
  return lessons.length === 0 ? answer : `${answer.trimEnd()} ${lessons.join(" ")}`;
}

/**
 * The demo model's answer to the built-in memory summariser prompt
 * (lib/domain/memory-summary.ts): a prompt ending with
 * {@link MEMORY_SUMMARY_PROMPT_END} whose numbered list follows
 * {@link MEMORY_SUMMARY_LIST_HEADER}. Answers `"Merged from N reflections: "`
 * and the first sentence of each (an earlier summary's without its prefix), in order, repeats
 * dropped; null for any other prompt.
 */
export function demoMemorySummary(prompt: string): string | null {
  const tail = prompt.trimEnd();
  if (!tail.endsWith(MEMORY_SUMMARY_PROMPT_END)) return null;
  const start = tail.lastIndexOf(MEMORY_SUMMARY_LIST_HEADER);
  if (start === -1) return null;
  const items = tail
    .slice(start + MEMORY_SUMMARY_LIST_HEADER.length, tail.length - MEMORY_SUMMARY_PROMPT_END.length)
    .split("\n")
    .map((line) => /^\d+\.\s+(.*)$/.exec(line.trim())?.[1]?.trim() ?? "")
    .filter((text) => text !== "");
  if (items.length === 0) return null;
  // An earlier summary in the list contributes its lessons, not its "Merged from" prefix (so summaries do not nest).
  const lessons = items.map((text) => text.replace(/^Merged from \d+ reflections:\s*/, ""));
  const firsts = [...new Set(lessons.map((text) => (/^.*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text).trim()))];
  return `Merged from ${items.length} reflections: ${firsts.join(" ")}`;
}

/**
 * Cuts `text` at the earliest occurrence of any stop sequence, the way hosted
 * providers do (the stop sequence itself is not returned). Empty stop
 * sequences are ignored.
 */
export function applyStopSequences(text: string, stopSequences: readonly string[] | undefined): { text: string; stopped: boolean } {
  let cut = -1;
  for (const stop of stopSequences ?? []) {
    if (stop === "") continue;
    const index = text.indexOf(stop);
    if (index !== -1 && (cut === -1 || index < cut)) cut = index;
  }
  return cut === -1 ? { text, stopped: false } : { text: text.slice(0, cut), stopped: true };
}

/**
 * Splits text into word-sized chunks: each word with the whitespace after it,
 * leading whitespace joined to the first word (`" I am"` → `[" I ", "am"]`).
 * Joining the chunks gives back `text` exactly.
 */
export function splitIntoWordChunks(text: string): string[] {
  if (text === "") return [];
  return text.match(/\s*\S+\s*/g) ?? [text];
}

interface DemoCompletion {
  text: string;
  finishReason: LanguageModelV3FinishReason;
  usage: LanguageModelV3Usage;
}

function complete(books: readonly DemoScriptBook[], options: LanguageModelV3CallOptions): DemoCompletion {
  options.abortSignal?.throwIfAborted();
  const prompt = flattenPrompt(options.prompt);
  const stopped = applyStopSequences(demoReply(books, prompt, options.seed), options.stopSequences);
  let text = stopped.text;
  let finishReason: LanguageModelV3FinishReason = { unified: "stop", raw: "stop" };
  const limit = options.maxOutputTokens;
  if (limit !== undefined && estimateTokens(text) > limit) {
    text = text.slice(0, limit * CHARS_PER_TOKEN);
    finishReason = { unified: "length", raw: "length" };
  }
  const inputTokens = estimateTokens(prompt);
  const outputTokens = estimateTokens(text);
  return {
    text,
    finishReason,
    usage: {
      inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
    },
  };
}

/**
 * Creates the offline demo model (`provider` "demo", `modelId` "demo").
 *
 * Behaviour, per call: flattens the prompt ({@link flattenPrompt}), asks the
 * books ({@link demoReply}), cuts at the first stop sequence
 * ({@link applyStopSequences}), truncates to `maxOutputTokens` (≈ 4 chars per
 * token; finish reason `length` then, else `stop`). Usage is an estimate
 * ({@link estimateTokens}), never a real tokenizer count. `doStream` emits
 * `stream-start`, `text-start`, word-sized `text-delta`s, `text-end`, `finish`.
 * Same prompt and settings → same text, always. Temperature is ignored; a seed
 * varies what the books answer, deterministically (lib/domain/demo-variation.ts).
 *
 * Asynchronous like a real provider: a call first waits `callDelayMs` (or one
 * turn of the event loop when 0), and the stream delivers each part in its own
 * macrotask (`chunkDelayMs` apart, or one event-loop turn), so a long demo run
 * never holds the event loop for more than one part's work.
 *
 * Throws (rejects with) the abort signal's reason when the call's `abortSignal`
 * is already aborted or aborts during the delay; aborting mid-stream errors the stream.
 */
export function createDemoModel(options: DemoModelOptions = {}): LanguageModelV3 {
  const books = options.books ?? [];
  const chunkDelayMs = Math.max(0, options.chunkDelayMs ?? 0);
  const callDelayMs = Math.max(0, options.callDelayMs ?? 0);
  return {
    specificationVersion: "v3",
    provider: DEMO_PROVIDER,
    modelId: DEMO_MODEL_ID,
    supportedUrls: {},
    async doGenerate(callOptions): Promise<LanguageModelV3GenerateResult> {
      callOptions.abortSignal?.throwIfAborted();
      await waitMacrotask(callDelayMs, callOptions.abortSignal);
      const result = complete(books, callOptions);
      return {
        content: result.text === "" ? [] : [{ type: "text", text: result.text }],
        finishReason: result.finishReason,
        usage: result.usage,
        warnings: [],
        response: { modelId: DEMO_MODEL_ID },
      };
    },
    async doStream(callOptions): Promise<LanguageModelV3StreamResult> {
      callOptions.abortSignal?.throwIfAborted();
      await waitMacrotask(callDelayMs, callOptions.abortSignal);
      const result = complete(books, callOptions);
      const id = "demo-text-0";
      const chunks: LanguageModelV3StreamPart[] = [
        { type: "stream-start", warnings: [] },
        { type: "response-metadata", modelId: DEMO_MODEL_ID },
      ];
      if (result.text !== "") {
        chunks.push({ type: "text-start", id });
        for (const delta of splitIntoWordChunks(result.text)) chunks.push({ type: "text-delta", id, delta });
        chunks.push({ type: "text-end", id });
      }
      chunks.push({ type: "finish", finishReason: result.finishReason, usage: result.usage });
      return { stream: macrotaskStream(chunks, chunkDelayMs, callOptions.abortSignal) };
    },
  };
}
