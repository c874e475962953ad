import { AppError } from "@/lib/domain/errors";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The shared view of an imported bundle by its content hash (lib/bundles/api.ts `sharedBundleResponseSchema`). */
export const GET = handle(async (_request: Request, context: { params: Promise<{ hash: string }> }) => {
  const { hash } = await context.params;
  const view = await getServerContext().bundles.sharedView(hash);
  if (!view) throw new AppError("not-found", `No bundle with content hash ${hash.slice(0, 16)}… was imported here. Import the bundle file once (home page, or \`npm run cli -- import <file>\`), then open this link again.`);
  return Response.json(view);
});
