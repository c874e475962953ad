import { AppError } from "@/lib/domain/errors";
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
/** The longest search (`q`) accepted, as reflectionQuerySchema says; the page's search box has the same maxLength. */
const REFLECTION_SEARCH_MAX = 500;

export const GET = handle(async (request: Request) => {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  if ((params.q ?? "").length > REFLECTION_SEARCH_MAX) {
    throw new AppError("invalid-input", `The search is too long (${params.q?.length} characters): use at most ${REFLECTION_SEARCH_MAX}, a few words are enough.`);
  }
  // An empty parameter (`?helped=`) means "not set", as a form would send it.
  const query = reflectionQuerySchema.parse(Object.fromEntries(Object.entries(params).filter(([, value]) => value !== "")));
  return Response.json(await listReflections(getServerContext().store, query));
});
