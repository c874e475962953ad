import { getServerContext } from "@/lib/server/app-context";
import { bundleResponse } from "@/lib/server/bundle-download";
import { handle } from "@/lib/server/http-errors";
import { namesModeOf } from "@/lib/domain/strip-names";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * `?names=strip` replaces people's names with pseudonyms (docs/audit.md). Downloads the experiment with every run of its
 * cells as a format-2 bundle, streamed one run at a time (lib/server/bundle-download.ts). 409 while one of them runs.
 */
export const GET = handle(async (request: Request, context: { params: Promise<{ experimentId: string }> }) => {
  const { experimentId } = await context.params;
  const names = namesModeOf(new URL(request.url).searchParams.get("names"));
  return bundleResponse((out) => getServerContext().bundles.exportExperimentTo(out, experimentId, { names }));
});
