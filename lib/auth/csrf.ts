/**
 * Cross-site request forgery check for state-changing API requests: OWASP's "verify origin with
 * standard headers" defence (Cross-Site Request Forgery Prevention Cheat Sheet, "Fetch Metadata headers"
 * and "Verifying Origin With Standard Headers"). A browser attaches `Sec-Fetch-Site` and `Origin` to
 * every cross-origin POST/PUT/PATCH/DELETE and a page cannot forge them, so:
 * - `Sec-Fetch-Site: cross-site` is refused;
 * - an `Origin` whose host is neither the request's `Host` nor `REFLEXION_PUBLIC_URL`'s host is refused
 *   (including `Origin: null`, sent by sandboxed frames and some redirects);
 * - a request with neither header (curl, the CLI, tests, server-to-server) passes: it carries no
 *   ambient credential a page could borrow;
 * - a request authenticated by `Authorization: Bearer` with no `Cookie` is exempt: a page cannot make
 *   the browser add that header to a cross-site request, so there is nothing to forge.
 * It applies with sign-in off as well: a web page must not drive an embedded playground on 127.0.0.1.
 *
 * Why no library: Next's own origin check guards Server Actions only, not route handlers; Better Auth's
 * covers only its `/api/auth/*` endpoints; Hono's `csrf()` middleware is this same check but for a Hono
 * app (and only on form-submittable content types — here every state-changing request is checked); the
 * token-based packages (csrf-csrf, @edge-csrf/nextjs) add a token round trip to every fetch and are
 * meant for Express or Next middleware. The header check is a few lines over standard headers and needs
 * no client change.
 */

/** Methods that change state (the ones the check applies to). */
const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Hosts (`host[:port]`, lower case) a same-site request may name in `Origin`. */
function allowedHosts(request: Request, publicUrl: string | undefined): Set<string> {
  const hosts = new Set<string>();
  const host = request.headers.get("host");
  if (host) hosts.add(host.toLowerCase());
  else {
    try {
      hosts.add(new URL(request.url).host.toLowerCase());
    } catch {
      // A relative or malformed URL names no host; only the public URL (if set) counts then.
    }
  }
  if (publicUrl?.trim()) {
    try {
      hosts.add(new URL(publicUrl.trim()).host.toLowerCase());
    } catch {
      // A malformed REFLEXION_PUBLIC_URL is reported where it is read; it allows nothing here.
    }
  }
  return hosts;
}

/**
 * Why `request` must be refused as a cross-site request, or null when it may go on.
 * `publicUrl` is `REFLEXION_PUBLIC_URL` (the address people use when a proxy rewrites `Host`).
 */
export function crossSiteRefusal(request: Request, publicUrl?: string): string | null {
  if (!STATE_CHANGING.has(request.method.toUpperCase())) return null;
  const bearer = /^bearer\s/i.test(request.headers.get("authorization") ?? "");
  if (bearer && !request.headers.get("cookie")) return null;
  if (request.headers.get("sec-fetch-site")?.toLowerCase() === "cross-site") {
    return "cross-site request refused (CSRF): the browser says it came from another site's page (Sec-Fetch-Site: cross-site). Use the playground's own pages, or send Authorization: Bearer <token> from a script.";
  }
  const origin = request.headers.get("origin");
  if (origin === null) return null;
  let originHost: string | null = null;
  try {
    originHost = new URL(origin).host.toLowerCase();
  } catch {
    originHost = null;
  }
  if (originHost && allowedHosts(request, publicUrl).has(originHost)) return null;
  return `cross-site request refused (CSRF): Origin ${JSON.stringify(origin.slice(0, 100))} is not this server. Use the playground's own pages, set REFLEXION_PUBLIC_URL to the address people use if a proxy rewrites Host, or send Authorization: Bearer <token> from a script.`;
}
