import { describe, expect, it } from "vitest";
import { ROUTE_POLICY } from "@/lib/auth/route-policy";
import { loadRoutes } from "./route-matrix-helpers";

/**
 * Routes listed in ROUTE_POLICY whose files other work adds (sign-in, health, tokens, users, audit,
 * budgets): allowed to be missing here, never required.
 */
const ADDED_ELSEWHERE = new Set(["/api/auth/[...all]", "/api/health", "/api/tokens", "/api/tokens/[id]", "/api/users", "/api/users/[id]", "/api/audit", "/api/budgets"]);

describe("ROUTE_POLICY covers every route", () => {
  it("has an entry for every app/api/**/route.ts and every method it exports", async () => {
    const routes = await loadRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(72);
    const missing = routes.flatMap((route) => route.methods.filter((method) => !ROUTE_POLICY[route.pattern]?.[method]).map((method) => `${method} ${route.pattern}`));
    expect(missing).toEqual([]);
  });

  it("lists no route or method that does not exist (but the ones other work adds)", async () => {
    const routes = new Map((await loadRoutes()).map((route) => [route.pattern, route.methods as string[]]));
    const stale = Object.entries(ROUTE_POLICY).flatMap(([pattern, methods]) => {
      const exported = routes.get(pattern);
      if (!exported) return ADDED_ELSEWHERE.has(pattern) ? [] : [pattern];
      return Object.keys(methods).filter((method) => !exported.includes(method) && !ADDED_ELSEWHERE.has(pattern)).map((method) => `${method} ${pattern}`);
    });
    expect(stale).toEqual([]);
  });
});
