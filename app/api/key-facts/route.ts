import { z } from "zod";
import { environmentIdSchema } from "@/lib/domain/config";
import type { KeyFactsResponse } from "@/lib/domain/key-facts";
import { keyFactsFor } from "@/lib/environments/demo-key-facts";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const querySchema = z.object({ environment: environmentIdSchema, taskId: z.string().min(1).max(200), strategy: z.string().max(60).optional() });

/**
 * `GET /api/key-facts?environment=&taskId=&strategy=`: the key facts the demo
 * model needs a reflection on this task to state (decision 0022), for "write
 * your own reflection" to match the learner's text as the demo model will.
 */
export const GET = handle(async (request: Request) => {
  const params = new URL(request.url).searchParams;
  const query = querySchema.parse({ environment: params.get("environment"), taskId: params.get("taskId"), strategy: params.get("strategy") ?? undefined });
  const facts = keyFactsFor(query);
  const body: KeyFactsResponse = facts === null ? { known: false, facts: [] } : { known: true, facts: facts.map((fact) => ({ id: fact.id, any: [...fact.any], says: fact.says })) };
  return Response.json(body);
});
