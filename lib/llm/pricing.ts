import type { PriceRow } from "@/lib/domain/prices";
import { isDemoModel, parseModelId, splitModelId } from "@/lib/domain/model-id";

/**
 * Model prices, for the cost recorded on each model call
 * (docs/decisions/0024-costs-budgets-memory.md). List prices in USD per
 * 1 million tokens — input, output and cached input (tokens the provider served
 * from its prompt cache) — standard tier, no batch discounts.
 *
 * The editable table lives in the database (lib/db/price-store.ts, edited on
 * the settings page, `PUT /api/settings/prices`, `cli prices set`); this file
 * holds its seed — the table checked against the providers' public price pages
 * in 2025, cached-input rates from the same pages (OpenAI "Cached input",
 * Anthropic "Cache hits & refreshes" = 0.1 × input, Google "Context caching") —
 * and the arithmetic. Unknown prices are `null`, never a guess.
 */

/** USD per 1M input, output and cached-input tokens; `cachedInputUsdPerMTok` null = unknown (cached tokens then priced as input). */
export interface ModelPrice {
  inputUsdPerMTok: number;
  outputUsdPerMTok: number;
  cachedInputUsdPerMTok: number | null;
}

export { newPriceSchema, priceRowSchema, priceTableResponseSchema, type NewPrice, type PriceRow, type PriceTableResponse } from "@/lib/domain/prices";

/** The seed table's date: when its prices were checked. */
export const SEED_PRICES_DATE = "2025-08-01T00:00:00.000Z";
const SEED_NOTE = "seed: providers' public price pages, 2025 (lib/llm/pricing.ts)";

/** Seed prices by full model id: [input, output, cached input] USD per 1M tokens. */
const SEED: Readonly<Record<string, readonly [number, number, number | null]>> = {
  "openai:gpt-4o-mini": [0.15, 0.6, 0.075],
  "openai:gpt-4o": [2.5, 10, 1.25],
  "openai:gpt-4.1": [2, 8, 0.5],
  "openai:gpt-4.1-mini": [0.4, 1.6, 0.1],
  "openai:gpt-4.1-nano": [0.1, 0.4, 0.025],
  // No prompt caching for gpt-3.5-turbo on the price page.
  "openai:gpt-3.5-turbo": [0.5, 1.5, null],
  "anthropic:claude-3-5-haiku": [0.8, 4, 0.08],
  "anthropic:claude-3-haiku": [0.25, 1.25, 0.03],
  "anthropic:claude-3-5-sonnet": [3, 15, 0.3],
  "anthropic:claude-3-7-sonnet": [3, 15, 0.3],
  "anthropic:claude-sonnet-4": [3, 15, 0.3],
  "anthropic:claude-opus-4": [15, 75, 1.5],
  "google:gemini-2.0-flash": [0.1, 0.4, 0.025],
  "google:gemini-2.5-flash": [0.3, 2.5, 0.075],
  // Prompts up to 200k tokens; the cached rate changed during 2025: unknown here.
  "google:gemini-2.5-pro": [1.25, 10, null],
};

/** Prices by full model id (the seed table), kept for callers without a database. */
export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = Object.fromEntries(
  Object.entries(SEED).map(([id, [input, output, cached]]) => [id, { inputUsdPerMTok: input, outputUsdPerMTok: output, cachedInputUsdPerMTok: cached }]),
);

/** The seed table as price rows (stable ids, {@link SEED_PRICES_DATE}). */
export function seedPriceRows(): PriceRow[] {
  return Object.entries(SEED).map(([modelId, [input, output, cached]]) => {
    const { provider, model } = splitModelId(modelId);
    return {
      id: `pr-seed-${provider}-${model}`,
      provider,
      model,
      inputUsdPerMTok: input,
      outputUsdPerMTok: output,
      cachedInputUsdPerMTok: cached,
      enteredAt: SEED_PRICES_DATE,
      note: SEED_NOTE,
    };
  });
}

/**
 * Strips version suffixes that do not change the price: a date
 * (`-20241022`, `-2024-07-18`), `-latest`, or an Anthropic `-0` alias suffix.
 * `anthropic:claude-3-5-haiku-latest` → `anthropic:claude-3-5-haiku`.
 */
export function normalizePricedModelId(modelId: string): string {
  return modelId.replace(/-(latest|\d{8}|\d{4}-\d{2}-\d{2}|0)$/, "");
}

/** Token counts of one call; `cachedInputTokens` (part of `inputTokens`) were served from the provider's prompt cache. */
export interface PricedUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
}

/**
 * Cost of one call in USD at `price` (per 1M tokens):
 * `(input − cached) × in + cached × cachedIn + output × out`. Cached tokens
 * are priced as input when the cached rate is unknown (an upper bound).
 */
export function costAt(price: ModelPrice, usage: PricedUsage): number {
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  const cachedRate = price.cachedInputUsdPerMTok ?? price.inputUsdPerMTok;
  return ((usage.inputTokens - cached) * price.inputUsdPerMTok + cached * cachedRate + usage.outputTokens * price.outputUsdPerMTok) / 1_000_000;
}

/** The price a call was charged at: its cost in USD (null when unpriced) and the row used (null for the demo model or no row). */
export interface PricedCall {
  costUsd: number | null;
  price: { rowId: string; enteredAt: string } | null;
}

/**
 * A snapshot of the price table that answers lookups synchronously. A model's
 * price at time `at` is its newest row entered at or before `at` (history is
 * kept: an edit appends a dated row); an exact model row wins over a `provider:*`
 * row. The demo model costs 0 and needs no row.
 */
export class PriceBook {
  private readonly byKey = new Map<string, PriceRow[]>();

  constructor(rows: readonly PriceRow[]) {
    for (const row of rows) {
      const key = `${row.provider}:${row.model}`;
      const list = this.byKey.get(key) ?? [];
      list.push(row);
      this.byKey.set(key, list);
    }
    for (const list of this.byKey.values()) list.sort((a, b) => b.enteredAt.localeCompare(a.enteredAt) || b.id.localeCompare(a.id));
  }

  /** The row in force for `modelId` at `at` (ISO-8601, default now), or null. */
  rowFor(modelId: string, at: string = new Date().toISOString()): PriceRow | null {
    const { provider, model } = parseModelId(modelId);
    const candidates = [model, normalizePricedModelId(model), "*"];
    for (const candidate of candidates) {
      const row = this.byKey.get(`${provider}:${candidate}`)?.find((r) => r.enteredAt <= at);
      if (row) return row;
    }
    return null;
  }

  /** Prices one call made at `at`; see {@link costAt}. */
  price(modelId: string, usage: PricedUsage, at?: string): PricedCall {
    if (isDemoModel(modelId)) return { costUsd: 0, price: null };
    const row = this.rowFor(modelId, at);
    if (!row) return { costUsd: null, price: null };
    return { costUsd: costAt(row, usage), price: { rowId: row.id, enteredAt: row.enteredAt } };
  }
}

const SEED_BOOK = new PriceBook(seedPriceRows());

/**
 * The seed price of a model, or `null` when unknown (including every
 * `compatible:*` model: a local server may be free, a hosted one may not, we
 * cannot tell — add a row for it). The demo model costs 0.
 */
export function priceOf(modelId: string): ModelPrice | null {
  if (isDemoModel(modelId)) return { inputUsdPerMTok: 0, outputUsdPerMTok: 0, cachedInputUsdPerMTok: 0 };
  const row = SEED_BOOK.rowFor(modelId, "9999");
  return row ? { inputUsdPerMTok: row.inputUsdPerMTok, outputUsdPerMTok: row.outputUsdPerMTok, cachedInputUsdPerMTok: row.cachedInputUsdPerMTok } : null;
}

/**
 * Cost of one call in USD at the seed prices (see {@link costAt}); `null` when
 * the model's price is unknown. The app prices calls with the database's table
 * at record time (lib/server/price-service.ts); this is the fallback without one.
 *
 * @throws AppError `invalid-input` for a malformed model id.
 */
export function costUsdOf(modelId: string, usage: PricedUsage): number | null {
  const price = priceOf(modelId);
  return price === null ? null : costAt(price, usage);
}

