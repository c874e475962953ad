import { getServerContext } from "@/lib/server/app-context";
import { bundleResponse } from "@/lib/server/bundle-download";
import { handle } from "@/lib/server/http-errors";
import { namesModeOf } from "@/lib/domain/strip-names";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * `?names=strip` replaces people's names with pseudonyms (docs/audit.md). Downloads the run with all its branches as a
 * format-2 bundle (gzip'd JSON Lines, lib/bundles/stream-format.ts), streamed (lib/server/bundle-download.ts). 409 while a branch is running.
 */
export const GET = handle(async (request: Request, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  const names = namesModeOf(new URL(request.url).searchParams.get("names"));
  return bundleResponse((out) => getServerContext().bundles.exportRunTo(out, runId, { names }));
});
