import { parseModelId } from "./model-id";

/**
 * Model prices, for the cost shown on each model call. List prices in USD per
 * 1 million tokens (input / output), standard tier, no batch or cache
 * discounts; checked against the providers' public price pages in 2025.
 * Update this table when prices change; unknown models cost `null`, not a guess.
 */

/** USD per 1M input and output tokens. */
export interface ModelPrice {
  inputUsdPerMTok: number;
  outputUsdPerMTok: number;
}

/** Prices by full model id (`provider:model`, dated snapshots and `-latest` aliases normalised away). */
export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  "openai:gpt-4o-mini": { inputUsdPerMTok: 0.15, outputUsdPerMTok: 0.6 },
  "openai:gpt-4o": { inputUsdPerMTok: 2.5, outputUsdPerMTok: 10 },
  "openai:gpt-4.1": { inputUsdPerMTok: 2, outputUsdPerMTok: 8 },
  "openai:gpt-4.1-mini": { inputUsdPerMTok: 0.4, outputUsdPerMTok: 1.6 },
  "openai:gpt-4.1-nano": { inputUsdPerMTok: 0.1, outputUsdPerMTok: 0.4 },
  "openai:gpt-3.5-turbo": { inputUsdPerMTok: 0.5, outputUsdPerMTok: 1.5 },
  "anthropic:claude-3-5-haiku": { inputUsdPerMTok: 0.8, outputUsdPerMTok: 4 },
  "anthropic:claude-3-haiku": { inputUsdPerMTok: 0.25, outputUsdPerMTok: 1.25 },
  "anthropic:claude-3-5-sonnet": { inputUsdPerMTok: 3, outputUsdPerMTok: 15 },
  "anthropic:claude-3-7-sonnet": { inputUsdPerMTok: 3, outputUsdPerMTok: 15 },
  "anthropic:claude-sonnet-4": { inputUsdPerMTok: 3, outputUsdPerMTok: 15 },
  "anthropic:claude-opus-4": { inputUsdPerMTok: 15, outputUsdPerMTok: 75 },
};

/**
 * Strips version suffixes that do not change the price: a date
 * (`-20241022`, `-2024-07-18`), `-latest`, or an Anthropic `-0` alias suffix.
 * `anthropic:claude-3-5-haiku-latest` → `anthropic:claude-3-5-haiku`.
 */
export function normalizePricedModelId(modelId: string): string {
  return modelId.replace(/-(latest|\d{8}|\d{4}-\d{2}-\d{2}|0)$/, "");
}

/**
 * The price of a model, or `null` when unknown (including every `compatible:*`
 * model: a local server may be free, a hosted one may not, we cannot tell).
 * The demo model costs 0.
 */
export function priceOf(modelId: string): ModelPrice | null {
  const { provider, id } = parseModelId(modelId);
  if (provider === "demo") return { inputUsdPerMTok: 0, outputUsdPerMTok: 0 };
  if (provider === "compatible") return null;
  return MODEL_PRICES[id] ?? MODEL_PRICES[normalizePricedModelId(id)] ?? null;
}

/**
 * Cost of one call in USD: `input × inputPrice + output × outputPrice`, prices
 * per 1M tokens. `null` when the model's price is unknown.
 *
 * @param usage - token counts of the call.
 * @throws AppError `invalid-input` for a malformed model id.
 */
export function costUsdOf(modelId: string, usage: { inputTokens: number; outputTokens: number }): number | null {
  const price = priceOf(modelId);
  if (price === null) return null;
  return (usage.inputTokens * price.inputUsdPerMTok + usage.outputTokens * price.outputUsdPerMTok) / 1_000_000;
}
