import { toNextJsHandler } from "better-auth/next-js";
import { getServerContext } from "@/lib/server/app-context";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Better Auth's endpoints (`/api/auth/sign-in/email`, `/api/auth/sign-out`, `/api/auth/get-session`,
 * OIDC's `/api/auth/sign-in/oauth2` and callback): public by design, outside `handle()` — they are how
 * a person gets a session. 404 when this process has no accounts (embedded mode, or sign-in off without a secret).
 */
async function authRoute(request: Request): Promise<Response> {
  const accounts = getServerContext().accounts;
  if (!accounts) {
    return Response.json({ error: { code: "not-found", message: "Sign-in is off here (embedded mode, or REFLEXION_SIGN_IN=off): there is nothing to sign in to." } }, { status: 404 });
  }
  const handler = toNextJsHandler(accounts.auth);
  return request.method === "GET" ? handler.GET(request) : handler.POST(request);
}

export const GET = authRoute;
export const POST = authRoute;
