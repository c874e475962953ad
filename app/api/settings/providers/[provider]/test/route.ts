import { AppError } from "@/lib/domain/errors";
import { providerIdSchema, providerTestRequestSchema } from "@/lib/domain/providers";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { readTextBounded, MAX_JSON_BODY_BYTES } from "@/lib/io/bounded-body";
import { describeIssues } from "@/lib/domain/describe-issues";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * `POST /api/settings/providers/:provider/test` body `{ modelId? }` → `providerTestResultSchema`:
 * one tiny call (≤ 5 output tokens) with its latency in ms, or the error (never a key). A failed
 * call is a 200 with `ok: false`; an unknown provider or a malformed body is a 400.
 */
export const POST = handle(async (request: Request, context: { params: Promise<{ provider: string }> }) => {
  const { provider } = await context.params;
  const id = providerIdSchema.safeParse(provider);
  if (!id.success) throw new AppError("invalid-input", `Unknown provider "${provider.slice(0, 40)}". Use one of: ${providerIdSchema.options.join(", ")}.`);
  const raw = await readTextBounded(request, MAX_JSON_BODY_BYTES, "provider test request");
  let json: unknown = {};
  try {
    json = raw.trim() === "" ? {} : JSON.parse(raw);
  } catch {
    throw new AppError("invalid-input", "The body must be JSON, e.g. {} or {\"modelId\": \"openai:gpt-4o-mini\"}.");
  }
  const body = providerTestRequestSchema.safeParse(json);
  if (!body.success) throw new AppError("invalid-input", `Bad test request: ${describeIssues(body.error, "request")}.`);
  return Response.json(await getServerContext().providers.test(id.data, body.data.modelId), { headers: { "cache-control": "no-store" } });
});
