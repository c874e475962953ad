import { templateBundleSchema } from "@/lib/domain/template-library";
import { readJsonBounded } from "@/lib/io/bounded-body";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Largest import body, bytes: template files are text, a whole library is well under this. */
const MAX_TEMPLATE_IMPORT_BYTES = 16 * 1024 * 1024;

/** Imports template files (`templateBundleSchema`) → `{ imported, skipped }`; idempotent by content. 413 for a body over 16 MB, refused before it is read. */
export const POST = handle(async (request: Request) => {
  const body = templateBundleSchema.parse(await readJsonBounded(request, MAX_TEMPLATE_IMPORT_BYTES, "template import"));
  return Response.json(await getServerContext().templateWorkbench.importFiles(body));
});
