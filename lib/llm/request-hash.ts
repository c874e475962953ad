import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import type { ChatMessage } from "@/lib/domain/events";
import type { ModelRequest } from "@/lib/engine/ports";
import { parseModelId } from "@/lib/domain/model-id";

/**
 * The request hash: the identity of a model request, recorded on every
 * `model-call-end` event and used as the response-cache key. Two requests with
 * the same hash would be sent to the provider byte-for-byte alike (same
 * provider, model, sampling settings, stop sequences and messages). The role
 * is deliberately not part of it.
 */

/** Everything the hash covers. `modelId` is the provider's own model name (`gpt-4o-mini`, not `openai:gpt-4o-mini`). */
export interface RequestHashInput {
  provider: string;
  modelId: string;
  temperature: number;
  /** tokens */
  maxOutputTokens: number;
  /** Sampling seed; left out of the hash when undefined, so requests without one hash as before seeds existed. */
  seed?: number;
  /** In the order given; order is part of the identity. */
  stopSequences: readonly string[];
  messages: readonly ChatMessage[];
}

/**
 * The text the request hash is the SHA-256 of: the RFC 8785 canonical JSON (JCS, the `canonicalize`
 * package) of exactly the {@link RequestHashInput} fields — keys sorted by UTF-16 code units, no
 * whitespace, ECMAScript number and string serialisation, `seed` left out when undefined, each
 * message as `{content, role}` only.
 *
 * RFC 8785 refuses what JSON cannot carry faithfully: a string with a lone surrogate (a prompt cut
 * by UTF-16 length can end in half an emoji) and a non-finite number. Such a request is still sent
 * to the provider, so it still needs an identity: it is serialised by `JSON.stringify` of the same
 * fields in the same sorted order, which escapes a lone surrogate as `\udXXX` and writes a
 * non-finite number as `null`. For every input RFC 8785 accepts the two texts are the same bytes,
 * so hashes recorded before this function used `canonicalize` (a hand-written sorted stringify
 * with exactly that fallback's output) are unchanged: the response cache of a recorded run still
 * answers its replay (tests/llm/request-hash.test.ts checks both against the former serialiser).
 */
export function canonicalRequestJson(input: RequestHashInput): string {
  const messages = input.messages.map((message) => ({ content: message.content, role: message.role }));
  try {
    const text = canonicalize({ ...fields(input), messages });
    if (text !== undefined) return text;
  } catch {
    // A lone surrogate or a non-finite number: the fallback below writes what JSON.stringify does.
  }
  const { maxOutputTokens, modelId, provider, seed, stopSequences, temperature } = fields(input);
  return JSON.stringify({ maxOutputTokens, messages, modelId, provider, seed, stopSequences, temperature });
}

function fields(input: RequestHashInput) {
  return {
    provider: input.provider,
    modelId: input.modelId,
    temperature: input.temperature,
    maxOutputTokens: input.maxOutputTokens,
    seed: input.seed,
    stopSequences: [...input.stopSequences],
  };
}

/** SHA-256 (lowercase hex, 64 chars) of {@link canonicalRequestJson}. */
export function computeRequestHash(input: RequestHashInput): string {
  return createHash("sha256").update(canonicalRequestJson(input), "utf8").digest("hex");
}

/**
 * The hash of an engine {@link ModelRequest}: what the model port records as
 * `requestHash`, and what a caching decorator around the port should look up.
 *
 * @throws AppError `invalid-input` for a malformed model id.
 */
export function requestHashOf(request: ModelRequest): string {
  const { provider, model } = parseModelId(request.settings.modelId);
  return computeRequestHash({
    provider,
    modelId: model,
    temperature: request.settings.temperature,
    maxOutputTokens: request.settings.maxOutputTokens,
    seed: request.settings.seed,
    stopSequences: request.stopSequences,
    messages: request.messages,
  });
}
