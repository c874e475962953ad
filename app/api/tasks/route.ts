import type { NextRequest } from "next/server";
import { z } from "zod";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { MAX_TASKS_PAGE } from "@/lib/domain/workload-limits";
import { defaultFamilyId } from "@/lib/environments/descriptors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const querySchema = z.object({
  env: z.string().default(defaultFamilyId),
  taskSet: z.string().default("builtin"),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_TASKS_PAGE, `limit is at most ${MAX_TASKS_PAGE}; page through a larger set with offset`).default(MAX_TASKS_PAGE),
});

/**
 * A page of a task set's tasks: `?env=qa&taskSet=builtin|<uploaded id>&offset=0&limit=1000`
 * (`limit` at most {@link MAX_TASKS_PAGE}); `total` counts the whole set.
 */
export const GET = handle(async (request: NextRequest) => {
  const query = querySchema.parse(Object.fromEntries(request.nextUrl.searchParams));
  return Response.json(await getServerContext().service.listTasks(query.env, query.taskSet, { offset: query.offset, limit: query.limit }));
});
