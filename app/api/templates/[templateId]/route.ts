import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { decodeParam } from "@/lib/server/template-service";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** A template and its versions, newest first (`templateDetailResponseSchema`). Ids with `/` come URL-encoded. */
export const GET = handle(async (_request: Request, context: { params: Promise<{ templateId: string }> }) => {
  const { templateId } = await context.params;
  return Response.json(await getServerContext().templates.detail(decodeParam(templateId)));
});
