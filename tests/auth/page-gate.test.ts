import { afterEach, describe, expect, it } from "vitest";
import type { AuthPort } from "@/lib/auth/auth-port";
import { openAuth } from "@/lib/auth/auth-port";
import { isPublicPage, pageGate, signInRedirect } from "@/lib/auth/page-gate";
import type { Principal } from "@/lib/domain/roles";

const key = Symbol.for("reflexion-playground.server-context");
const holder = globalThis as { [key]?: { auth: AuthPort } };
const alice: Principal = { kind: "person", userId: "u1", name: "Alice", email: "a@lab.example", role: "viewer", tokenId: null };
const signedIn = (cookie: string): AuthPort => ({ signIn: "on", principalOf: async (request) => (request.headers.get("cookie") === cookie ? alice : null), principalOfToken: async () => null });

afterEach(() => {
  delete holder[key];
});

describe("page gate", () => {
  it("sends a page request without a valid session to /sign-in with where it was going", async () => {
    holder[key] = { auth: signedIn("better-auth.session_token=good") };
    expect(await pageGate(new Request("http://lab.example/runs/r1?tab=graph"))).toBe("/sign-in?next=%2Fruns%2Fr1%3Ftab%3Dgraph");
    expect(await pageGate(new Request("http://lab.example/", { headers: { cookie: "better-auth.session_token=stale" } }))).toBe("/sign-in");
    expect(await pageGate(new Request("http://lab.example/runs", { headers: { cookie: "better-auth.session_token=good" } }))).toBeNull();
    expect(await pageGate(new Request("http://lab.example/sign-in?next=%2Fruns"))).toBeNull();
  });

  it("lets everything through with sign-in off", async () => {
    holder[key] = { auth: openAuth() };
    expect(await pageGate(new Request("http://lab.example/settings"))).toBeNull();
  });

  it("before the server context exists, decides from the settings and the session cookie", async () => {
    const on = { REFLEXION_DATABASE_URL: "postgres://u@h/db" };
    expect(await pageGate(new Request("http://lab.example/settings"), on)).toBe("/sign-in?next=%2Fsettings");
    expect(await pageGate(new Request("http://lab.example/settings", { headers: { cookie: "better-auth.session_token=x.y" } }), on)).toBeNull();
    expect(await pageGate(new Request("http://lab.example/settings"), { ...on, REFLEXION_SIGN_IN: "off" })).toBeNull();
    expect(await pageGate(new Request("http://lab.example/settings"), {})).toBeNull();
  });

  it("knows its public pages and builds the redirect", () => {
    expect(isPublicPage("/sign-in")).toBe(true);
    expect(isPublicPage("/sign-inx")).toBe(false);
    expect(isPublicPage("/settings")).toBe(false);
    // The students' class pages (students have no accounts); the teacher's are not public.
    for (const page of ["/join", "/join/ABC234", "/class/cls_1"]) expect(isPublicPage(page), page).toBe(true);
    for (const page of ["/classes", "/classes/cls_1", "/joinx", "/classroom"]) expect(isPublicPage(page), page).toBe(false);
    expect(signInRedirect(new URL("http://x/a b"))).toBe("/sign-in?next=%2Fa%2520b");
  });
});
