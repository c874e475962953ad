import type { ModelsResponse } from "@/lib/domain/api";
import { modelIdSchema } from "@/lib/domain/config";
import type { ProviderEnvVar, ProviderModel, ProviderStatus, ProvidersResponse } from "@/lib/domain/providers";
import { DEMO_MODEL_ID } from "../demo-model";
import { CONFIGURABLE_PROVIDERS, type ConfigurableProvider } from "@/lib/domain/model-id";
import {
  COMPATIBLE_MODEL_ENV_VAR,
  DEFAULT_BASE_URLS,
  DEFAULT_COMPATIBLE_MODEL,
  DEMO_MODEL_LABEL,
  PROVIDER_ENV_VARS,
  SUGGESTED_MODELS,
  displayUrl,
  isProviderConfigured,
  readEnv,
  type ModelOption,
  type ProviderEnv,
} from "../provider-registry";
import { listProviderModels, type ListOptions, type ModelListResult } from "./discovery";

/**
 * What the settings page, `GET /api/models` and `cli providers` show about each
 * provider: configured or not, the variables to set (names and
 * whether set — never values), the base URL in force (credentials stripped), the
 * models it offers and where that list came from. The model picker of every form
 * reads the same lists through {@link listModelOptions}.
 */

/** Display names of the providers on the settings page. */
export const PROVIDER_TITLES: Record<ConfigurableProvider, string> = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  google: "Google Gemini",
  ollama: "Ollama",
  compatible: "OpenAI-compatible server",
};

/** What each provider does about prompt caching (decision 0023). */
export const CACHING_NOTES: Record<ConfigurableProvider, string> = {
  openai: "Automatic prefix caching (prompts ≥ 1,024 tokens); cached tokens are read from usage and priced at the cached rate.",
  anthropic: "Cache control is set on the stable prompt prefix (instructions and few-shot examples); cache reads and writes are recorded.",
  google: "Implicit caching on Gemini 2.5; cached tokens are recorded when the API reports them.",
  ollama: "Local: no prompt cache billing; the server may reuse its KV cache.",
  compatible: "Depends on the server; cached tokens are recorded when it reports prompt_tokens_details.cached_tokens.",
};

/** Where the variables go, for the empty state. */
export const ENV_FILE_HINT =
  "Set the variables in .env.local at the project root (or in the environment of `npm run playground` / `next start`), then restart the server.";

function envVarsOf(provider: ConfigurableProvider, env: ProviderEnv): ProviderEnvVar[] {
  const vars = PROVIDER_ENV_VARS[provider];
  const isSet = (name: string) => readEnv(env, name) !== undefined;
  const out: ProviderEnvVar[] = [];
  if (vars.apiKey !== null) out.push({ name: vars.apiKey, purpose: "apiKey", required: provider !== "compatible", set: isSet(vars.apiKey) });
  out.push({ name: vars.baseUrl, purpose: "baseUrl", required: provider === "compatible" || provider === "ollama", set: isSet(vars.baseUrl) });
  if (provider === "compatible") out.push({ name: COMPATIBLE_MODEL_ENV_VAR, purpose: "model", required: false, set: isSet(COMPATIBLE_MODEL_ENV_VAR) });
  return out;
}

function baseUrlOf(provider: ConfigurableProvider, env: ProviderEnv): { baseUrl: string | null; isDefault: boolean } {
  const raw = readEnv(env, PROVIDER_ENV_VARS[provider].baseUrl);
  if (raw !== undefined) return { baseUrl: displayUrl(raw) ?? "(not a valid http(s) URL)", isDefault: false };
  return provider === "compatible" ? { baseUrl: null, isDefault: false } : { baseUrl: DEFAULT_BASE_URLS[provider], isDefault: true };
}

function modelEntry(provider: ConfigurableProvider, model: string, label: string): ProviderModel | null {
  const id = `${provider}:${model}`;
  return modelIdSchema.safeParse(id).success ? { id, model, label } : null;
}

/** The models offered for `provider`, given its list result, and where they came from. */
function modelsOf(provider: ConfigurableProvider, env: ProviderEnv, listed: ModelListResult | null): Pick<ProviderStatus, "models" | "modelsSource" | "modelsError"> {
  const error = listed && !listed.ok && listed.error !== "not configured" ? listed.error : null;
  const fromList = listed?.ok ? listed.models.map((m) => modelEntry(provider, m.model, m.displayName ?? m.model)) : [];
  const listedModels = fromList.filter((m): m is ProviderModel => m !== null);
  if (provider === "openai" || provider === "anthropic" || provider === "google") {
    const curated = SUGGESTED_MODELS[provider].map((m) => modelEntry(provider, m.model, m.label)).filter((m): m is ProviderModel => m !== null);
    if (listed?.ok && listedModels.length > 0) return { models: listedModels, modelsSource: "listed", modelsError: null };
    return { models: curated, modelsSource: "curated", modelsError: error };
  }
  if (listed?.ok) return { models: listedModels, modelsSource: "listed", modelsError: listedModels.length === 0 ? "the server lists no models" : null };
  if (provider === "compatible" && isProviderConfigured(provider, env)) {
    const name = readEnv(env, COMPATIBLE_MODEL_ENV_VAR) ?? DEFAULT_COMPATIBLE_MODEL;
    const entry = modelEntry(provider, name, name) ?? modelEntry(provider, DEFAULT_COMPATIBLE_MODEL, DEFAULT_COMPATIBLE_MODEL);
    return { models: entry ? [entry] : [], modelsSource: "env", modelsError: error };
  }
  return { models: [], modelsSource: "none", modelsError: error };
}

function summaryOf(provider: ConfigurableProvider, configured: boolean): string {
  const vars = PROVIDER_ENV_VARS[provider];
  if (configured) return `Configured from ${vars.apiKey !== null && provider !== "compatible" ? vars.apiKey : vars.baseUrl}.`;
  switch (provider) {
    case "ollama":
      return `Not configured: set ${vars.baseUrl} (e.g. ${DEFAULT_BASE_URLS.ollama}) to list and use the models pulled into Ollama.`;
    case "compatible":
      return `Not configured: set ${vars.baseUrl} to the server's /v1 URL (e.g. http://127.0.0.1:1234/v1 for LM Studio).`;
    default:
      return `Not configured: set ${vars.apiKey} to use ${PROVIDER_TITLES[provider]} models.`;
  }
}

/** One provider's status, with its model list read (or taken from the cache). */
export async function providerStatus(provider: ConfigurableProvider, env: ProviderEnv = process.env, options: ListOptions = {}): Promise<ProviderStatus> {
  const configured = isProviderConfigured(provider, env);
  const listed = configured ? await listProviderModels(provider, env, options) : null;
  const { baseUrl, isDefault } = baseUrlOf(provider, env);
  return {
    id: provider,
    label: PROVIDER_TITLES[provider],
    configured,
    summary: summaryOf(provider, configured),
    envVars: envVarsOf(provider, env),
    baseUrl,
    baseUrlIsDefault: isDefault,
    ...modelsOf(provider, env, listed),
    caching: CACHING_NOTES[provider],
  };
}

/** Every provider's status (`GET /api/settings/providers`, `cli providers`), lists read in parallel. */
export async function providerStatuses(env: ProviderEnv = process.env, options: ListOptions = {}): Promise<ProvidersResponse> {
  const providers = await Promise.all(CONFIGURABLE_PROVIDERS.map((provider) => providerStatus(provider, env, options)));
  return { providers, envFileHint: ENV_FILE_HINT };
}

/**
 * The model picker's list (`GET /api/models`, `modelsResponseSchema`): `demo` first
 * (`scripted: true`), then each configured provider's models — the hosted providers'
 * suggestions first (so the defaults stay stable), then what their list endpoints add;
 * Ollama and OpenAI-compatible servers: what they list (the compatible server falls back
 * to `OPENAI_COMPATIBLE_MODEL`, else `local-model`). Default: the first configured
 * provider's first model, else `demo`. Model ids and labels only: never a key or a URL.
 */
export async function listModelOptions(env: ProviderEnv = process.env, options: ListOptions = {}): Promise<ModelsResponse> {
  const statuses = (await providerStatuses(env, options)).providers.filter((p) => p.configured);
  const models: ModelOption[] = [{ id: DEMO_MODEL_ID, label: DEMO_MODEL_LABEL, scripted: true, provider: "demo" }];
  let defaultModelId: string = DEMO_MODEL_ID;
  for (const status of statuses) {
    const provider = status.id;
    const suggested =
      provider === "openai" || provider === "anthropic" || provider === "google"
        ? SUGGESTED_MODELS[provider].map((m) => ({ id: `${provider}:${m.model}`, label: m.label }))
        : [];
    const envModel = provider === "compatible" ? readEnv(env, COMPATIBLE_MODEL_ENV_VAR) : undefined;
    const pinned = envModel !== undefined && modelIdSchema.safeParse(`compatible:${envModel}`).success ? [{ id: `compatible:${envModel}`, label: envModel }] : [];
    const seen = new Set<string>();
    const offered: ModelOption[] = [];
    for (const m of [...suggested, ...pinned, ...status.models]) {
      if (seen.has(m.id)) continue;
      seen.add(m.id);
      const label = m.label.startsWith(status.label) ? m.label : `${status.label}: ${m.label}`;
      offered.push({ id: m.id, label, scripted: false, provider });
    }
    if (defaultModelId === DEMO_MODEL_ID && offered[0]) defaultModelId = offered[0].id;
    models.push(...offered);
  }
  return { models, defaultModelId, configuredProviders: statuses.map((s) => s.id) };
}
