import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openAuth } from "@/lib/auth/auth-port";
import { LOCAL_PRINCIPAL } from "@/lib/domain/roles";
import { accessOf, authorizeRequest } from "@/lib/server/authorize";
import { createServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { currentActor } from "@/lib/actors/actor-context";
import { installContext, matrixAuth } from "./route-matrix-helpers";
import { sharedPglite } from "../db/pg-test-stores";

// Real accounts and tokens (Better Auth over PGlite), as the routes see them in shared mode.
const pglite = sharedPglite();
beforeAll(() => pglite.open(), 120_000);
afterAll(() => pglite.close());

let undo: (() => void) | null = null;
afterEach(() => {
  undo?.();
  undo = null;
});

async function withSignIn(on: boolean): Promise<Awaited<ReturnType<typeof matrixAuth>>> {
  const store = await pglite.makeStore();
  const signIn = await matrixAuth(store.pg.db);
  const context = createServerContext({ store, startWorkers: false });
  undo = installContext({ ...context, auth: on ? signIn.auth : openAuth() });
  return signIn;
}

describe("authorizeRequest", () => {
  it("denies an unlisted route to all but admins", () => {
    expect(accessOf("/api/not-a-route", "GET")).toEqual({ pattern: null, access: { role: "admin" }, params: {} });
    expect(accessOf("/api/runs", "PATCH").access).toEqual({ role: "admin" });
    expect(accessOf("/api/runs/r1/fork", "POST")).toEqual({ pattern: "/api/runs/[runId]/fork", access: { role: "runner", own: "run" }, params: { runId: "r1" } });
  });

  it("with sign-in off: everyone is the local admin, a call without a request too — but a cross-site POST is refused", async () => {
    await withSignIn(false);
    expect(await authorizeRequest([])).toEqual(LOCAL_PRINCIPAL);
    expect(await authorizeRequest([new Request("http://127.0.0.1:3000/api/settings/prices", { method: "PUT" })])).toEqual(LOCAL_PRINCIPAL);
    const crossSite = new Request("http://127.0.0.1:3000/api/runs", { method: "POST", headers: { host: "127.0.0.1:3000", origin: "https://evil.example", cookie: "a=b" } });
    await expect(authorizeRequest([crossSite])).rejects.toMatchObject({ code: "forbidden", message: expect.stringMatching(/^cross-site request refused \(CSRF\)/) });
  });

  it("with sign-in on: a call without a request is 401; a public route answers null for nobody", async () => {
    const signIn = await withSignIn(true);
    await expect(authorizeRequest([])).rejects.toMatchObject({ code: "unauthenticated" });
    await expect(authorizeRequest([new Request("http://127.0.0.1:3000/api/runs", { headers: { authorization: "Bearer rp_revoked-or-made-up" } })])).rejects.toMatchObject({
      code: "unauthenticated",
      message: expect.stringMatching(/^That API token is not valid \(unknown, revoked or expired, or its account was removed\)/),
    });
    expect(await authorizeRequest([new Request("http://127.0.0.1:3000/api/me")])).toBeNull();
    expect(await authorizeRequest([new Request("http://127.0.0.1:3000/api/me", { headers: signIn.headersFor("viewer") })])).toMatchObject({ userId: signIn.userIdOf("viewer"), role: "viewer", kind: "token" });
  });

  it("handle() runs the handler as the principal's actor, and a public route asked anonymously as nobody", async () => {
    const signIn = await withSignIn(true);
    const route = handle(async (request: Request) => Response.json({ actor: currentActor(), url: request.url }));
    const signedIn = await route(new Request("http://127.0.0.1:3000/api/runs", { headers: signIn.headersFor("runner-owner") }));
    expect(((await signedIn.json()) as { actor: { userId: string } }).actor).toMatchObject({ userId: signIn.userIdOf("runner-owner"), kind: "token" });
    const anonymous = await route(new Request("http://127.0.0.1:3000/api/me"));
    expect(((await anonymous.json()) as { actor: unknown }).actor).toBeNull();
    const refused = await route(new Request("http://127.0.0.1:3000/api/runs"));
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: "unauthenticated" } });
  });

  it("a run that does not exist is 404 for an own-route, not a guess about its owner", async () => {
    const signIn = await withSignIn(true);
    await expect(authorizeRequest([new Request("http://127.0.0.1:3000/api/runs/nope/cancel", { method: "POST", headers: signIn.headersFor("runner-owner") })])).rejects.toMatchObject({ code: "not-found" });
  });
});
