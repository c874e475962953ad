import { describeIssues } from "@/lib/domain/describe-issues";
import { AppError } from "@/lib/domain/errors";
import { memoryExportQuerySchema, memoryExportText } from "@/lib/domain/memory-export";
import { memoryStoreNameSchema } from "@/lib/domain/memory-store";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * `GET /api/memory-stores/<name>/reflections?task=&family=&format=json|text&limit=`: the store's
 * unexpired reflections and ExpeL insights, newest first, for an agent's next prompt
 * (lib/domain/memory-export.ts). `format=json` (default) answers `memoryExportSchema`
 * (`{ store, entries }`, each entry with its source, provenance and kind); `format=text` answers
 * `text/plain`, one entry per line. 404 names the existing stores; 400 names a bad parameter.
 */
export const GET = handle(async (request: Request, context: { params: Promise<{ name: string }> }) => {
  const { name: raw } = await context.params;
  const name = memoryStoreNameSchema.safeParse(raw);
  if (!name.success) throw new AppError("invalid-input", `"${raw}" is not a memory store name: ${name.error.issues[0]?.message ?? "see GET /api/memory-stores"}.`);
  const params = Object.fromEntries([...new URL(request.url).searchParams].filter(([, value]) => value !== ""));
  const parsed = memoryExportQuerySchema.safeParse(params);
  if (!parsed.success) throw new AppError("invalid-input", `Bad query: ${describeIssues(parsed.error, "query")}. Parameters: task, family, format (json or text), limit (1–1000).`);
  const { format, ...filter } = parsed.data;
  const exported = await getServerContext().memoryStores.exportEntries(name.data, filter);
  const headers = { "cache-control": "no-store" };
  if (format === "text") return new Response(memoryExportText(exported), { headers: { ...headers, "content-type": "text/plain; charset=utf-8" } });
  return Response.json(exported, { headers });
});
