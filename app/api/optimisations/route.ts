import { optimisationRequestSchema } from "@/lib/domain/optimiser/types";
import { readRequestJson, MAX_JSON_BODY_BYTES } from "@/lib/io/bounded-body";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { runInBackground } from "@/lib/server/optimiser/background";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Starts a reflective optimisation (body `optimisationRequestSchema`, lib/domain/optimiser/types.ts)
 * → `{ optimisation }` (202): it runs in the background on this server's workers; poll
 * `GET /api/optimisations/:id` for its candidates and status.
 */
export const POST = handle(async (request: Request) => {
  const body = optimisationRequestSchema.parse(await readRequestJson(request, MAX_JSON_BODY_BYTES, "optimisation request"));
  const context = getServerContext();
  const optimisation = await context.optimiser.create(body);
  runInBackground(context, optimisation.id);
  return Response.json({ optimisation }, { status: 202 });
});

/** Every optimisation, newest first → `{ optimisations }`. */
export const GET = handle(async () => Response.json({ optimisations: await getServerContext().optimiser.list() }));
