import { modelIdSchema } from "@/lib/domain/config";
import { AppError } from "@/lib/domain/errors";

/**
 * The app's model ids (`demo`, `openai:<m>`, `anthropic:<m>`, `compatible:<m>`;
 * see `modelIdSchema`) split into provider and model. Dependency-free (no
 * provider SDKs), so hashing, pricing or a cache can use it cheaply.
 */

/** Where a model comes from. `compatible` is any OpenAI-compatible server (Ollama, LM Studio, vLLM…). */
export type ProviderName = "demo" | "openai" | "anthropic" | "compatible";

/** Providers that need configuration, in the order used to pick the default model. */
export const CONFIGURABLE_PROVIDERS = ["openai", "anthropic", "compatible"] as const;

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
      `Unknown model id "${modelId}". Use "demo" or "provider:model" with provider openai, anthropic or compatible (e.g. "openai:gpt-4o-mini").`,
    );
  }
  const id = parsed.data;
  if (id === "demo") return { id, provider: "demo", model: "demo" };
  const colon = id.indexOf(":");
  return { id, provider: id.slice(0, colon) as ConfigurableProvider, model: id.slice(colon + 1) };
}
