import { z } from "zod";
import { currentActor } from "@/lib/actors/actor-context";
import { AppError } from "@/lib/domain/errors";
import { scopeOfKey, setSpendingLimitRequestSchema, spendingPeriods } from "@/lib/domain/spending-limits";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { readRequestJson, MAX_JSON_BODY_BYTES } from "@/lib/io/bounded-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** `GET /api/budgets` → `spendingLimitsResponseSchema` (lib/domain/spending-limits.ts): every budget per person and lab with this period's spend. Admins only (lib/auth/route-policy.ts). */
export const GET = handle(async () => Response.json({ limits: await getServerContext().spending.list() }, { headers: { "cache-control": "no-store" } }));

/**
 * `PUT /api/budgets` with `setSpendingLimitRequestSchema` (`{ scope: { kind: "lab" | "each-person" | "person", userId? }, period: "day" | "month", usd?, tokens? }`,
 * USD and tokens per period): sets or replaces that budget; answers with every budget.
 */
export const PUT = handle(async (request: Request) => {
  const server = getServerContext();
  await server.spending.set(setSpendingLimitRequestSchema.parse(await readRequestJson(request, MAX_JSON_BODY_BYTES, "budget")), currentActor()?.name ?? null);
  return Response.json({ limits: await server.spending.list() });
});

const removeQuery = z.object({ scope: z.string().min(1), period: z.enum(spendingPeriods) });

/** `DELETE /api/budgets?scope=lab|each-person|person:<user id>&period=day|month`: removes that budget (404 when there is none); answers with every budget. */
export const DELETE = handle(async (request: Request) => {
  const params = new URL(request.url).searchParams;
  const query = removeQuery.safeParse({ scope: params.get("scope"), period: params.get("period") });
  if (!query.success) throw new AppError("invalid-input", "Say which budget to remove: ?scope=lab|each-person|person:<user id>&period=day|month.");
  let scope;
  try {
    scope = scopeOfKey(query.data.scope);
  } catch (error) {
    throw new AppError("invalid-input", error instanceof Error ? error.message : String(error));
  }
  const server = getServerContext();
  if (!(await server.spending.remove(scope, query.data.period))) throw new AppError("not-found", `There is no ${query.data.period} budget for ${query.data.scope}.`);
  return Response.json({ limits: await server.spending.list() });
});
