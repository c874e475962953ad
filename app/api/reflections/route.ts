import { reflectionQuerySchema } from "@/lib/domain/reflection-outcomes";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { listReflections } from "@/lib/server/reflection-outcomes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * `GET /api/reflections?experimentId=&runId=&q=&helped=true|false&limit=&cursor=`:
 * reflections with the failed trial they came from and whether the next trial
 * succeeded (lib/domain/reflection-outcomes.ts `reflectionListResponseSchema`).
 * Bad parameters answer 400 naming the parameter.
 */
export const GET = handle(async (request: Request) => {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  // An empty parameter (`?helped=`) means "not set", as a form would send it.
  const query = reflectionQuerySchema.parse(Object.fromEntries(Object.entries(params).filter(([, value]) => value !== "")));
  return Response.json(await listReflections(getServerContext().store, query));
});
