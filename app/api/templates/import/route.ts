import { templateBundleSchema } from "@/lib/domain/template-library";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Imports template files (`templateBundleSchema`) → `{ imported, skipped }`; idempotent by content. */
export const POST = handle(async (request: Request) => {
  const body = templateBundleSchema.parse(await request.json());
  return Response.json(await getServerContext().templateWorkbench.importFiles(body));
});
