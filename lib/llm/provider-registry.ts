// Model ids → AI SDK models for every provider (demo, openai, anthropic, google, ollama, compatible).
// Model lists, settings and "test connection" live in lib/llm/providers/*; the start-up check of the
// provider settings in provider-settings-check.ts.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ModelsResponse } from "@/lib/domain/api";
import { modelIdSchema } from "@/lib/domain/config";
import { AppError } from "@/lib/domain/errors";
import { DEMO_MODEL_ID, createDemoModel, type DemoScriptBook } from "./demo-model";
import { CONFIGURABLE_PROVIDERS, DEMO_MODEL_LABEL, parseModelId, type ConfigurableProvider, type ParsedModelId, type ProviderName } from "@/lib/domain/model-id";
import { hasUrlCredentials } from "@/lib/domain/url-credentials";

/** Re-exported from lib/domain/model-id.ts so callers can import everything about model ids from the registry. */
export { CONFIGURABLE_PROVIDERS, parseModelId, type ConfigurableProvider, type ParsedModelId, type ProviderName } from "@/lib/domain/model-id";

/**
 * Resolves the app's model ids (`demo`, `openai:<m>`, `anthropic:<m>`, `google:<m>`,
 * `ollama:<m>`, `compatible:<m>`, see `modelIdSchema`) to AI SDK language models, and lists
 * the models the server can offer. Configuration comes from an environment
 * record read at call time (default `process.env`), so tests and the CLI can
 * pass their own. Key *values* never leave this module: not in returned
 * objects, not in error messages, not in logs.
 */

/** An environment record (`process.env` or a test's own). Empty or blank values count as unset. */
export type ProviderEnv = Readonly<Record<string, string | undefined>>;

/**
 * Environment variable names per provider. `apiKey` is required for `openai`,
 * `anthropic` and `google`, optional for `compatible` (local servers usually need
 * none), absent for `ollama` (a local server takes no key); `baseUrl` is required
 * for `compatible` and marks `ollama` as configured (default
 * {@link DEFAULT_OLLAMA_BASE_URL}); it is an optional override for the others.
 */
export const PROVIDER_ENV_VARS = {
  openai: { apiKey: "OPENAI_API_KEY", baseUrl: "OPENAI_BASE_URL" },
  anthropic: { apiKey: "ANTHROPIC_API_KEY", baseUrl: "ANTHROPIC_BASE_URL" },
  google: { apiKey: "GOOGLE_GENERATIVE_AI_API_KEY", baseUrl: "GOOGLE_GENERATIVE_AI_BASE_URL" },
  ollama: { apiKey: null, baseUrl: "OLLAMA_BASE_URL" },
  compatible: { apiKey: "OPENAI_COMPATIBLE_API_KEY", baseUrl: "OPENAI_COMPATIBLE_BASE_URL" },
} as const satisfies Record<ConfigurableProvider, { apiKey: string | null; baseUrl: string }>;

/** Default API base URLs of the hosted providers and Ollama (used when no `*_BASE_URL` is set). */
export const DEFAULT_BASE_URLS = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com/v1",
  google: "https://generativelanguage.googleapis.com/v1beta",
  ollama: "http://127.0.0.1:11434",
} as const;

/** Ollama's address when `OLLAMA_BASE_URL` is unset (its own default, `ollama serve`). */
export const DEFAULT_OLLAMA_BASE_URL = DEFAULT_BASE_URLS.ollama;

/** Env var naming the model a `compatible` server offers in {@link listAvailableModels} (default `local-model`). */
export const COMPATIBLE_MODEL_ENV_VAR = "OPENAI_COMPATIBLE_MODEL";

/** Name given to the OpenAI-compatible AI SDK provider (shows up as `compatible.chat` in SDK metadata). */
export const COMPATIBLE_PROVIDER_NAME = "compatible";

/** Human-readable provider names for labels and messages. */
export const PROVIDER_LABELS: Record<ProviderName, string> = {
  demo: "the demo model",
  openai: "OpenAI",
  anthropic: "Anthropic",
  google: "Google",
  ollama: "Ollama",
  compatible: "the OpenAI-compatible server",
};

/** The trimmed value of `name` in `env`, or `undefined` when unset or blank. */
export function readEnv(env: ProviderEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/**
 * A URL made safe to show: user name, password, query and fragment removed,
 * trailing slash dropped. Returns `null` when `url` is not an http(s) URL.
 */
export function displayUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  parsed.username = "";
  parsed.password = "";
  parsed.search = "";
  parsed.hash = "";
  return parsed.toString().replace(/\/+$/, "");
}

/** True when `provider` has the settings it needs in `env` (the demo model always has). */
export function isProviderConfigured(provider: ProviderName, env: ProviderEnv = process.env): boolean {
  switch (provider) {
    case "demo":
      return true;
    case "openai":
    case "anthropic":
    case "google":
      return readEnv(env, PROVIDER_ENV_VARS[provider].apiKey) !== undefined;
    case "ollama":
    case "compatible":
      return readEnv(env, PROVIDER_ENV_VARS[provider].baseUrl) !== undefined;
  }
}

/** Names of the configured providers (never `demo`, never key values), in {@link CONFIGURABLE_PROVIDERS} order. */
export function configuredProviders(env: ProviderEnv = process.env): ConfigurableProvider[] {
  return CONFIGURABLE_PROVIDERS.filter((provider) => isProviderConfigured(provider, env));
}

/**
 * What a model id talks to, for messages: the provider's label and, when
 * known, the base URL (already passed through {@link displayUrl}), plus the
 * env var holding its key. Never contains a key value.
 */
export interface ProviderTarget {
  provider: ProviderName;
  /** E.g. "OpenAI", "the OpenAI-compatible server at http://127.0.0.1:1234/v1", "the demo model". */
  label: string;
  /** Safe-to-show base URL, or `null` (demo, or the provider's default endpoint). */
  baseUrl: string | null;
  /** Env var that holds the API key, or `null` for the demo model. */
  apiKeyEnvVar: string | null;
}

/** Describes where `modelId`'s requests go (see {@link ProviderTarget}). Throws like {@link parseModelId}. */
export function describeProviderTarget(modelId: string, env: ProviderEnv = process.env): ProviderTarget {
  const { provider } = parseModelId(modelId);
  if (provider === "demo") return { provider, label: PROVIDER_LABELS.demo, baseUrl: null, apiKeyEnvVar: null };
  const vars = PROVIDER_ENV_VARS[provider];
  const rawBaseUrl = readEnv(env, vars.baseUrl) ?? (provider === "ollama" ? DEFAULT_OLLAMA_BASE_URL : undefined);
  const baseUrl = rawBaseUrl === undefined ? null : displayUrl(rawBaseUrl);
  const label =
    provider === "compatible"
      ? baseUrl
        ? `the OpenAI-compatible server at ${baseUrl}`
        : PROVIDER_LABELS.compatible
      : provider === "ollama"
        ? `the Ollama server at ${baseUrl ?? DEFAULT_OLLAMA_BASE_URL}`
        : baseUrl
          ? `${PROVIDER_LABELS[provider]} (${baseUrl})`
          : PROVIDER_LABELS[provider];
  return { provider, label, baseUrl, apiKeyEnvVar: vars.apiKey };
}

/**
 * Values of the API-key env vars set in `env` (4+ chars), so error messages can
 * be scrubbed of them. For lib/llm's own use; never put these in output.
 */
export function secretValues(env: ProviderEnv): string[] {
  return CONFIGURABLE_PROVIDERS.map((p) => {
    const name = PROVIDER_ENV_VARS[p].apiKey;
    return name === null ? undefined : readEnv(env, name);
  }).filter((value): value is string => value !== undefined && value.length >= 4);
}

/** `text` with every key value of `env` replaced by `[redacted]` (for messages built from provider replies). */
export function scrubSecrets(text: string, env: ProviderEnv): string {
  let out = text;
  for (const secret of secretValues(env)) out = out.split(secret).join("[redacted]");
  return out;
}

/**
 * Ollama's server root from `env` (`OLLAMA_BASE_URL`, else {@link DEFAULT_OLLAMA_BASE_URL}), without a
 * trailing `/v1` or `/api` (people paste either): `/api/tags` and the `/v1` chat endpoint hang off it.
 *
 * @throws AppError `provider-not-configured` when the value is not an http(s) URL.
 */
export function ollamaRoot(env: ProviderEnv): string {
  const root = optionalBaseUrl(env, PROVIDER_ENV_VARS.ollama.baseUrl) ?? DEFAULT_OLLAMA_BASE_URL;
  return root.replace(/\/(v1|api)$/, "");
}

/** Options for {@link resolveModel}. */
export interface ResolveModelOptions {
  /** Where configuration is read from, at call time. Default: `process.env`. */
  env?: ProviderEnv;
  /** Scripts for the demo model (see `createDemoModel`). Default: none (generic fallback only). */
  demoScriptBooks?: readonly DemoScriptBook[];
  /** Delay between the demo model's streamed chunks, in ms. Default 0. */
  demoChunkDelayMs?: number;
  /**
   * Delay of each demo model call before it answers, in ms (time to first
   * token, see `DemoModelOptions.callDelayMs`). Default: the env var
   * {@link DEMO_DELAY_ENV_VAR} (`REFLEXION_DEMO_DELAY_MS`) when set, else 0.
   */
  demoCallDelayMs?: number;
  /** The `fetch` the HTTP providers use (the model port passes one that bounds response bodies). Default: the global `fetch`. */
  fetch?: typeof fetch;
}

/**
 * Env var giving the demo model a per-call delay in ms (a whole number ≥ 0,
 * at most {@link MAX_DEMO_DELAY_MS}), e.g. `REFLEXION_DEMO_DELAY_MS=800` to
 * watch a demo run at a hosted model's pace. Unset or blank: 0.
 */
export const DEMO_DELAY_ENV_VAR = "REFLEXION_DEMO_DELAY_MS";

/** Largest accepted {@link DEMO_DELAY_ENV_VAR}, in ms (10 minutes). */
export const MAX_DEMO_DELAY_MS = 600_000;

/**
 * The demo model's per-call delay from `env` ({@link DEMO_DELAY_ENV_VAR}), in ms; 0 when unset or blank.
 *
 * @throws AppError `provider-not-configured` when the value is not a whole
 *   number of ms between 0 and {@link MAX_DEMO_DELAY_MS} (the message names the variable).
 */
export function demoCallDelayFromEnv(env: ProviderEnv = process.env): number {
  const raw = readEnv(env, DEMO_DELAY_ENV_VAR);
  if (raw === undefined) return 0;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value > MAX_DEMO_DELAY_MS) {
    throw notConfigured(
      `${DEMO_DELAY_ENV_VAR} must be a whole number of milliseconds from 0 to ${MAX_DEMO_DELAY_MS} (e.g. 500), not "${raw.slice(0, 40)}". Fix or unset it and restart.`,
    );
  }
  return value;
}

function notConfigured(message: string): AppError {
  return new AppError("provider-not-configured", message);
}

function optionalBaseUrl(env: ProviderEnv, name: string): string | undefined {
  const raw = readEnv(env, name);
  if (raw === undefined) return undefined;
  if (hasUrlCredentials(raw)) {
    throw notConfigured(`${name} must not contain a user name or password (user:password@…). Set it to the URL without them, then restart.`);
  }
  if (displayUrl(raw) === null) {
    throw notConfigured(`${name} is not a valid http(s) URL. Set it to the API base URL (e.g. http://127.0.0.1:1234/v1) or unset it.`);
  }
  return raw.replace(/\/+$/, "");
}

/**
 * Resolves a model id to an AI SDK language model.
 *
 * - `demo` → the offline demo model with `options.demoScriptBooks` (per-call
 *   delay: `options.demoCallDelayMs`, else `REFLEXION_DEMO_DELAY_MS`, else 0).
 * - `openai:<m>` → `@ai-sdk/openai` **chat completions** model (`OPENAI_API_KEY`,
 *   optional `OPENAI_BASE_URL`). Chat, not the Responses API, because the
 *   Responses API ignores stop sequences, which ReAct prompting relies on.
 * - `anthropic:<m>` → `@ai-sdk/anthropic` (`ANTHROPIC_API_KEY`, optional `ANTHROPIC_BASE_URL`).
 * - `compatible:<m>` → `@ai-sdk/openai-compatible` named "compatible"
 *   (`OPENAI_COMPATIBLE_BASE_URL`, optional `OPENAI_COMPATIBLE_API_KEY`), with
 *   streamed usage requested.
 *
 * No network access happens here; keys are only read.
 *
 * @throws AppError `invalid-input` for a malformed id; `provider-not-configured`
 *   when the provider's key or base URL is missing or invalid (the message names
 *   the env var to set, never a value).
 */
export function resolveModel(modelId: string, options: ResolveModelOptions = {}): LanguageModelV3 {
  const env = options.env ?? process.env;
  const { provider, model } = parseModelId(modelId);
  switch (provider) {
    case "demo":
      return createDemoModel({
        books: options.demoScriptBooks ?? [],
        chunkDelayMs: options.demoChunkDelayMs ?? 0,
        callDelayMs: options.demoCallDelayMs ?? demoCallDelayFromEnv(env),
      });
    case "openai": {
      const apiKey = readEnv(env, PROVIDER_ENV_VARS.openai.apiKey);
      if (apiKey === undefined) {
        throw notConfigured(`OpenAI is not configured: set OPENAI_API_KEY on the server (and restart it) to use "${modelId}", or pick the demo model.`);
      }
      const baseURL = optionalBaseUrl(env, PROVIDER_ENV_VARS.openai.baseUrl) ?? "https://api.openai.com/v1";
      return createOpenAI({ apiKey, baseURL, fetch: options.fetch }).chat(model);
    }
    case "anthropic": {
      const apiKey = readEnv(env, PROVIDER_ENV_VARS.anthropic.apiKey);
      if (apiKey === undefined) {
        throw notConfigured(
          `Anthropic is not configured: set ANTHROPIC_API_KEY on the server (and restart it) to use "${modelId}", or pick the demo model.`,
        );
      }
      const baseURL = optionalBaseUrl(env, PROVIDER_ENV_VARS.anthropic.baseUrl) ?? "https://api.anthropic.com/v1";
      return createAnthropic({ apiKey, baseURL, fetch: options.fetch })(model);
    }
    case "google": {
      const apiKey = readEnv(env, PROVIDER_ENV_VARS.google.apiKey);
      if (apiKey === undefined) {
        throw notConfigured(
          `Google is not configured: set GOOGLE_GENERATIVE_AI_API_KEY on the server (and restart it) to use "${modelId}", or pick the demo model.`,
        );
      }
      const baseURL = optionalBaseUrl(env, PROVIDER_ENV_VARS.google.baseUrl) ?? DEFAULT_BASE_URLS.google;
      return createGoogleGenerativeAI({ apiKey, baseURL, fetch: options.fetch })(model);
    }
    case "ollama":
      // Ollama's OpenAI-compatible endpoint (decision 0023): the same streaming path as `compatible`, no extra package.
      return createOpenAICompatible({ name: "ollama", baseURL: `${ollamaRoot(env)}/v1`, includeUsage: true, fetch: options.fetch }).chatModel(model);
    case "compatible": {
      const baseURL = optionalBaseUrl(env, PROVIDER_ENV_VARS.compatible.baseUrl);
      if (baseURL === undefined) {
        throw notConfigured(
          `No OpenAI-compatible server is configured: set OPENAI_COMPATIBLE_BASE_URL (e.g. http://127.0.0.1:1234/v1 for LM Studio, http://127.0.0.1:11434/v1 for Ollama) to use "${modelId}", or pick the demo model.`,
        );
      }
      return createOpenAICompatible({
        name: COMPATIBLE_PROVIDER_NAME,
        baseURL,
        apiKey: readEnv(env, PROVIDER_ENV_VARS.compatible.apiKey),
        includeUsage: true,
        fetch: options.fetch,
      }).chatModel(model);
    }
  }
}

/**
 * Checks that `modelId` can be used right now, without making a request:
 * parses it and resolves it against `env` (for a fail-fast check before a run
 * is recorded). Returns the parsed id.
 *
 * @throws AppError `invalid-input` for a malformed id; `provider-not-configured`
 *   when its provider lacks a key or base URL (the message names the env var).
 */
export function resolveModelId(modelId: string, env: ProviderEnv = process.env): ParsedModelId {
  resolveModel(modelId, { env });
  return parseModelId(modelId);
}

/** One entry of the model picker (shape of `modelOptionSchema`). */
export type ModelOption = ModelsResponse["models"][number];

/** Label of the demo model in the picker (defined in lib/domain/model-id). */
export { DEMO_MODEL_LABEL };

/** Suggested models per hosted provider, first = that provider's default. */
export const SUGGESTED_MODELS: Record<"openai" | "anthropic" | "google", readonly { model: string; label: string }[]> = {
  openai: [
    { model: "gpt-4o-mini", label: "OpenAI GPT-4o mini" },
    { model: "gpt-4.1-mini", label: "OpenAI GPT-4.1 mini" },
    { model: "gpt-4o", label: "OpenAI GPT-4o" },
  ],
  anthropic: [
    { model: "claude-3-5-haiku-latest", label: "Anthropic Claude 3.5 Haiku" },
    { model: "claude-sonnet-4-0", label: "Anthropic Claude Sonnet 4" },
  ],
  google: [
    { model: "gemini-2.0-flash", label: "Google Gemini 2.0 Flash" },
    { model: "gemini-2.5-flash", label: "Google Gemini 2.5 Flash" },
    { model: "gemini-2.5-pro", label: "Google Gemini 2.5 Pro" },
  ],
};

/** Model name offered for a compatible server when {@link COMPATIBLE_MODEL_ENV_VAR} is unset. */
export const DEFAULT_COMPATIBLE_MODEL = "local-model";

function modelsFor(provider: ConfigurableProvider, env: ProviderEnv): ModelOption[] {
  // Ollama's models are only known from its /api/tags list (lib/llm/providers/model-options.ts).
  if (provider === "ollama") return [];
  if (provider === "compatible") {
    const model = readEnv(env, COMPATIBLE_MODEL_ENV_VAR) ?? DEFAULT_COMPATIBLE_MODEL;
    const id = `compatible:${model}`;
    // A model name from the env is only offered when it forms a valid id (no whitespace).
    const safe = modelIdSchema.safeParse(id).success ? model : DEFAULT_COMPATIBLE_MODEL;
    return [{ id: `compatible:${safe}`, label: `OpenAI-compatible server: ${safe}`, scripted: false, provider }];
  }
  return SUGGESTED_MODELS[provider].map(({ model, label }) => ({ id: `${provider}:${model}`, label, scripted: false, provider }));
}

/**
 * The models the server can offer (`GET /api/models`, `modelsResponseSchema`):
 * `demo` always (first, `scripted: true`), then a few ids per configured
 * provider. The default is the first configured provider's first model
 * (order: openai, anthropic, compatible), else `demo`. Contains provider
 * names and model ids only: never a key value or a base URL.
 */
export function listAvailableModels(env: ProviderEnv = process.env): ModelsResponse {
  const providers = configuredProviders(env);
  const models: ModelOption[] = [{ id: DEMO_MODEL_ID, label: DEMO_MODEL_LABEL, scripted: true, provider: "demo" }];
  let defaultModelId: string = DEMO_MODEL_ID;
  for (const provider of providers) {
    const options = modelsFor(provider, env);
    if (defaultModelId === DEMO_MODEL_ID && options[0]) defaultModelId = options[0].id;
    models.push(...options);
  }
  return { models, defaultModelId, configuredProviders: [...providers] };
}
