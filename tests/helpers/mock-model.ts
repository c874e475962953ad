import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart, LanguageModelV3StreamResult, LanguageModelV3Usage } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { demoReply, type DemoScriptBook } from "@/lib/llm/demo-model";

/** The prompt text of a recorded call: every text part of every message, joined. */
export function promptText(call: LanguageModelV3CallOptions): string {
  return call.prompt
    .map((message) =>
      typeof message.content === "string"
        ? message.content
        : message.content.map((part) => ("text" in part && typeof part.text === "string" ? part.text : "")).join(""),
    )
    .join("\n\n");
}

/** The usage a streamed answer reports unless a test gives its own: 100 input and 10 output tokens, nothing cached. */
const DEFAULT_USAGE: LanguageModelV3Usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
};

/** One streamed answer: the text in a single delta, then a finish reporting `usage` (tokens; default {@link DEFAULT_USAGE}). */
export function streamOf(text: string, usage: LanguageModelV3Usage = DEFAULT_USAGE): LanguageModelV3StreamResult {
  const chunks: LanguageModelV3StreamPart[] = [
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: text },
    { type: "text-end", id: "t" },
    {
      type: "finish",
      finishReason: { unified: "stop", raw: undefined },
      usage,
    },
  ];
  return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
}

/**
 * An AI SDK MockLanguageModelV3 that answers its n-th streamed call with
 * `replies[n - 1]`, whatever the prompt says — tests script a run by call order,
 * the way the AI SDK's own tests queue results, and assert on what reached a
 * prompt through `model.doStreamCalls` and {@link promptText}.
 *
 * A reply that is an `Error` makes that call reject with it (a provider failure).
 * A call beyond the queue throws an Error naming the call number and the last
 * 200 characters of its prompt, so a test that queued too few replies (or an
 * engine that makes an extra call) fails loudly rather than streaming nothing.
 *
 * The mock's array form of `doStream` is not used directly because it answers
 * `undefined` past its end and cannot reject; the call number is still the
 * mock's own count of recorded calls.
 */
export function queuedMockModel(replies: ReadonlyArray<string | Error>): MockLanguageModelV3 {
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    doStream: async (call) => {
      const n = model.doStreamCalls.length;
      const reply = replies[n - 1];
      if (reply === undefined) {
        throw new Error(
          `queuedMockModel: call ${n} arrived but only ${replies.length} replies were queued; the prompt ends: ${JSON.stringify(promptText(call).slice(-200))}`,
        );
      }
      if (reply instanceof Error) throw reply;
      return streamOf(reply);
    },
  });
  return model;
}

/**
 * An AI SDK MockLanguageModelV3 that answers as the product's offline demo model
 * does ({@link demoReply} over `books`, which reads the prompt: that is the demo
 * behaviour under test), and records every call in `doStreamCalls`. Tests that
 * script a run of their own use {@link queuedMockModel}.
 */
export function demoMockModel(books: readonly DemoScriptBook[]): MockLanguageModelV3 {
  return new MockLanguageModelV3({ doStream: async (call) => streamOf(demoReply(books, promptText(call))) });
}
