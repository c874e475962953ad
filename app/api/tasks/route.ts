import type { NextRequest } from "next/server";
import { z } from "zod";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const querySchema = z.object({ env: z.string().default("qa"), taskSet: z.string().default("builtin") });

/** Tasks of a task set: `?env=qa&taskSet=builtin|<uploaded id>`. */
export const GET = handle(async (request: NextRequest) => {
  const query = querySchema.parse(Object.fromEntries(request.nextUrl.searchParams));
  return Response.json(await getServerContext().service.listTasks(query.env, query.taskSet));
});
