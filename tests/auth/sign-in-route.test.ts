import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSignIn } from "@/lib/auth/accounts";
import { ACCOUNT_FAILURES } from "@/lib/auth/sign-in-guard";
import { createServerContext } from "@/lib/server/app-context";
import { parseAuditQuery } from "@/lib/domain/audit";
import { sharedPglite } from "../db/pg-test-stores";
import { installContext } from "./route-matrix-helpers";

/**
 * `POST /api/auth/sign-in/email` through the route as Next serves it: a client that makes up a new
 * `X-Forwarded-For` for every guess dodges the per-address limit, but not the per-account brake — after
 * ten failures the account must wait, even with the right password; a success clears the count; and
 * every attempt, good or bad, is in the audit log (never the password).
 */

const ENV = { REFLEXION_SIGN_IN: "on", BETTER_AUTH_SECRET: "route-secret-route-secret-route-secret-0123", REFLEXION_PUBLIC_URL: "http://127.0.0.1:3000" };
const pglite = sharedPglite();
let undo: () => void = () => undefined;
let route: typeof import("@/app/api/auth/[...all]/route");
let context: ReturnType<typeof createServerContext>;
let accounts: NonNullable<ReturnType<typeof openSignIn>["accounts"]>;

beforeAll(async () => {
  await pglite.open();
  const store = await pglite.makeStore();
  const signIn = openSignIn(store.pg.db, ENV);
  accounts = signIn.accounts!;
  context = { ...createServerContext({ store, startWorkers: false }), auth: signIn.auth, accounts };
  undo = installContext(context);
  route = await import("@/app/api/auth/[...all]/route");
}, 120_000);
afterAll(async () => {
  undo();
  await pglite.close();
});

let address = 0;
const signIn = (email: string, password: string) =>
  route.POST(
    new Request("http://127.0.0.1:3000/api/auth/sign-in/email", {
      method: "POST",
      // A made-up address every time: what dodges a per-address limit.
      headers: { "content-type": "application/json", origin: "http://127.0.0.1:3000", host: "127.0.0.1:3000", "x-forwarded-for": `10.9.${Math.floor(address / 250)}.${(address++ % 250) + 1}` },
      body: JSON.stringify({ email, password }),
    }),
  );

describe("sign-in through the route", () => {
  it(`brakes an account after ${ACCOUNT_FAILURES} failed sign-ins whatever address they claim, and audits every attempt without its password`, async () => {
    await accounts.users.add({ email: "ada@lab.test", name: "Ada", password: "the-right-password", role: "admin" });
    const statuses: number[] = [];
    for (let i = 0; i < ACCOUNT_FAILURES; i += 1) statuses.push((await signIn("ADA@lab.test", `guess-${i}`)).status);
    expect(statuses).toEqual(Array.from({ length: ACCOUNT_FAILURES }, () => 401));
    const braked = await signIn("ada@lab.test", "the-right-password");
    expect(braked.status).toBe(429);
    expect(Number(braked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await braked.json()) as { message: string }).message).toMatch(/^Too many failed sign-ins for this account: wait \d+ s/);

    const { entries } = await context.audit.list(parseAuditQuery({ action: "POST /api/auth/sign-in/email", limit: 50 }));
    expect(entries.map((entry) => entry.status).sort()).toEqual([...Array.from({ length: ACCOUNT_FAILURES }, () => 401), 429].sort());
    expect(entries.every((entry) => entry.actor.name === "ada@lab.test")).toBe(true);
    expect(JSON.stringify(entries)).not.toMatch(/guess-|the-right-password/);
  });

  it("clears an account's failures when it signs in", async () => {
    await accounts.users.add({ email: "bob@lab.test", name: "Bob", password: "bobs-password-1", role: "runner" });
    for (let i = 0; i < ACCOUNT_FAILURES - 1; i += 1) expect((await signIn("bob@lab.test", `nope-${i}`)).status).toBe(401);
    expect((await signIn("bob@lab.test", "bobs-password-1")).status).toBe(200);
    for (let i = 0; i < ACCOUNT_FAILURES - 1; i += 1) expect((await signIn("bob@lab.test", `again-${i}`)).status).toBe(401);
    expect((await signIn("bob@lab.test", "bobs-password-1")).status).toBe(200);
  });
});
