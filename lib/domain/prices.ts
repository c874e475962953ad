import { z } from "zod";

/**
 * The price table's shapes (lib/llm/pricing.ts has the seed and
 * the arithmetic, lib/db/price-store.ts the storage). In lib/domain so the
 * settings page can parse the API's answers.
 */

/** zod schema of a price row as stored and returned by `GET /api/settings/prices`. */
export const priceRowSchema = z.object({
  /** `pr-…`; seed rows have stable ids `pr-seed-<provider>-<model>`. */
  id: z.string().min(1),
  /** `openai`, `anthropic`, `google`, `ollama`, `compatible`. */
  provider: z.string().min(1),
  /** The model id without the provider (dated snapshots and `-latest` normalised away), or `*` for every model of the provider. */
  model: z.string().min(1),
  inputUsdPerMTok: z.number().nonnegative(),
  outputUsdPerMTok: z.number().nonnegative(),
  cachedInputUsdPerMTok: z.number().nonnegative().nullable(),
  /** ISO-8601: the row applies to calls made from this time on (until a newer row of the same model). */
  enteredAt: z.string().min(1),
  /** Where the price comes from (a price page, "set by hand"). */
  note: z.string(),
});
export type PriceRow = z.infer<typeof priceRowSchema>;

/** What a caller gives to add a row (`PUT /api/settings/prices`, `cli prices set`). */
export const newPriceSchema = z.object({
  /** `provider:model` (e.g. `compatible:fake-model`), or `provider:*` for every model of a provider. */
  modelId: z
    .string()
    .trim()
    .regex(/^(openai|anthropic|google|ollama|compatible):\S+$/, { message: "modelId must be provider:model (provider openai, anthropic, google, ollama or compatible), or provider:* for all its models" }),
  inputUsdPerMTok: z.number().nonnegative().max(10_000),
  outputUsdPerMTok: z.number().nonnegative().max(10_000),
  cachedInputUsdPerMTok: z.number().nonnegative().max(10_000).nullable().default(null),
  note: z.string().max(500).default("set by hand"),
});
export type NewPrice = z.input<typeof newPriceSchema>;

/** `GET/PUT /api/settings/prices` answer: every row (history, oldest first) and the ids in force now. */
export const priceTableResponseSchema = z.object({ rows: z.array(priceRowSchema), currentIds: z.array(z.string()) });
export type PriceTableResponse = z.infer<typeof priceTableResponseSchema>;
