import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { namesModeOf } from "@/lib/domain/strip-names";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** `?names=strip` replaces people's names with pseudonyms (docs/audit.md). Downloads the run with all its branches as a bundle file (lib/bundles/format.ts). 409 while a branch is running. */
export const GET = handle(async (request: Request, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  const download = await getServerContext().bundles.exportRun(runId, { names: namesModeOf(new URL(request.url).searchParams.get("names")) });
  return new Response(new Uint8Array(download.bytes), {
    headers: {
      "content-type": "application/gzip",
      "content-disposition": `attachment; filename="${download.fileName}"`,
      "x-bundle-sha256": download.manifest.contentSha256,
    },
  });
});
