import { AppError } from "./errors";
import { splitModelId } from "./model-id";
import { longestPrefixMatch } from "./tokenizer";

/**
 * Context windows of the models the playground knows (prompt + completion, in
 * tokens), and the default for the others. Used by the inspector's token meter
 * and by the shrink-and-retry after a context-length error.
 *
 * Sources: OpenAI's model pages (platform.openai.com/docs/models, 2025–2026:
 * GPT-4o 128,000; GPT-4.1 1,047,576; GPT-5 400,000; o1/o3/o4-mini 200,000;
 * GPT-4 8,192; GPT-3.5 Turbo 16,385; text-davinci-003 4,097 — the reference's
 * model, whose prompt it stops at 3,896 tokens, reflexion-reference.md §2.5),
 * Anthropic's models overview (docs.anthropic.com: every Claude 3/3.5/3.7/4
 * model 200,000; 1M for Sonnet 4 is a beta header we do not send), Google's
 * Gemini models page (ai.google.dev/gemini-api/docs/models, 2025: Gemini 1.5
 * Pro 2,097,152; 1.5 Flash, 2.0 and 2.5 models 1,048,576).
 */

/** Known windows by provider, as model-name prefixes; the longest matching prefix wins. */
export const CONTEXT_WINDOWS: Readonly<Record<"openai" | "anthropic" | "google", ReadonlyArray<readonly [string, number]>>> = {
  openai: [
    ["gpt-4o", 128_000],
    ["chatgpt-4o", 128_000],
    ["gpt-4.1", 1_047_576],
    ["gpt-4.5", 128_000],
    ["gpt-5", 400_000],
    ["o1", 200_000],
    ["o1-mini", 128_000],
    ["o3", 200_000],
    ["o4-mini", 200_000],
    ["gpt-4-turbo", 128_000],
    ["gpt-4-1106", 128_000],
    ["gpt-4-0125", 128_000],
    ["gpt-4-32k", 32_768],
    ["gpt-4", 8_192],
    ["gpt-3.5-turbo", 16_385],
    ["gpt-3.5-turbo-instruct", 4_096],
    ["text-davinci-003", 4_097],
    ["text-davinci-002", 4_097],
  ],
  anthropic: [["claude", 200_000]],
  google: [
    ["gemini-1.5-pro", 2_097_152],
    ["gemini-1.5-flash", 1_048_576],
    ["gemini-2", 1_048_576],
  ],
};

/**
 * Windows when a model is not in {@link CONTEXT_WINDOWS}: OpenAI's current
 * models have at least 128,000; Claude 200,000; an OpenAI-compatible server
 * 8,192 (Ollama and llama.cpp default to a small context — 2,048–8,192 — unless
 * configured; set `REFLEXION_CONTEXT_WINDOW_COMPATIBLE` to your server's);
 * Gemini 1,048,576; Ollama 4,096 (its default `num_ctx` since v0.6; a prompt
 * past it is cut from the front without an error, so the meter warns early —
 * set `REFLEXION_CONTEXT_WINDOW_OLLAMA` to the `num_ctx` you run with);
 * the demo model reads any length (128,000 is only what the meter shows).
 */
export const DEFAULT_CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  openai: 128_000,
  anthropic: 200_000,
  compatible: 8_192,
  google: 1_048_576,
  ollama: 4_096,
  demo: 128_000,
};

/** The window for a provider we know nothing about. */
export const FALLBACK_CONTEXT_WINDOW = 8_192;

/** Where a window came from, for the inspector and messages. */
export type ContextWindowSource = "table" | "default" | "env";

/** A model's context window in tokens and where the number came from (`setting`: the env var when `env`). */
export interface ContextWindow {
  tokens: number;
  source: ContextWindowSource;
  setting?: string;
}

/** Environment names of the override: `REFLEXION_CONTEXT_WINDOW_<PROVIDER>` and `REFLEXION_CONTEXT_WINDOW`. */
export function contextWindowSettingNames(provider: string): { perProvider: string; global: string } {
  return { perProvider: `REFLEXION_CONTEXT_WINDOW_${provider.toUpperCase()}`, global: "REFLEXION_CONTEXT_WINDOW" };
}

function readWindow(env: Record<string, string | undefined>, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw.replace(/[_,]/g, ""));
  if (!Number.isInteger(value) || value < 256 || value > 100_000_000) {
    throw new AppError("invalid-input", `${name} must be a whole number of tokens between 256 and 100,000,000 (e.g. 32768), got "${raw}". Fix or unset it and restart.`);
  }
  return value;
}

/**
 * The context window of `modelId` (tokens). Order: `REFLEXION_CONTEXT_WINDOW_<PROVIDER>`
 * (every model of that provider, e.g. `_COMPATIBLE=32768` for a local server
 * started with a 32k context), then {@link CONTEXT_WINDOWS}, then
 * `REFLEXION_CONTEXT_WINDOW` (the default for models not in the table), then
 * {@link DEFAULT_CONTEXT_WINDOWS}.
 * @throws AppError("invalid-input") when a set variable is not a token count.
 */
export function contextWindowFor(modelId: string, env: Record<string, string | undefined> = {}): ContextWindow {
  const { provider, model } = splitModelId(modelId);
  const names = contextWindowSettingNames(provider);
  const perProvider = readWindow(env, names.perProvider);
  if (perProvider !== undefined) return { tokens: perProvider, source: "env", setting: names.perProvider };
  const table = provider === "openai" || provider === "anthropic" || provider === "google" ? CONTEXT_WINDOWS[provider] : undefined;
  const known = table ? longestPrefixMatch(table, model) : undefined;
  if (known !== undefined) return { tokens: known, source: "table" };
  const global = readWindow(env, names.global);
  if (global !== undefined) return { tokens: global, source: "env", setting: names.global };
  return { tokens: DEFAULT_CONTEXT_WINDOWS[provider] ?? FALLBACK_CONTEXT_WINDOW, source: "default" };
}
