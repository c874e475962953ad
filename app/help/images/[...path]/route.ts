import { imageContentSecurityPolicy } from "@/lib/security/content-security-policy.js";
import { readHelpImage } from "@/lib/server/help-images";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** An hour: the guides' screenshots change with a release, not between page views. */
const CACHE_CONTROL = "public, max-age=3600";

function notFound(): Response {
  return new Response("Not found: the help pages serve only the image files under docs/.", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store" },
  });
}

/**
 * `GET /help/images/<path under docs/>`: an image of the docs (png, jpg/jpeg, webp, svg) for the
 * help pages, e.g. `/help/images/images/presenter-mode.png` is docs/images/presenter-mode.png.
 * Anything else — another extension, a name with `..` or an encoded character, a symbolic link out
 * of docs/, a missing file — is a 404 (lib/server/help-images.ts). Answers with the file's
 * Content-Type, `nosniff`, an ETag (size and modification time; `If-None-Match` → 304) and an hour
 * of caching, under the script-free image policy (`imageContentSecurityPolicy`, which next.config.js
 * also sets on these paths so the app-wide policy does not replace it).
 */
export async function GET(request: Request, { params }: { params: Promise<{ path: string[] }> }): Promise<Response> {
  const { path } = await params;
  const image = readHelpImage(path);
  if (image === null) return notFound();
  const etag = `W/"${image.body.length.toString(16)}-${image.modified.getTime().toString(16)}"`;
  const headers: Record<string, string> = {
    "Content-Type": image.contentType,
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": CACHE_CONTROL,
    ETag: etag,
    "Last-Modified": image.modified.toUTCString(),
    "Content-Security-Policy": imageContentSecurityPolicy(),
  };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(image.body), { status: 200, headers: { ...headers, "Content-Length": String(image.body.length) } });
}
