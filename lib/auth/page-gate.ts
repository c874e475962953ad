import { getSessionCookie } from "better-auth/cookies";
import type { AuthPort } from "./auth-port";
import { signInMode } from "./sign-in-settings";

/**
 * Pages anyone may open: the sign-in page itself, and the students' class pages (`/join`,
 * `/join/<code>`, `/class/<id>`: students have no accounts; their API calls are gated by the
 * student token a join returns). (API routes, `/api/auth/*` and `/api/health` never reach the gate.)
 */
const PUBLIC_PAGES = ["/sign-in", "/join", "/class"];

/** The process's server context as instrumentation.ts built it (lib/server/app-context.ts keeps it on `globalThis` under this symbol). */
const contextKey = Symbol.for("reflexion-playground.server-context");

/** True when `pathname` is a page anyone may open. */
export function isPublicPage(pathname: string): boolean {
  return PUBLIC_PAGES.some((page) => pathname === page || pathname.startsWith(`${page}/`));
}

/** Where a page request without a session goes: `/sign-in?next=<path and query>`. */
export function signInRedirect(url: URL): string {
  const next = `${url.pathname}${url.search}`;
  return `/sign-in${next === "/" ? "" : `?next=${encodeURIComponent(next)}`}`;
}

/**
 * Whether a page request may go on (null) or where it is sent instead. With sign-in on, a page
 * needs a valid session: checked against the database through the server context's AuthPort when
 * the process has built it (it always has once instrumentation ran); before that, the presence of
 * Better Auth's session cookie (every API request the page makes is checked in full by `handle()`).
 */
export async function pageGate(request: Request, env: Record<string, string | undefined> = process.env): Promise<string | null> {
  const url = new URL(request.url);
  if (isPublicPage(url.pathname)) return null;
  const auth = (globalThis as { [contextKey]?: { auth: AuthPort } })[contextKey]?.auth;
  if (auth) {
    if (auth.signIn === "off") return null;
    return (await auth.principalOf(request).catch(() => null)) ? null : signInRedirect(url);
  }
  let mode: "on" | "off";
  try {
    mode = signInMode(env);
  } catch {
    // A bad setting refuses the server's start (lib/server/start-server.ts); the page says nothing meanwhile.
    return null;
  }
  if (mode === "off") return null;
  return getSessionCookie(request) ? null : signInRedirect(url);
}
