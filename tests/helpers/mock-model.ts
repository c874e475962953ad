import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";

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

/**
 * An AI SDK MockLanguageModelV3 whose streamed answer is `respond(prompt)`; it
 * records every call in `doStreamCalls`. A responder may throw to simulate a
 * provider failure.
 */
export function scriptedMockModel(respond: (prompt: string, call: LanguageModelV3CallOptions) => string): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doStream: async (call) => {
      const text = respond(promptText(call), call);
      const chunks: LanguageModelV3StreamPart[] = [
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: text },
        { type: "text-end", id: "t" },
        {
          type: "finish",
          finishReason: { unified: "stop", raw: undefined },
          usage: {
            inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined },
            outputTokens: { total: 10, text: 10, reasoning: undefined },
          },
        },
      ];
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
    },
  });
}
