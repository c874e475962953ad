import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { namesModeOf } from "@/lib/domain/strip-names";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** `?names=strip` replaces people's names with pseudonyms (docs/audit.md). Downloads the experiment with every run of its cells as a bundle file. 409 while one of them runs. */
export const GET = handle(async (request: Request, context: { params: Promise<{ experimentId: string }> }) => {
  const { experimentId } = await context.params;
  const download = await getServerContext().bundles.exportExperiment(experimentId, { names: namesModeOf(new URL(request.url).searchParams.get("names")) });
  return new Response(new Uint8Array(download.bytes), {
    headers: {
      "content-type": "application/gzip",
      "content-disposition": `attachment; filename="${download.fileName}"`,
      "x-bundle-sha256": download.manifest.contentSha256,
    },
  });
});
