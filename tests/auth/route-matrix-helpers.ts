import path from "node:path";
import fg from "fast-glob";
import type { AuthPort } from "@/lib/auth/auth-port";
import { ROUTE_POLICY, type Access, type HttpMethod } from "@/lib/auth/route-policy";
import type { RunStore } from "@/lib/db/store";
import { roleAtLeast, roleSchema, type Principal, type Role } from "@/lib/domain/roles";
import type { ServerContext } from "@/lib/server/app-context";

/**
 * The authorization matrix's fixtures: the route files and their methods, a test sign-in, who is
 * asking, the context the routes see, and the expected outcome of each (route, method, who).
 */

export const HTTP_METHODS: readonly HttpMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** One route file: its URL pattern as the folder spells it, and the methods it exports. */
export interface RouteFile {
  file: string;
  pattern: string;
  methods: HttpMethod[];
}

/** Every app/api/**\/route.ts (relative to the repository root), sorted. */
export function routeFiles(root = process.cwd()): string[] {
  return fg.sync("app/api/**/route.ts", { cwd: root }).sort();
}

/** `/api/runs/[runId]/fork` for `app/api/runs/[runId]/fork/route.ts`. */
export function patternOf(file: string): string {
  return `/${path.posix.dirname(file).replace(/^app\//, "")}`;
}

/** Imports each route module and lists the HTTP methods it exports. */
export async function loadRoutes(root = process.cwd()): Promise<Array<RouteFile & { module: Record<string, unknown> }>> {
  const routes = [];
  for (const file of routeFiles(root)) {
    const exports = (await import(/* @vite-ignore */ path.join(root, file))) as Record<string, unknown>;
    routes.push({ file, pattern: patternOf(file), methods: HTTP_METHODS.filter((method) => typeof exports[method] === "function"), module: exports });
  }
  return routes;
}

/** Who asks, in the matrix: nobody, a viewer, a runner who does not own the run/experiment, its owner, an admin. */
export const ASKERS = ["anonymous", "viewer", "runner-other", "runner-owner", "admin"] as const;
export type Asker = (typeof ASKERS)[number];

const ACCOUNTS: Record<Exclude<Asker, "anonymous">, { userId: string; name: string; role: Role }> = {
  viewer: { userId: "user-vera", name: "vera", role: "viewer" },
  "runner-other": { userId: "user-otto", name: "otto", role: "runner" },
  "runner-owner": { userId: "user-rita", name: "rita", role: "runner" },
  admin: { userId: "user-ada", name: "ada", role: "admin" },
};

/** The sign-in the matrix runs with: the port the routes see and the headers each asker sends. */
export interface MatrixAuth {
  auth: AuthPort;
  headersFor(asker: Asker): Record<string, string>;
  userIdOf(asker: Exclude<Asker, "anonymous">): string;
}

/**
 * THE one factory of the matrix's sign-in (swap it for the real Better Auth port and real tokens once
 * accounts exist): `Authorization: Bearer test:<userId>:<role>` is that person; anything else is nobody.
 */
export async function matrixAuth(): Promise<MatrixAuth> {
  const principalOfToken = async (token: string): Promise<Principal | null> => {
    const [scheme, userId, role] = token.split(":");
    const parsedRole = roleSchema.safeParse(role);
    if (scheme !== "test" || !userId || !parsedRole.success) return null;
    const account = Object.values(ACCOUNTS).find((candidate) => candidate.userId === userId);
    return { kind: "token", userId, name: account?.name ?? userId, email: null, role: parsedRole.data, tokenId: `token-${userId}` };
  };
  const auth: AuthPort = {
    signIn: "on",
    principalOf: async (request) => {
      const token = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
      return token ? principalOfToken(token) : null;
    },
    principalOfToken,
  };
  return {
    auth,
    headersFor: (asker): Record<string, string> => (asker === "anonymous" ? {} : { authorization: `Bearer test:${ACCOUNTS[asker].userId}:${ACCOUNTS[asker].role}` }),
    userIdOf: (asker) => ACCOUNTS[asker].userId,
  };
}

const contextKey = Symbol.for("reflexion-playground.server-context");
type ContextHolder = typeof globalThis & { [contextKey]?: ServerContext };

/** Makes `context` the one `getServerContext()` returns (routes and authorizeRequest); returns the undo. */
export function installContext(context: ServerContext): () => void {
  const holder = globalThis as ContextHolder;
  const previous = holder[contextKey];
  holder[contextKey] = context;
  return () => {
    if (previous) holder[contextKey] = previous;
    else delete holder[contextKey];
  };
}

/**
 * Owners the store does not record yet: a record without `ownerUserId` gets the one set here. (The
 * audit work stamps owners from the creating actor; with that in place this map changes nothing.)
 */
export function withOwners(store: RunStore): { setRunOwner(runId: string, userId: string): void; setExperimentOwner(id: string, userId: string): void } {
  const runs = new Map<string, string>();
  const experiments = new Map<string, string>();
  const getRun = store.getRun.bind(store);
  store.getRun = async (runId) => {
    const run = await getRun(runId);
    return run && { ...run, ownerUserId: run.ownerUserId ?? runs.get(run.id) ?? null };
  };
  const getExperiment = store.experiments.getExperiment.bind(store.experiments);
  store.experiments.getExperiment = async (id) => {
    const experiment = await getExperiment(id);
    return experiment && { ...experiment, ownerUserId: experiment.ownerUserId ?? experiments.get(experiment.id) ?? null };
  };
  return { setRunOwner: (runId, userId) => runs.set(runId, userId), setExperimentOwner: (id, userId) => experiments.set(id, userId) };
}

/** `allowed`, or the status the asker must get. */
export type Expected = "allowed" | 401 | 403;

/** What `asker` must get from `method` on `pattern` under ROUTE_POLICY (unlisted: admins only). */
export function expectedOutcome(pattern: string, method: HttpMethod, asker: Asker, role: (asker: Exclude<Asker, "anonymous">) => Role): Expected {
  const access: Access = ROUTE_POLICY[pattern]?.[method] ?? { role: "admin" };
  if (access === "public") return "allowed";
  if (asker === "anonymous") return 401;
  const asRole = role(asker);
  if (!roleAtLeast(asRole, access.role)) return 403;
  if (access.own && asRole !== "admin" && asker !== "runner-owner") return 403;
  return "allowed";
}

/** The role of each signed-in asker. */
export function roleOf(asker: Exclude<Asker, "anonymous">): Role {
  return ACCOUNTS[asker].role;
}

/** The concrete path of `pattern`, its params filled from `ids` (a param without an id gets `matrix-<name>`, a 404 at worst). */
export function fillPattern(pattern: string, ids: Record<string, string>): { path: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const filled = pattern.replace(/\[(?:\.\.\.)?([^\]]+)\]/g, (_whole, name: string) => {
    params[name] = ids[name] ?? `matrix-${name}`;
    return encodeURIComponent(params[name]);
  });
  return { path: filled, params };
}
