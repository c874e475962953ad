import { toNextJsHandler } from "better-auth/next-js";
import { getServerContext } from "@/lib/server/app-context";
import { auditAction } from "@/lib/server/audit-log";
import { SignInGuard } from "@/lib/auth/sign-in-guard";

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
  if (request.method === "POST" && new URL(request.url).pathname.endsWith("/sign-in/email")) return signInWithEmail(request, (forwarded) => handler.POST(forwarded));
  const response = await (request.method === "GET" ? handler.GET(request) : handler.POST(request));
  response.headers.set(SIGN_IN_HEADER, "on");
  return response;
}

const guardKey = Symbol.for("reflexion-playground.sign-in-guard");
/** One guard per process (kept on globalThis: the route module may be loaded more than once). */
function signInGuard(): SignInGuard {
  const holder = globalThis as typeof globalThis & { [guardKey]?: SignInGuard };
  holder[guardKey] ??= new SignInGuard();
  return holder[guardKey];
}

/**
 * Email + password sign-in, with a per-account brake on guessing (lib/auth/sign-in-guard.ts) beside
 * Better Auth's per-address limit, and every attempt — good or bad — in the audit log
 * (`POST /api/auth/sign-in/email`, the email as target, the status).
 */
async function signInWithEmail(request: Request, forward: (request: Request) => Promise<Response>): Promise<Response> {
  const context = getServerContext();
  const body = await request.text();
  const email = emailOf(body);
  const guard = signInGuard();
  const wait = email ? await guard.waitSeconds(email) : null;
  let response: Response;
  if (wait !== null) {
    response = Response.json(
      { code: "TOO_MANY_REQUESTS", message: `Too many failed sign-ins for this account: wait ${wait} s, or ask an admin to set a new password (\`cli users set-password\`).` },
      { status: 429, headers: { "retry-after": String(wait), "x-retry-after": String(wait) } },
    );
  } else {
    response = await forward(new Request(request.url, { method: "POST", headers: request.headers, body }));
    if (email && response.status === 200) await guard.succeeded(email);
    else if (email && response.status !== 429 && response.status !== 403) await guard.failed(email);
  }
  response.headers.set(SIGN_IN_HEADER, "on");
  const who = email ?? "(no email)";
  await auditAction({ kind: "person", id: who, name: who, userId: null }, "POST /api/auth/sign-in/email", { email: who }, response.status, {
    store: context.audit,
    detail: response.status === 200 ? null : `sign-in refused (${response.status})`,
  });
  return response;
}

function emailOf(body: string): string | null {
  try {
    const email = (JSON.parse(body) as { email?: unknown }).email;
    return typeof email === "string" && email.trim() !== "" ? email.trim().toLowerCase() : null;
  } catch {
    return null;
  }
}

export const GET = authRoute;
export const POST = authRoute;
