import { ROUTE_POLICY, type Access, type HttpMethod } from "@/lib/auth/route-policy";
import { matchRoute } from "@/lib/auth/route-match";
import { crossSiteRefusal } from "@/lib/auth/csrf";
import { AppError } from "@/lib/domain/errors";
import { asRunId } from "@/lib/domain/ids";
import { roleAtLeast, LOCAL_PRINCIPAL, type Principal } from "@/lib/domain/roles";
import { getServerContext } from "./app-context";
import { mayChange, ownerOfExperiment, ownerOfRun } from "./ownership";
import { classLanMode, lanAccess, LAN_REFUSAL, PEER_HEADER } from "./lan-peer";

/** What a request without a session or token is told (401). */
export const SIGN_IN_HINT = "Sign in at /sign-in, or send Authorization: Bearer <token> (create one on /account or with `cli tokens create`).";

/** Deny by default: a route or method missing from the policy is for admins only. */
const UNLISTED: Access = { role: "admin" };

/** The access `ROUTE_POLICY` gives `method` on the route `pathname` answers, and the matched params. */
export function accessOf(pathname: string, method: string): { pattern: string | null; access: Access; params: Record<string, string> } {
  const match = matchRoute(pathname, Object.keys(ROUTE_POLICY));
  if (!match) return { pattern: null, access: UNLISTED, params: {} };
  const access = ROUTE_POLICY[match.pattern]?.[method.toUpperCase() as HttpMethod] ?? UNLISTED;
  return { pattern: match.pattern, access, params: match.params };
}

/**
 * Authenticates and authorizes one API request against `ROUTE_POLICY` (lib/auth/route-policy.ts):
 * returns its principal — null only on a `public` route asked without a session or token — or throws an
 * `AppError`:
 * - `forbidden` (403) in class LAN mode for a peer other than loopback outside the students' routes
 *   (lib/server/lan-peer.ts), first;
 * - `forbidden` (403) for a cross-site state-changing request (lib/auth/csrf.ts; before anything else,
 *   with sign-in off too);
 * - `unauthenticated` (401) without a valid session or token, with {@link SIGN_IN_HINT};
 * - `forbidden` (403) when the role is below the route's (naming both), or for `own` routes when the run
 *   or experiment is someone else's (lib/server/ownership.ts);
 * - `not-found` (404) for an `own` route on a run or experiment that does not exist.
 * `args` are the route handler's arguments (`[request, { params }]`); a handler called without a request
 * (tests) is the local user when sign-in is off, and 401 when it is on.
 */
export async function authorizeRequest(args: readonly unknown[]): Promise<Principal | null> {
  const server = getServerContext();
  const request = args[0];
  if (!(request instanceof Request)) {
    if (server.auth.signIn === "off") return LOCAL_PRINCIPAL;
    throw new AppError("unauthenticated", `Not signed in. ${SIGN_IN_HINT}`);
  }
  // Class LAN mode (`npm run class`): a phone on the room's network reaches only the students' routes.
  if (lanAccess({ lanMode: classLanMode(), peer: request.headers.get(PEER_HEADER), pathname: new URL(request.url).pathname, method: request.method }) === "refuse") {
    throw new AppError("forbidden", LAN_REFUSAL);
  }
  const refusal = crossSiteRefusal(request, process.env.REFLEXION_PUBLIC_URL);
  if (refusal) throw new AppError("forbidden", refusal);

  const { pattern, access, params } = accessOf(new URL(request.url).pathname, request.method);
  const principal = await server.auth.principalOf(request);
  if (access === "public") return principal;
  if (!principal) {
    // A bearer token that names nobody is dead (revoked, expired, its account removed, or never issued): say so.
    if (/^Bearer\s+\S/i.test(request.headers.get("authorization") ?? "")) {
      throw new AppError("unauthenticated", "That API token is not valid (unknown, revoked or expired, or its account was removed): create a new one on /account or with `cli tokens create`.");
    }
    throw new AppError("unauthenticated", `Not signed in. ${SIGN_IN_HINT}`);
  }
  if (!roleAtLeast(principal.role, access.role)) {
    const what = pattern ? `${request.method.toUpperCase()} ${pattern}` : "this route";
    throw refusedAs(principal, new AppError("forbidden", `${what} needs the ${access.role} role; you are ${principal.role === "admin" ? "an" : "a"} ${principal.role}. Ask an admin to change your role.`));
  }
  if (access.own && !roleAtLeast(principal.role, "admin")) {
    try {
      await checkOwner(access.own, params, principal);
    } catch (error) {
      throw refusedAs(principal, error);
    }
  }
  return principal;
}

/** The key under which a refusal carries who was refused (for the audit log); a symbol shared by every bundle copy. */
const REFUSED_PRINCIPAL = Symbol.for("reflexion-playground.refused-principal");

function refusedAs(principal: Principal, error: unknown): unknown {
  if (error instanceof Error) Object.defineProperty(error, REFUSED_PRINCIPAL, { value: principal, enumerable: false });
  return error;
}

/** Who a refusal thrown by {@link authorizeRequest} refused, when it knew (a 403 below the role or on someone else's run); else null. */
export function refusedPrincipal(error: unknown): Principal | null {
  if (!(error instanceof Error)) return null;
  return (error as Error & { [REFUSED_PRINCIPAL]?: Principal })[REFUSED_PRINCIPAL] ?? null;
}

/** An account's name for messages (its id when there is no directory or no such account). */
async function displayName(userId: string): Promise<string> {
  const users = getServerContext().accounts?.users;
  const user = users ? await users.get(userId).catch(() => null) : null;
  return user?.name || userId;
}

/** Throws `forbidden` unless `principal` may change the run or experiment the route names. */
async function checkOwner(kind: "run" | "experiment", params: Record<string, string>, principal: Principal): Promise<void> {
  const { store } = getServerContext();
  const id = kind === "run" ? params.runId : params.experimentId;
  if (!id) throw new AppError("forbidden", `This route names no ${kind}; only an admin may use it.`);
  const owner = kind === "run" ? await ownerOfRun(store, asRunId(id)) : await ownerOfExperiment(store, id);
  if (mayChange(principal, owner)) return;
  const whose = owner === null ? `has no owner (made before sign-in, or imported)` : `is ${await displayName(owner)}'s`;
  throw new AppError("forbidden", `This ${kind} ${whose}; only its owner or an admin may change it.`);
}
