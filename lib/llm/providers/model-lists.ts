import { z } from "zod";

/**
 * Parsers for the providers' model-list responses. Pure: they take
 * the parsed JSON body and return the provider's own model names, in the order given,
 * deduplicated. Unknown fields are ignored; a body of the wrong shape throws a
 * `ZodError` (the caller reports "unexpected reply").
 *
 * Formats (as documented by each provider):
 * - OpenAI `GET /v1/models` and every OpenAI-compatible server (vLLM, LM Studio,
 *   llama.cpp, Ollama's `/v1/models`): `{ object: "list", data: [{ id, object: "model", created, owned_by }] }`.
 * - Anthropic `GET /v1/models`: `{ data: [{ type: "model", id, display_name, created_at }], has_more, first_id, last_id }`.
 * - Google Gemini `GET /v1beta/models`: `{ models: [{ name: "models/gemini-2.0-flash", displayName,
 *   supportedGenerationMethods: ["generateContent", …] }], nextPageToken }`.
 * - Ollama `GET /api/tags`: `{ models: [{ name: "llama3.2:latest", model, modified_at, size, digest, details: {…} }] }`.
 */

/** A model as listed: the provider's own name and, when it gives one, a display name. */
export interface ListedModel {
  model: string;
  displayName: string | null;
}

const openAiListSchema = z.object({ data: z.array(z.object({ id: z.string().min(1) })) });
const anthropicListSchema = z.object({ data: z.array(z.object({ id: z.string().min(1), display_name: z.string().optional() })) });
const googleListSchema = z.object({
  models: z
    .array(z.object({ name: z.string().min(1), displayName: z.string().optional(), supportedGenerationMethods: z.array(z.string()).optional() }))
    .default([]),
});
const ollamaTagsSchema = z.object({ models: z.array(z.object({ name: z.string().min(1), model: z.string().optional() })).default([]) });

/** Drops repeats and names that cannot form a model id (whitespace), keeping the first of each. */
function unique(models: ListedModel[]): ListedModel[] {
  const seen = new Set<string>();
  const out: ListedModel[] = [];
  for (const m of models) {
    if (/\s/.test(m.model) || seen.has(m.model)) continue;
    seen.add(m.model);
    out.push(m);
  }
  return out;
}

/** `/v1/models` of OpenAI or an OpenAI-compatible server → model ids. */
export function parseOpenAiModelList(body: unknown): ListedModel[] {
  return unique(openAiListSchema.parse(body).data.map((m) => ({ model: m.id, displayName: null })));
}

/**
 * OpenAI's list holds embeddings, audio, image and moderation models too: keep the
 * chat ones (`gpt-*`, `o1`/`o3`/`o4…`, `chatgpt-*`), minus audio/realtime/transcribe/tts/image/search variants.
 */
export function isOpenAiChatModel(model: string): boolean {
  if (!/^(gpt-|o\d|chatgpt-)/.test(model)) return false;
  return !/(audio|realtime|transcribe|tts|image|search|embedding|instruct)/.test(model);
}

/** Anthropic `/v1/models` → model ids with display names. */
export function parseAnthropicModelList(body: unknown): ListedModel[] {
  return unique(anthropicListSchema.parse(body).data.map((m) => ({ model: m.id, displayName: m.display_name ?? null })));
}

/** Google `/v1beta/models` → the models that can `generateContent`, `models/` prefix removed. */
export function parseGoogleModelList(body: unknown): ListedModel[] {
  return unique(
    googleListSchema
      .parse(body)
      .models.filter((m) => m.supportedGenerationMethods === undefined || m.supportedGenerationMethods.includes("generateContent"))
      .map((m) => ({ model: m.name.replace(/^models\//, ""), displayName: m.displayName ?? null })),
  );
}

/** Ollama `/api/tags` → the pulled models' names (`llama3.2:latest`), usable as `ollama:<name>`. */
export function parseOllamaTags(body: unknown): ListedModel[] {
  return unique(ollamaTagsSchema.parse(body).models.map((m) => ({ model: m.name, displayName: null })));
}
