import { createHash } from "node:crypto";
import type { ConfigurableProvider } from "@/lib/domain/model-id";
import {
  DEFAULT_BASE_URLS,
  PROVIDER_ENV_VARS,
  displayUrl,
  isProviderConfigured,
  ollamaRoot,
  readEnv,
  scrubSecrets,
  type ProviderEnv,
} from "../provider-registry";
import {
  isOpenAiChatModel,
  parseAnthropicModelList,
  parseGoogleModelList,
  parseOllamaTags,
  parseOpenAiModelList,
  type ListedModel,
} from "./model-lists";

/**
 * Reads each configured provider's own model list: OpenAI and
 * OpenAI-compatible `GET {base}/models`, Anthropic `GET {base}/models`, Google
 * `GET {base}/models`, Ollama `GET {root}/api/tags`. Key-holding module: keys go
 * only into request headers (never a URL), and every error message is scrubbed of
 * them. Each request has a time limit ({@link DEFAULT_LIST_TIMEOUT_MS}); results
 * are cached per provider, address and key ({@link LIST_CACHE_TTL_MS}, failures
 * {@link LIST_FAILURE_TTL_MS}) so the model picker and the settings page do not
 * ask on every page view.
 */

/** Time limit of one list request, ms. */
export const DEFAULT_LIST_TIMEOUT_MS = 3_000;
/** How long a listed result is reused, ms. */
export const LIST_CACHE_TTL_MS = 60_000;
/** How long a failed list is remembered before asking again, ms. */
export const LIST_FAILURE_TTL_MS = 15_000;

/** A model list as read: the models, or why there are none. */
export type ModelListResult = { ok: true; models: ListedModel[] } | { ok: false; error: string };

/** Options of {@link listProviderModels}. */
export interface ListOptions {
  /** Time limit per request, ms. Default {@link DEFAULT_LIST_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Replaces `fetch` (tests). */
  fetch?: typeof fetch;
  /** Skip the cache (the settings page's "refresh"). */
  fresh?: boolean;
  /** Clock, ms. Default `Date.now`. */
  now?: () => number;
}

interface ListRequest {
  url: string;
  headers: Record<string, string>;
  parse: (body: unknown) => ListedModel[];
}

const cache = new Map<string, { at: number; result: ModelListResult }>();

/** Forgets every cached list (tests). */
export function clearModelListCache(): void {
  cache.clear();
}

function trimBase(url: string): string {
  return url.replace(/\/+$/, "");
}

/** The request that lists `provider`'s models, or null when the provider is not configured. */
function listRequest(provider: ConfigurableProvider, env: ProviderEnv): ListRequest | null {
  if (!isProviderConfigured(provider, env)) return null;
  const vars = PROVIDER_ENV_VARS[provider];
  const base = (fallback: string) => trimBase(readEnv(env, vars.baseUrl) ?? fallback);
  switch (provider) {
    case "openai":
      return {
        url: `${base(DEFAULT_BASE_URLS.openai)}/models`,
        headers: { authorization: `Bearer ${readEnv(env, PROVIDER_ENV_VARS.openai.apiKey) ?? ""}` },
        parse: (body) => parseOpenAiModelList(body).filter((m) => isOpenAiChatModel(m.model)),
      };
    case "anthropic":
      return {
        url: `${base(DEFAULT_BASE_URLS.anthropic)}/models?limit=100`,
        headers: { "x-api-key": readEnv(env, PROVIDER_ENV_VARS.anthropic.apiKey) ?? "", "anthropic-version": "2023-06-01" },
        parse: parseAnthropicModelList,
      };
    case "google":
      return {
        url: `${base(DEFAULT_BASE_URLS.google)}/models?pageSize=200`,
        headers: { "x-goog-api-key": readEnv(env, PROVIDER_ENV_VARS.google.apiKey) ?? "" },
        parse: parseGoogleModelList,
      };
    case "ollama":
      return { url: `${ollamaRoot(env)}/api/tags`, headers: {}, parse: parseOllamaTags };
    case "compatible": {
      const key = readEnv(env, PROVIDER_ENV_VARS.compatible.apiKey);
      return { url: `${base("")}/models`, headers: key ? { authorization: `Bearer ${key}` } : {}, parse: parseOpenAiModelList };
    }
  }
}

/** `fetch` refuses URLs with `user:password@`: send them as Basic auth instead (unless a key header is set). */
function withoutUrlCredentials(request: ListRequest): { url: string; headers: Record<string, string> } {
  let parsed: URL;
  try {
    parsed = new URL(request.url);
  } catch {
    return request;
  }
  if (parsed.username === "" && parsed.password === "") return request;
  const basic = Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString("base64");
  parsed.username = "";
  parsed.password = "";
  return { url: parsed.toString(), headers: { authorization: `Basic ${basic}`, ...request.headers } };
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) return `no answer within ${timeoutMs / 1000} s`;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : "";
  const message = error instanceof Error ? error.message : String(error);
  if (/ECONNREFUSED/.test(`${message} ${cause}`)) return "connection refused (is the server running?)";
  return cause ? `${message} (${cause})` : message;
}

/**
 * `provider`'s model list from its own endpoint. Returns `{ ok: false, error }` when
 * the provider is not configured, the request fails or times out, or the reply is not
 * in the expected shape; the error names the (credential-free) URL and never a key.
 */
export async function listProviderModels(provider: ConfigurableProvider, env: ProviderEnv = process.env, options: ListOptions = {}): Promise<ModelListResult> {
  let request: ListRequest | null;
  try {
    request = listRequest(provider, env);
  } catch (error) {
    return { ok: false, error: scrubSecrets(error instanceof Error ? error.message : String(error), env) };
  }
  if (request === null) return { ok: false, error: "not configured" };
  const now = options.now ?? Date.now;
  const key = createHash("sha256").update(JSON.stringify([provider, request.url, request.headers])).digest("hex");
  const hit = cache.get(key);
  if (hit && !options.fresh && now() - hit.at < (hit.result.ok ? LIST_CACHE_TTL_MS : LIST_FAILURE_TTL_MS)) return hit.result;

  const timeoutMs = options.timeoutMs ?? DEFAULT_LIST_TIMEOUT_MS;
  const { url, headers } = withoutUrlCredentials(request);
  const shownUrl = displayUrl(request.url) ?? "the list endpoint";
  let result: ModelListResult;
  try {
    const response = await (options.fetch ?? fetch)(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) {
      result = { ok: false, error: `HTTP ${response.status} from ${shownUrl}${response.status === 401 || response.status === 403 ? " (is the key right?)" : ""}` };
    } else {
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        body = undefined;
      }
      try {
        result = { ok: true, models: request.parse(body) };
      } catch {
        result = { ok: false, error: `unexpected reply from ${shownUrl} (not a model list)` };
      }
    }
  } catch (error) {
    result = { ok: false, error: `${shownUrl}: ${describeFailure(error, timeoutMs)}` };
  }
  if (!result.ok) result = { ok: false, error: scrubSecrets(result.error, env) };
  cache.set(key, { at: now(), result });
  return result;
}
