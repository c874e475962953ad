import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PgRunStore } from "@/lib/db/pg/pg-store";
import { runIdSchema } from "@/lib/domain/ids";
import { ROUTE_POLICY, type HttpMethod } from "@/lib/auth/route-policy";
import { createServerContext } from "@/lib/server/app-context";
import { realPostgres, sharedPglite } from "../db/pg-test-stores";
import { ASKERS, expectedOutcome, fillPattern, installContext, loadRoutes, matrixAuth, roleOf, type Asker } from "./route-matrix-helpers";

/**
 * Every API route × every method it exports × nobody, a viewer, a runner who does not own the run or
 * experiment in the path, its owner and an admin, with sign-in on: nobody gets 401 everywhere but the
 * public routes, a role below the route's gets 403, an allowed asker gets neither (400, 404, 409 are
 * fine: the matrix sends empty bodies, so nothing long starts); and every state-changing method refuses an
 * admin's cookie-carrying request from another site's page (CSRF). Run over PGlite and a real PostgreSQL.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-matrix-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "matrix.sqlite");
delete process.env.REFLEXION_DATABASE_URL;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const RUN_BODY = { environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo" };
const EXPERIMENT_BODY = { name: "matrix", environment: "qa", taskSet: "builtin", taskIds: ["qa-builtin-01"], arms: [{ label: "A", strategy: "none", modelId: "demo" }], maxTrials: 1 };

interface Answer {
  status: number;
  text: string;
}

interface MatrixResult {
  /** (route, method, asker) cells checked. */
  cells: number;
  /** Cells whose status contradicts the policy: `METHOD pattern as asker: expected …, got status text`. */
  mismatches: string[];
  /** Allowed cells that answered 5xx (a route that broke, not an authorization error). */
  serverErrors: string[];
  /** How many cells ended 401, 403 and allowed. */
  tally: { 401: number; 403: number; allowed: number };
  /** Every cell's answer, keyed `METHOD pattern as asker`. */
  answers: Map<string, Answer>;
  /** State-changing methods an admin with a cookie sent from another site's page was NOT refused on (CSRF). */
  crossSiteAccepted: string[];
  /** How many cross-site requests were tried. */
  crossSiteTried: number;
}

async function runMatrix(store: PgRunStore): Promise<MatrixResult> {
  const signIn = await matrixAuth(store.pg.db);
  const context = { ...createServerContext({ store, startWorkers: false }), auth: signIn.auth, accounts: signIn.accounts };
  const restore = installContext(context);
  try {
    const routes = await loadRoutes();
    const call = async (pattern: string, method: HttpMethod, asker: Asker, ids: Record<string, string>, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<Answer> => {
      const handler = routes.find((route) => route.pattern === pattern)?.module[method];
      if (typeof handler !== "function") throw new Error(`no ${method} ${pattern}`);
      const { path: urlPath, params } = fillPattern(pattern, ids);
      const abort = new AbortController();
      const hasBody = method !== "GET" && method !== "DELETE";
      // NextRequest, as Next hands the routes (several read `request.nextUrl`).
      const request = new NextRequest(`http://127.0.0.1:3000${urlPath}`, {
        method,
        signal: abort.signal,
        headers: { host: "127.0.0.1:3000", accept: "application/json, text/event-stream", ...(hasBody ? { "content-type": "application/json" } : {}), ...signIn.headersFor(asker), ...extraHeaders },
        ...(hasBody ? { body: JSON.stringify(body ?? {}) } : {}),
      });
      const response = await (handler as (request: Request, context: unknown) => Promise<Response>)(request, { params: Promise.resolve(params) });
      const streaming = (response.headers.get("content-type") ?? "").includes("text/event-stream");
      // A live stream (SSE) stays open: only its status matters.
      const text = streaming ? "" : await response.text();
      abort.abort();
      if (streaming) await response.body?.cancel().catch(() => undefined);
      return { status: response.status, text };
    };

    // The owner's run and experiment, created through the routes as their owner.
    const run = await call("/api/runs", "POST", "runner-owner", {}, RUN_BODY);
    expect(run.status, run.text).toBe(201);
    const runId = (JSON.parse(run.text) as { runId: string }).runId;
    // The store stamps the owner from the token's person: no test shim.
    expect((await store.getRun(runIdSchema.parse(runId)))?.ownerUserId).toBe(signIn.userIdOf("runner-owner"));
    const experiment = await call("/api/experiments", "POST", "runner-owner", {}, EXPERIMENT_BODY);
    expect(experiment.status, experiment.text).toBe(201);
    const experimentId = (JSON.parse(experiment.text) as { experimentId: string }).experimentId;
    expect((await store.experiments.getExperiment(experimentId))?.ownerUserId).toBe(signIn.userIdOf("runner-owner"));
    const ids = { runId, experimentId };

    const result: MatrixResult = { cells: 0, mismatches: [], serverErrors: [], tally: { 401: 0, 403: 0, allowed: 0 }, answers: new Map(), crossSiteAccepted: [], crossSiteTried: 0 };
    for (const route of routes) {
      for (const method of route.methods) {
        for (const asker of ASKERS) {
          const expected = expectedOutcome(route.pattern, method, asker, roleOf);
          const answer = await call(route.pattern, method, asker, ids);
          result.cells += 1;
          const cell = `${method} ${route.pattern} as ${asker}`;
          result.answers.set(cell, answer);
          const ok = expected === "allowed" ? answer.status !== 401 && answer.status !== 403 : answer.status === expected;
          if (!ok) result.mismatches.push(`${cell}: expected ${expected}, got ${answer.status} ${answer.text.slice(0, 200)}`);
          else result.tally[expected] += 1;
          if (expected === "allowed" && answer.status >= 500) result.serverErrors.push(`${cell}: ${answer.status} ${answer.text.slice(0, 200)}`);
        }
      }
    }
    // CSRF: an admin's browser (a cookie rides along) sent from another site's page is refused on every state-changing method but sign-in's.
    for (const route of routes) {
      for (const method of route.methods.filter((candidate) => candidate !== "GET")) {
        if (ROUTE_POLICY[route.pattern]?.[method] === "public") continue;
        const answer = await call(route.pattern, method, "admin", ids, {}, { cookie: "session=from-the-browser", origin: "https://evil.example", "sec-fetch-site": "cross-site" });
        result.crossSiteTried += 1;
        if (answer.status !== 403 || !answer.text.includes("cross-site request refused (CSRF)")) result.crossSiteAccepted.push(`${method} ${route.pattern}: ${answer.status}`);
      }
    }
    return result;
  } finally {
    restore();
    await context.close();
  }
}

function expectMatrixHolds(result: MatrixResult): void {
  expect(result.mismatches).toEqual([]);
  expect(result.serverErrors).toEqual([]);
  expect(result.crossSiteAccepted).toEqual([]);
  expect(result.crossSiteTried).toBeGreaterThanOrEqual(39);
  // Every route was asked by all five, and each outcome occurred (a matrix where nothing is refused proves nothing).
  expect(result.cells).toBeGreaterThanOrEqual(71 * ASKERS.length);
  expect(result.tally[401]).toBeGreaterThan(0);
  expect(result.tally[403]).toBeGreaterThan(0);
  expect(result.tally.allowed).toBeGreaterThan(0);
  // The roles the issue names, pinned here (the loop above only checks that the table is enforced).
  const status = (cell: string) => result.answers.get(cell)?.status;
  const text = (cell: string) => result.answers.get(cell)?.text ?? "";
  expect(status("GET /api/runs as viewer")).toBe(200);
  expect(status("POST /api/runs as viewer")).toBe(403);
  expect(text("POST /api/runs as viewer")).toMatch(/needs the runner role; you are a viewer/);
  expect(status("POST /api/runs/[runId]/cancel as runner-other")).toBe(403);
  expect(text("POST /api/runs/[runId]/cancel as runner-other")).toMatch(/This run is rita's; only its owner or an admin may change it/);
  expect(status("POST /api/runs/[runId]/pause as runner-owner")).not.toBe(403);
  expect(status("POST /api/experiments/[experimentId]/cancel as runner-other")).toBe(403);
  expect(status("PUT /api/settings/prices as runner-owner")).toBe(403);
  expect(status("GET /api/settings/providers as runner-owner")).toBe(403);
  expect(status("POST /api/jobs/dead-letters/retry-all as runner-owner")).toBe(403);
  expect(status("POST /api/reviews/[queueId]/reviews as viewer")).toBe(403);
  expect(text("GET /api/runs as anonymous")).toMatch(/Sign in at \/sign-in, or send Authorization: Bearer <token>/);
  expect(JSON.parse(text("GET /api/me as anonymous"))).toEqual({ signIn: "on", principal: null });
  expect(JSON.parse(text("GET /api/me as viewer"))).toMatchObject({ signIn: "on", principal: { name: "vera", role: "viewer", kind: "token" } });
}

describe("authorization matrix on PGlite", () => {
  const pglite = sharedPglite();
  beforeAll(() => pglite.open(), 90_000);
  afterAll(() => pglite.close());

  it("every route × method × asker answers as ROUTE_POLICY says", async () => {
    const result = await runMatrix(await pglite.makeStore());
    console.info(`[matrix pglite] ${result.cells} cells: ${result.tally.allowed} allowed, ${result.tally[401]} × 401, ${result.tally[403]} × 403; ${result.crossSiteTried} cross-site requests refused`);
    expectMatrixHolds(result);
  }, 180_000);
});

describe("authorization matrix on PostgreSQL", { tags: ["slow"] }, () => {
  const postgres = realPostgres();
  beforeAll(() => postgres.open(), 90_000);
  afterAll(() => postgres.close());

  it("every route × method × asker answers as ROUTE_POLICY says", async () => {
    const result = await runMatrix(await postgres.makeStore({ max: 4 }));
    console.info(`[matrix postgres] ${result.cells} cells: ${result.tally.allowed} allowed, ${result.tally[401]} × 401, ${result.tally[403]} × 403; ${result.crossSiteTried} cross-site requests refused`);
    expectMatrixHolds(result);
  }, 180_000);
});
