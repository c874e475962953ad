import { readContextLengthError, type ContextLengthLimit } from "@/lib/domain/context-length";
import type { ChatMessage } from "@/lib/domain/events";
import type { ContextWindow } from "@/lib/domain/model-windows";
import { countTokens } from "@/lib/domain/tokenizer";
import { ModelCallError, type ModelResponse } from "./ports";
import type { BuiltPrompt, PromptFit } from "./prompts";

/**
 * One shrink-and-retry after a provider's context-length error
 * (docs/decisions/0016): the prompt is rebuilt for a budget that fits the
 * limit the provider stated (or half its size when it stated none), the call
 * is made once more, and the change is recorded on the call's `adjustments`.
 * If it is still too long, or nothing could be shrunk, the error is thrown
 * again with a message that says so; the engine records it and pauses.
 */

/** Rebuilds a prompt for a tighter budget (lib/engine/prompts.ts `buildActorPrompt` / `buildReflectorPrompt` with a fit). */
export type PromptShrinker = (fit: PromptFit) => BuiltPrompt;

/** The call that ran into the limit. */
export interface ShrinkSubject {
  modelId: string;
  /** The messages that were too long. */
  messages: ChatMessage[];
  /** The call's `maxOutputTokens` (the completion needs room in the window too). */
  maxOutputTokens: number;
  window: ContextWindow;
}

/** Share of the room left for the prompt that the shrunk prompt may use: a margin for the difference between our count and the provider's. */
export const SHRINK_MARGIN = 0.95;

/** Texts of an error and its causes (message, HTTP response body), where a provider's numbers are. */
function textsOf(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== null && typeof current === "object"; depth += 1) {
    const { message, responseBody, lastError } = current as { message?: unknown; responseBody?: unknown; lastError?: unknown };
    if (typeof message === "string") parts.push(message);
    if (typeof responseBody === "string") parts.push(responseBody);
    current = lastError ?? (current as { cause?: unknown }).cause;
  }
  return parts.join("\n");
}

/** The limit a context-length error states, read from it and its causes; null numbers when it gave none. */
export function contextLimitOf(error: unknown): ContextLengthLimit {
  return readContextLengthError(textsOf(error)) ?? { maxTokens: null, promptTokens: null };
}

/**
 * The token budget (our count) for the shrunk prompt: `SHRINK_MARGIN` × (the
 * stated window − the completion's `maxOutputTokens`), converted to our count
 * by the ratio of the provider's prompt count to ours when it gave one
 * (clamped to 0.5–3). Without a stated window, the model's {@link ContextWindow};
 * when that says the prompt fits (the table does not know the server's
 * setting), half the prompt. Always below `ours` (unless `ours` is 0).
 */
export function shrinkTarget(ours: number, limit: ContextLengthLimit, maxOutputTokens: number, window: ContextWindow): number {
  const maxTokens = limit.maxTokens ?? window.tokens;
  const ratio = limit.promptTokens !== null && ours > 0 ? Math.min(3, Math.max(0.5, limit.promptTokens / ours)) : 1;
  const target = Math.floor((SHRINK_MARGIN * Math.max(0, maxTokens - maxOutputTokens)) / ratio);
  return target < ours ? target : Math.floor(ours / 2);
}

const n = (value: number) => value.toLocaleString("en-US");

/** What shrinking left out, for the adjustment note: "3 observations omitted, steps 1–2 left out". */
function shrinkDetail(built: BuiltPrompt): string {
  const shrink = built.shrink;
  if (!shrink) return "";
  const parts = [
    shrink.omittedObservations > 0 ? `${shrink.omittedObservations} observation${shrink.omittedObservations === 1 ? "" : "s"} omitted` : null,
    shrink.droppedSteps > 0 ? `${shrink.droppedSteps} oldest step${shrink.droppedSteps === 1 ? "" : "s"} left out` : null,
  ].filter((part) => part !== null);
  return parts.length > 0 ? `; ${parts.join(", ")}` : "";
}

/**
 * Shrinks the prompt of a call that failed with `error` (code `context-length`)
 * and asks once more.
 * @returns the response, the messages sent and the note for `adjustments`
 *   ("prompt shrunk from 9,812 to 3,900 tokens after a context-length error (…)").
 * @throws ModelCallError (`context-length`) when there is no `shrink`, nothing
 *   could be shrunk, or the shrunk prompt is still too long; any other error of the retry as it is.
 */
export async function retryAfterContextLength(
  error: ModelCallError,
  subject: ShrinkSubject,
  shrink: PromptShrinker | undefined,
  ask: (messages: ChatMessage[]) => Promise<ModelResponse>,
): Promise<{ response: ModelResponse; messages: ChatMessage[]; note: string }> {
  const measure = (text: string) => countTokens(subject.modelId, [{ role: "user", content: text }]).tokens;
  const before = countTokens(subject.modelId, subject.messages);
  const approx = before.exact ? "" : "~";
  const limit = contextLimitOf(error);
  const windowText = `window ${n(limit.maxTokens ?? subject.window.tokens)} tokens${limit.maxTokens === null ? "" : " by the provider"}`;
  const built = shrink?.({ target: shrinkTarget(before.tokens, limit, subject.maxOutputTokens, subject.window), measure });
  const after = built ? countTokens(subject.modelId, built.messages) : before;
  if (!built || after.tokens >= before.tokens) {
    throw again(
      error,
      `Nothing in the prompt could be shrunk (${approx}${n(before.tokens)} tokens, ${windowText}; the task, the examples and the memory are never cut).`,
      error.attempts,
    );
  }
  const note = `prompt shrunk from ${approx}${n(before.tokens)} to ${approx}${n(after.tokens)} tokens after a context-length error (${windowText}${shrinkDetail(built)})`;
  try {
    return { response: await ask(built.messages), messages: built.messages, note };
  } catch (second) {
    if (second instanceof ModelCallError && second.code === "context-length") {
      throw again(
        second,
        `The prompt is still too long after one shrink-and-retry (shrunk from ${approx}${n(before.tokens)} to ${approx}${n(after.tokens)} tokens${shrinkDetail(built)}; the task, the examples and the memory are never cut).`,
        error.attempts + second.attempts,
      );
    }
    throw second;
  }
}

/** A `context-length` error whose message starts with `what` and goes on with the provider's message and advice. */
function again(error: ModelCallError, what: string, attempts: number): ModelCallError {
  return new ModelCallError(`${what} ${error.message}`, { code: "context-length", retryable: false, attempts, cause: error });
}
