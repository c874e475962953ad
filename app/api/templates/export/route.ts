import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every version of the templates in `?ids=a,b` (default all) as files (`templateBundleSchema`). */
export const GET = handle(async (request: Request) => {
  const ids = (new URL(request.url).searchParams.get("ids") ?? "").split(",").map((id) => id.trim()).filter((id) => id !== "");
  return Response.json(await getServerContext().templateWorkbench.exportFiles(ids));
});
