import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { decodeParam } from "@/lib/server/template-service";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** A version and its template (`versionDetailResponseSchema`); `:versionId` may be any version reference, URL-encoded. */
export const GET = handle(async (_request: Request, context: { params: Promise<{ versionId: string }> }) => {
  const { versionId } = await context.params;
  return Response.json(await getServerContext().templates.resolve(decodeParam(versionId)));
});
