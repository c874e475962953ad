import { modelIdSchema } from "./config";
import { AppError } from "./errors";

/**
 * The app's model ids (`demo`, `openai:<m>`, `anthropic:<m>`, `google:<m>`, `ollama:<m>`, `compatible:<m>`;
 * see `modelIdSchema`) split into provider and model, and the demo model's identity and label.
 * Pure (no provider SDKs, no Node, no React), so the server (pricing, rate limits, the worker
 * pool, OTel), the tokenizer and components all read a model id the same way.
 */

/** The offline demo model's id: a scripted stand-in, never an LLM. */
export const DEMO_MODEL_ID = "demo";

/** The short tag shown beside the demo model wherever it is named. */
export const SCRIPTED_STAND_IN = "scripted stand-in";

/** The tag with what it means: `scripted stand-in, not an LLM` (badges and notes beside a model id). */
export const SCRIPTED_STAND_IN_NOTE = `${SCRIPTED_STAND_IN}, not an LLM`;

/** What the demo model is, as a phrase: `demo (a scripted stand-in, not an LLM)`. */
export const DEMO_MODEL_NOTE = `a ${SCRIPTED_STAND_IN_NOTE}`;

/** The demo model's entry in the model picker; says plainly that it is scripted. */
export const DEMO_MODEL_LABEL = `Demo (${SCRIPTED_STAND_IN}, offline)`;

/** True when `modelId` is the offline demo model (after trimming); false for null/undefined. */
export function isDemoModel(modelId: string | null | undefined): boolean {
  return modelId?.trim() === DEMO_MODEL_ID;
}

/**
 * A model picker option's text: a scripted model (`scripted: true` in `GET /api/models`) whose label
 * does not already say so gets ` (scripted stand-in)` appended, so the tag appears exactly once.
 */
export function modelOptionLabel(option: { label: string; scripted?: boolean }): string {
  return option.scripted && !option.label.toLowerCase().includes(SCRIPTED_STAND_IN) ? `${option.label} (${SCRIPTED_STAND_IN})` : option.label;
}

/** `modelId` for display: the demo model as `demo (a scripted stand-in, not an LLM)`, any other id unchanged. */
export function describeModelId(modelId: string): string {
  return isDemoModel(modelId) ? `${DEMO_MODEL_ID} (${DEMO_MODEL_NOTE})` : modelId;
}

/**
 * Where a model comes from. `google` is Gemini (`@ai-sdk/google`), `ollama` a local Ollama
 * server, `compatible` any other OpenAI-compatible server (LM Studio, vLLM, llama.cpp…).
 */
export type ProviderName = "demo" | ConfigurableProvider;

/** Providers that need configuration, in the order used to pick the default model. */
export const CONFIGURABLE_PROVIDERS = ["openai", "anthropic", "google", "ollama", "compatible"] as const;

/** True when `name` is one of {@link CONFIGURABLE_PROVIDERS}. */
export function isConfigurableProvider(name: string): name is ConfigurableProvider {
  return CONFIGURABLE_PROVIDERS.some((provider) => provider === name);
}

/** A configurable provider (every {@link ProviderName} except `demo`). */
export type ConfigurableProvider = (typeof CONFIGURABLE_PROVIDERS)[number];

/** A model id split into its parts: `openai:gpt-4o-mini` → `{ provider: "openai", model: "gpt-4o-mini" }`; `demo` → `{ provider: "demo", model: "demo" }`. */
export interface ParsedModelId {
  /** The full, trimmed model id. */
  id: string;
  provider: ProviderName;
  /** The provider's own model name (everything after the first `:`). */
  model: string;
}

/**
 * Parses a model id.
 * @throws AppError `invalid-input` when the id is not `demo` or `openai|anthropic|compatible:<model>`.
 */
export function parseModelId(modelId: string): ParsedModelId {
  const parsed = modelIdSchema.safeParse(modelId);
  if (!parsed.success) {
    throw new AppError(
      "invalid-input",
      `Unknown model id "${modelId}". Use "demo" or "provider:model" with provider openai, anthropic, google, ollama or compatible (e.g. "openai:gpt-4o-mini").`,
    );
  }
  const id = parsed.data;
  if (id === DEMO_MODEL_ID) return { id, provider: "demo", model: DEMO_MODEL_ID };
  const colon = id.indexOf(":");
  const provider = id.slice(0, colon);
  if (!isConfigurableProvider(provider)) throw new AppError("invalid-input", `Unknown provider "${provider}" in model id "${modelId}".`);
  return { id, provider, model: id.slice(colon + 1) };
}

/**
 * Splits a model id at its first `:` without validating it, for ids already recorded (events,
 * rate-limit tables, price rows) where an unknown provider must not throw:
 * `openai:gpt-4o` → `{ provider: "openai", model: "gpt-4o" }`; an id with no colon (`demo`)
 * → `{ provider: id, model: id }`. Use {@link parseModelId} for input that must be valid.
 */
export function splitModelId(modelId: string): { provider: string; model: string } {
  const colon = modelId.indexOf(":");
  return colon === -1 ? { provider: modelId, model: modelId } : { provider: modelId.slice(0, colon), model: modelId.slice(colon + 1) };
}
