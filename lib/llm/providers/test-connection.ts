import { generateText } from "ai";
import type { ProviderId, ProviderTestResult } from "@/lib/domain/providers";
import { toModelCallError } from "../model-call-errors";
import { limitedFetch, responseBodyLimit, type OutputLimit } from "../output-limit";
import { parseModelId } from "@/lib/domain/model-id";
import { describeProviderTarget, resolveModel, scrubSecrets, secretValues, type ProviderEnv, type ProviderTarget } from "../provider-registry";
import { providerStatus } from "./status";

/**
 * "Test connection" on the settings page and `cli providers --test`:
 * one tiny call to a provider — prompt "Reply with the word OK.", at most
 * {@link TEST_MAX_OUTPUT_TOKENS} output tokens asked for, a reply body of at most
 * {@link TEST_OUTPUT_LIMIT}, no retries, a time limit of
 * {@link TEST_TIMEOUT_MS} — and its latency or its error. The error message is the
 * model port's own classification (what to do), scrubbed of every key value.
 */

/** Output-token cap of the test call (tokens). */
export const TEST_MAX_OUTPUT_TOKENS = 5;
/**
 * Limits of the test call's reply: it asks for a few tokens, so 4 KiB of text (64 pieces) is
 * ample, and the raw body is cut at 56 KiB (lib/llm/output-limit.ts, `responseBodyLimit`) — a
 * server that ignores `max_tokens` and answers 400 MB must not fill the web server's memory.
 */
export const TEST_OUTPUT_LIMIT: OutputLimit = { bytes: 4096, tokens: 64 };
/** Time limit of the whole test call, ms. */
export const TEST_TIMEOUT_MS = 20_000;

/** Options of {@link testProviderConnection}. */
export interface TestConnectionOptions {
  /** The model to call (`provider:model` of this provider); default the provider's first listed model. */
  modelId?: string;
  /** Clock, ms. Default `performance.now`. */
  now?: () => number;
  timeoutMs?: number;
}

/**
 * Makes one tiny call to `provider` and reports it. Never throws for a provider
 * failure: `ok: false` with the message. A `modelId` of another provider is refused
 * in the result (`ok: false`).
 */
export async function testProviderConnection(provider: ProviderId, env: ProviderEnv = process.env, options: TestConnectionOptions = {}): Promise<ProviderTestResult> {
  const now = options.now ?? (() => performance.now());
  let modelId = options.modelId;
  if (modelId === undefined) {
    const status = await providerStatus(provider, env);
    modelId = status.models[0]?.id;
    if (modelId === undefined) {
      const error = !status.configured
        ? status.summary
        : status.modelsError
          ? `${status.label} did not answer its model list (${status.modelsError}): check that it is running and its URL, or pass a model id to test.`
          : `${status.label} lists no model to call: pass a model id to test.`;
      return { provider, modelId: "", ok: false, latencyMs: 0, replyPreview: null, error: scrubSecrets(error, env) };
    }
  }
  const failed = (message: string, latencyMs = 0): ProviderTestResult => ({
    provider,
    modelId: modelId ?? "",
    ok: false,
    latencyMs,
    replyPreview: null,
    error: scrubSecrets(message, env),
  });
  let target: ProviderTarget;
  try {
    const parsed = parseModelId(modelId);
    if (parsed.provider !== provider) return failed(`"${modelId}" is not a ${provider} model id; use ${provider}:<model>.`);
    target = describeProviderTarget(modelId, env);
  } catch (error) {
    return failed(error instanceof Error ? error.message : String(error));
  }
  const started = now();
  try {
    const model = resolveModel(modelId, { env, fetch: limitedFetch(TEST_OUTPUT_LIMIT) });
    const result = await generateText({
      model,
      prompt: "Reply with the word OK.",
      maxOutputTokens: TEST_MAX_OUTPUT_TOKENS,
      temperature: 0,
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(options.timeoutMs ?? TEST_TIMEOUT_MS),
    });
    return {
      provider,
      modelId,
      ok: true,
      latencyMs: Math.max(0, Math.round(now() - started)),
      replyPreview: scrubSecrets(result.text.slice(0, 80), env),
      error: null,
    };
  } catch (error) {
    const latencyMs = Math.max(0, Math.round(now() - started));
    const classified = toModelCallError(error, { modelId, target, attempts: 1, secrets: secretValues(env), retryPhrase: "test the connection again" });
    if (classified.code === "output-too-large") {
      return failed(
        `${modelId} answered the test (which asks for ${TEST_MAX_OUTPUT_TOKENS} tokens) with more than ${responseBodyLimit(TEST_OUTPUT_LIMIT).toLocaleString("en-US")} bytes and was cut off: the server ignores max_tokens. Runs with it are bounded too (REFLEXION_MAX_OUTPUT_BYTES / REFLEXION_MAX_OUTPUT_TOKENS pause a run whose reply goes past them); check the server's settings or pick another model.`,
        latencyMs,
      );
    }
    return failed(classified.message, latencyMs);
  }
}
