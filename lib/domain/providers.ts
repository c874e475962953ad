import { z } from "zod";

/**
 * The settings page's provider contract, shared by the server
 * (`lib/llm/providers/*`, `app/api/settings/providers`) and the client
 * (`components/settings/*`), and printed by `cli providers --json`.
 *
 * Nothing here ever holds a key value: only the *names* of the variables, whether
 * each is set, a base URL with its credentials stripped, and model names.
 *
 * HTTP:
 * - `GET  /api/settings/providers` → {@link providersResponseSchema}
 * - `POST /api/settings/providers/:provider/test` body {@link providerTestRequestSchema} → {@link providerTestResultSchema}
 */

/** The providers a person can configure (every model id's provider except `demo`). */
export const providerIdSchema = z.enum(["openai", "anthropic", "google", "ollama", "compatible"]);
export type ProviderId = z.infer<typeof providerIdSchema>;

/** One environment variable a provider reads: its name, what it is for, and whether it is set (never its value). */
export const providerEnvVarSchema = z.object({
  name: z.string(),
  /** `apiKey`: a credential; `baseUrl`: where requests go; `model`: a model name to offer. */
  purpose: z.enum(["apiKey", "baseUrl", "model"]),
  /** True when the provider cannot be used without it. */
  required: z.boolean(),
  /** True when the variable has a non-blank value on the server. */
  set: z.boolean(),
});
export type ProviderEnvVar = z.infer<typeof providerEnvVarSchema>;

/** One model a provider offers, as a model id of this app (`provider:model`). */
export const providerModelSchema = z.object({
  id: z.string(),
  /** The provider's own name for it (after `provider:`). */
  model: z.string(),
  label: z.string(),
});
export type ProviderModel = z.infer<typeof providerModelSchema>;

/**
 * Where a provider's model list came from:
 * - `listed`: the provider's own list endpoint answered (`/v1/models`, Ollama `/api/tags`, …);
 * - `curated`: suggestions built into the app (no key, or the list endpoint failed);
 * - `env`: the model named by a variable (`OPENAI_COMPATIBLE_MODEL`) only;
 * - `none`: nothing to offer (not configured and no suggestions).
 */
export const modelListSourceSchema = z.enum(["listed", "curated", "env", "none"]);
export type ModelListSource = z.infer<typeof modelListSourceSchema>;

/** A provider as the settings page shows it. */
export const providerStatusSchema = z.object({
  id: providerIdSchema,
  label: z.string(),
  configured: z.boolean(),
  /** One sentence: what is missing and what to set, or what is in use. */
  summary: z.string(),
  envVars: z.array(providerEnvVarSchema),
  /** The base URL in force, credentials/query stripped (`displayUrl`), or null when none applies. */
  baseUrl: z.string().nullable(),
  /** True when {@link baseUrl} is the provider's default (no variable set). */
  baseUrlIsDefault: z.boolean(),
  models: z.array(providerModelSchema),
  modelsSource: modelListSourceSchema,
  /** Why the list endpoint could not be read (the key never appears), or null. */
  modelsError: z.string().nullable(),
  /** Prompt caching the provider offers, in one line. */
  caching: z.string(),
});
export type ProviderStatus = z.infer<typeof providerStatusSchema>;

export const providersResponseSchema = z.object({
  providers: z.array(providerStatusSchema),
  /** Where variables are set for `npm run playground` / `next start` (a note for the empty state). */
  envFileHint: z.string(),
});
export type ProvidersResponse = z.infer<typeof providersResponseSchema>;

/** Test one provider with one tiny call; `modelId` (this provider's) defaults to its first model. */
export const providerTestRequestSchema = z.object({ modelId: z.string().trim().min(1).max(300).optional() });
export type ProviderTestRequest = z.infer<typeof providerTestRequestSchema>;

/** The outcome of "Test connection": latency in ms of the whole call, the error message (never a key) when it failed. */
export const providerTestResultSchema = z.object({
  provider: providerIdSchema,
  modelId: z.string(),
  ok: z.boolean(),
  /** Wall time of the call, ms. */
  latencyMs: z.number().nonnegative(),
  /** The first characters of the reply (at most 80), when it succeeded. */
  replyPreview: z.string().nullable(),
  error: z.string().nullable(),
});
export type ProviderTestResult = z.infer<typeof providerTestResultSchema>;
