import { createHash } from "node:crypto";
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
 * JSON with object keys sorted (recursively), so equal values always give the
 * same string. Follows `JSON.stringify` otherwise: `undefined` properties are
 * dropped, `undefined` in arrays becomes `null`.
 *
 * @throws TypeError for values JSON cannot represent (bigint, cycles).
 */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sortKeys(value, new Set()));
}

function sortKeys(value: unknown, seen: Set<object>): unknown {
  if (value === null || typeof value !== "object") return value;
  if (seen.has(value)) throw new TypeError("stableStringify: cyclic value");
  seen.add(value);
  let result: unknown;
  if (Array.isArray(value)) {
    result = value.map((item) => sortKeys(item, seen));
  } else {
    const json = (value as { toJSON?: () => unknown }).toJSON;
    if (typeof json === "function") {
      result = sortKeys(json.call(value), seen);
    } else {
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key], seen);
      result = sorted;
    }
  }
  seen.delete(value);
  return result;
}

/** SHA-256 (lowercase hex, 64 chars) of {@link stableStringify} of exactly the {@link RequestHashInput} fields. */
export function computeRequestHash(input: RequestHashInput): string {
  const canonical = stableStringify({
    provider: input.provider,
    modelId: input.modelId,
    temperature: input.temperature,
    maxOutputTokens: input.maxOutputTokens,
    seed: input.seed,
    stopSequences: input.stopSequences,
    messages: input.messages.map((message) => ({ role: message.role, content: message.content })),
  });
  return createHash("sha256").update(canonical, "utf8").digest("hex");
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
