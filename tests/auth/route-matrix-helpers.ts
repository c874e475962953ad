import path from "node:path";
import fg from "fast-glob";
import type { AuthPort } from "@/lib/auth/auth-port";
import { ROUTE_POLICY, type Access, type HttpMethod } from "@/lib/auth/route-policy";
import { roleAtLeast, type Role } from "@/lib/domain/roles";
import { openSignIn, type AccountServices } from "@/lib/auth/accounts";
import type { PgDb } from "@/lib/db/pg/database";
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

const ACCOUNTS: Record<Exclude<Asker, "anonymous">, { email: string; name: string; role: Role }> = {
  viewer: { email: "vera@lab.test", name: "vera", role: "viewer" },
  "runner-other": { email: "otto@lab.test", name: "otto", role: "runner" },
  "runner-owner": { email: "rita@lab.test", name: "rita", role: "runner" },
  admin: { email: "ada@lab.test", name: "ada", role: "admin" },
};

/** The sign-in the matrix runs with: the port and account services the routes see, and the headers each asker sends. */
export interface MatrixAuth {
  auth: AuthPort;
  accounts: AccountServices;
  headersFor(asker: Asker): Record<string, string>;
  userIdOf(asker: Exclude<Asker, "anonymous">): string;
}

/**
 * The matrix's sign-in: the real Better Auth port over `db` (sign-in on), one account per asker made with
 * the user directory (scrypt passwords), and a real API token for each (`Authorization: Bearer rp_…`,
 * stored as its SHA-256) — so a cell's 401 or 403 is what a person's token would get.
 */
export async function matrixAuth(db: PgDb): Promise<MatrixAuth> {
  const { auth, accounts } = openSignIn(db, { REFLEXION_SIGN_IN: "on", BETTER_AUTH_SECRET: "matrix-secret-0123456789abcdef0123456789abcdef" });
  if (!accounts) throw new Error("sign-in did not open its accounts");
  const secrets = new Map<Exclude<Asker, "anonymous">, string>();
  const userIds = new Map<Exclude<Asker, "anonymous">, string>();
  for (const [asker, account] of Object.entries(ACCOUNTS) as Array<[Exclude<Asker, "anonymous">, (typeof ACCOUNTS)["admin"]]>) {
    const existing = (await accounts.users.list()).find((user) => user.email === account.email);
    const user = existing ?? (await accounts.users.add({ ...account, password: "matrix-password-1234" }));
    userIds.set(asker, user.id);
    secrets.set(asker, (await accounts.tokens.create(user.id, "matrix")).secret);
  }
  const must = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("no such asker");
    return value;
  };
  return {
    auth,
    accounts,
    headersFor: (asker): Record<string, string> => (asker === "anonymous" ? {} : { authorization: `Bearer ${must(secrets.get(asker))}` }),
    userIdOf: (asker) => must(userIds.get(asker)),
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
