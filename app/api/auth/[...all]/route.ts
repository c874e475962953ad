import { toNextJsHandler } from "better-auth/next-js";
import { getServerContext } from "@/lib/server/app-context";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Header of `GET /api/auth/get-session` saying whether sign-in is on (`on` | `off`): the header's account badge reads it. */
const SIGN_IN_HEADER = "x-reflexion-sign-in";

/**
 * Better Auth's endpoints (`/api/auth/sign-in/email`, `/api/auth/sign-out`, `/api/auth/get-session`,
 * OIDC's `/api/auth/sign-in/oauth2` and callback): public by design, outside `handle()` — they are how
 * a person gets a session. Live only when sign-in is on; otherwise `get-session` answers `null`
 * (so pages need not treat it as an error) and everything else 404.
 */
async function authRoute(request: Request): Promise<Response> {
  const context = getServerContext();
  if (context.auth.signIn === "off" || !context.accounts) {
    if (request.method === "GET" && new URL(request.url).pathname.endsWith("/get-session")) return Response.json(null, { headers: { [SIGN_IN_HEADER]: "off", "cache-control": "no-store" } });
    return Response.json({ error: { code: "not-found", message: "Sign-in is off here (embedded mode, or REFLEXION_SIGN_IN=off): there is nothing to sign in to." } }, { status: 404 });
  }
  const handler = toNextJsHandler(context.accounts.auth);
  const response = await (request.method === "GET" ? handler.GET(request) : handler.POST(request));
  response.headers.set(SIGN_IN_HEADER, "on");
  return response;
}

export const GET = authRoute;
export const POST = authRoute;
