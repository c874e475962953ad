import { modelIdSchema } from "@/lib/domain/config";
import { AppError } from "@/lib/domain/errors";

/**
 * The app's model ids (`demo`, `openai:<m>`, `anthropic:<m>`, `google:<m>`, `ollama:<m>`, `compatible:<m>`;
 * see `modelIdSchema`) split into provider and model. Dependency-free (no
 * provider SDKs), so hashing, pricing or a cache can use it cheaply.
 */

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
  if (id === "demo") return { id, provider: "demo", model: "demo" };
  const colon = id.indexOf(":");
  const provider = id.slice(0, colon);
  if (!isConfigurableProvider(provider)) throw new AppError("invalid-input", `Unknown provider "${provider}" in model id "${modelId}".`);
  return { id, provider, model: id.slice(colon + 1) };
}
