import type { NextRequest } from "next/server";
import { z } from "zod";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const querySchema = z.object({ a: z.string().min(1), b: z.string().min(1) });

/** The paired tests of arm `a` against arm `b` (`?a=<label>&b=<label>`): `{ tests: PairedComparison[] }` (lib/domain/experiment-tests.ts). */
export const GET = handle(async (request: NextRequest, context: { params: Promise<{ experimentId: string }> }) => {
  const { experimentId } = await context.params;
  const { a, b } = querySchema.parse(Object.fromEntries(request.nextUrl.searchParams));
  return Response.json({ tests: await getServerContext().experiments.compare(experimentId, a, b) });
});
