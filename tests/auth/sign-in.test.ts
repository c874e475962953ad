import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openNodePostgres, type PgConnection } from "@/lib/db/pg/database";
import { openPglite } from "@/lib/db/pg/pglite";
import { ApiTokenStore } from "@/lib/auth/api-tokens";
import { createBetterAuth, SIGN_IN_ATTEMPTS, type BetterAuthOptions } from "@/lib/auth/better-auth";
import { betterAuthPort } from "@/lib/auth/better-auth-port";
import { UserDirectory } from "@/lib/auth/user-directory";
import { startPostgresServer, type PostgresServer } from "../helpers/postgres-server";

const ENV = { BETTER_AUTH_SECRET: "test-secret-test-secret-test-secret-0123", REFLEXION_PUBLIC_URL: "http://localhost:3441" };

/** Everything sign-in needs over one database. */
function accounts(pg: PgConnection, options: BetterAuthOptions = {}) {
  const auth = createBetterAuth(pg.db, ENV, options);
  const tokens = new ApiTokenStore(pg.db);
  return { auth, tokens, users: new UserDirectory(auth), port: betterAuthPort(auth, tokens) };
}

/** Signs in through the `/api/auth` handler as a browser would; `ip` keys the rate limit. */
async function signIn(auth: ReturnType<typeof createBetterAuth>, email: string, password: string, ip = "203.0.113.7"): Promise<Response> {
  return auth.handler(
    new Request("http://localhost:3441/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost:3441", "x-forwarded-for": ip },
      body: JSON.stringify({ email, password }),
    }),
  );
}

/** A request carrying the session cookie a sign-in response set. */
function withCookie(response: Response): Request {
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  return new Request("http://localhost:3441/api/runs", { headers: { cookie } });
}

const bearer = (secret: string) => new Request("http://localhost:3441/api/runs", { headers: { authorization: `Bearer ${secret}` } });

let server: PostgresServer | null = null;
const databases: Record<string, () => Promise<PgConnection>> = {
  PGlite: async () => {
    const pg = openPglite();
    await pg.migrate();
    return pg;
  },
  PostgreSQL: async () => {
    server ??= await startPostgresServer();
    const pg = openNodePostgres(await server.createDatabase("auth"));
    await pg.migrate();
    return pg;
  },
};

afterAll(async () => {
  await server?.stop();
});

describe.each(Object.keys(databases))("sign-in on %s", (name) => {
  let pg: PgConnection;
  beforeAll(async () => {
    pg = await databases[name]!();
  }, 60_000);
  afterAll(async () => {
    await pg?.close();
  });

  it("signs in an account added by an admin: the session is the person, with their role; a wrong password is 401", async () => {
    const { auth, users, port } = accounts(pg);
    const alice = await users.add({ email: "alice@lab.example", name: "Alice", password: "correct horse", role: "runner" });
    expect(await port.principalOf(new Request("http://localhost:3441/api/runs"))).toBeNull();

    const ok = await signIn(auth, "alice@lab.example", "correct horse", "203.0.113.1");
    expect(ok.status).toBe(200);
    const setCookie = ok.headers.getSetCookie().join("\n");
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(await port.principalOf(withCookie(ok))).toEqual({ kind: "person", userId: alice.id, name: "Alice", email: "alice@lab.example", role: "runner", tokenId: null });

    const wrong = await signIn(auth, "alice@lab.example", "wrong horse", "203.0.113.2");
    expect(wrong.status).toBe(401);
    expect(wrong.headers.getSetCookie()).toEqual([]);
  });

  it(`allows ${SIGN_IN_ATTEMPTS} sign-in attempts a minute per address; the next is 429 with a retry time, another address is not limited`, async () => {
    const { auth } = accounts(pg);
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= SIGN_IN_ATTEMPTS; attempt++) statuses.push((await signIn(auth, "nobody@lab.example", "guess-guess", "198.51.100.9")).status);
    expect(statuses.slice(0, SIGN_IN_ATTEMPTS).every((status) => status === 401)).toBe(true);
    const limited = await signIn(auth, "nobody@lab.example", "guess-guess", "198.51.100.9");
    expect(statuses[SIGN_IN_ATTEMPTS]).toBe(429);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("x-retry-after"))).toBeGreaterThan(0);
    // A second app server over the same database counts the same attempts.
    expect((await signIn(accounts(pg).auth, "nobody@lab.example", "guess-guess", "198.51.100.9")).status).toBe(429);
    expect((await signIn(auth, "nobody@lab.example", "guess-guess", "198.51.100.10")).status).toBe(401);
  });

  it("marks the session cookie Secure when the public URL is https", async () => {
    const auth = createBetterAuth(pg.db, { ...ENV, REFLEXION_PUBLIC_URL: "https://playground.lab.example" });
    await new UserDirectory(auth).add({ email: "secure@lab.example", name: "Secure", password: "secure-password" });
    const response = await auth.handler(
      new Request("https://playground.lab.example/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "https://playground.lab.example", "x-forwarded-for": "203.0.113.30" },
        body: JSON.stringify({ email: "secure@lab.example", password: "secure-password" }),
      }),
    );
    expect(response.status).toBe(200);
    const session = response.headers.getSetCookie().find((line) => line.includes("session_token="));
    expect(session).toMatch(/^__Secure-/);
    expect(session).toMatch(/; Secure/i);
    expect(session).toMatch(/HttpOnly/i);
  });

  it("refuses a sign-in posted from another site", async () => {
    const { auth, users } = accounts(pg);
    await users.add({ email: "csrf@lab.example", name: "Csrf", password: "csrf-password" });
    const response = await auth.handler(
      new Request("http://localhost:3441/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "https://evil.example", cookie: "x=1", "x-forwarded-for": "203.0.113.31" },
        body: JSON.stringify({ email: "csrf@lab.example", password: "csrf-password" }),
      }),
    );
    expect(response.status).toBe(403);
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("ends a session when it expires", async () => {
    const { auth, users, port } = accounts(pg, { sessionSeconds: 1 });
    await users.add({ email: "shortlived@lab.example", name: "Shortlived", password: "12345678", role: "viewer" });
    const ok = await signIn(auth, "shortlived@lab.example", "12345678", "203.0.113.3");
    expect(ok.status).toBe(200);
    expect((await port.principalOf(withCookie(ok)))?.name).toBe("Shortlived");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await port.principalOf(withCookie(ok))).toBeNull();
  });

  it("creates, uses and revokes an API token: shown once, listed without its secret, dead once revoked", async () => {
    const { tokens, users, port } = accounts(pg);
    const bob = await users.add({ email: "bob@lab.example", name: "Bob", password: "bob-password", role: "admin" });
    const { token, secret } = await tokens.create(bob.id, "ci");
    expect(secret).toMatch(/^rp_[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(await tokens.list(bob.id))).not.toContain(secret.slice(3));
    expect(await port.principalOf(bearer(secret))).toEqual({ kind: "token", userId: bob.id, name: "Bob", email: "bob@lab.example", role: "admin", tokenId: token.id, tokenName: "ci" });
    expect((await tokens.get(token.id))?.lastUsedAt).not.toBeNull();
    expect(await port.principalOfToken(secret.slice(0, -1) + (secret.endsWith("A") ? "B" : "A"))).toBeNull();

    await tokens.revoke(token.id);
    expect(await port.principalOf(bearer(secret))).toBeNull();
    expect(await port.principalOfToken(secret)).toBeNull();
  });

  it("refuses an expired token; records when a token was last used, to the minute", async () => {
    let now = new Date("2026-01-01T00:00:00Z");
    const { users } = accounts(pg);
    const tokens = new ApiTokenStore(pg.db, () => now);
    const carol = await users.add({ email: "carol@lab.example", name: "Carol", password: "carol-password" });
    const { secret } = await tokens.create(carol.id, "one day", "2026-01-02T00:00:00Z");
    expect((await tokens.verify(secret))?.userId).toBe(carol.id);
    const firstUse = (await tokens.get((await tokens.list(carol.id))[0]!.id))!.lastUsedAt;
    expect(firstUse).toBe("2026-01-01T00:00:00.000Z");
    now = new Date("2026-01-01T00:00:30Z");
    expect((await tokens.verify(secret))?.lastUsedAt).toBe(firstUse);
    now = new Date("2026-01-01T00:01:30Z");
    expect((await tokens.verify(secret))?.lastUsedAt).toBe("2026-01-01T00:01:30.000Z");
    now = new Date("2026-01-02T00:00:01Z");
    expect(await tokens.verify(secret)).toBeNull();
  });

  it("removes an account: its sessions and tokens stop at once; a role change applies to the next request", async () => {
    const { auth, tokens, users, port } = accounts(pg);
    const dave = await users.add({ email: "dave@lab.example", name: "Dave", password: "dave-password", role: "viewer" });
    const session = withCookie(await signIn(auth, "dave@lab.example", "dave-password", "203.0.113.4"));
    const { secret } = await tokens.create(dave.id, "laptop");
    await users.setRole("dave@lab.example", "runner");
    expect((await port.principalOfToken(secret))?.role).toBe("runner");
    expect((await port.principalOf(session))?.role).toBe("runner");

    await users.remove(dave.id);
    expect(await port.principalOf(session)).toBeNull();
    expect(await port.principalOfToken(secret)).toBeNull();
    expect(await tokens.list(dave.id)).toEqual([]);
    expect((await users.list()).map((user) => user.email)).not.toContain("dave@lab.example");
  });

  it("sets a new password: the old one stops, the new one signs in, and the account's sessions end at once", async () => {
    const { auth, users, port } = accounts(pg);
    await users.add({ email: "erin@lab.example", name: "Erin", password: "erin-old-password", role: "runner" });
    const session = withCookie(await signIn(auth, "erin@lab.example", "erin-old-password", "203.0.113.41"));
    expect((await port.principalOf(session))?.name).toBe("Erin");
    await users.setPassword("ERIN@lab.example", "erin-new-password");
    expect(await port.principalOf(session)).toBeNull();
    expect((await signIn(auth, "erin@lab.example", "erin-old-password", "203.0.113.42")).status).toBe(401);
    expect((await signIn(auth, "erin@lab.example", "erin-new-password", "203.0.113.43")).status).toBe(200);
    await expect(users.setPassword("erin@lab.example", "short")).rejects.toMatchObject({ code: "invalid-input" });
  });

  it("keeps at least one admin and refuses a taken email or a short password", async () => {
    const { users } = accounts(pg);
    await expect(users.add({ email: "alice@lab.example", name: "Alice again", password: "another-one" })).rejects.toThrow(/already exists/);
    await expect(users.add({ email: "eve@lab.example", name: "Eve", password: "short" })).rejects.toThrow(/at least 8 characters/);
    const admins = (await users.list()).filter((user) => user.role === "admin");
    for (const admin of admins.slice(1)) await users.remove(admin.id);
    await expect(users.setRole(admins[0]!.id, "viewer")).rejects.toThrow(/last admin/);
    await expect(users.remove(admins[0]!.id)).rejects.toThrow(/last admin/);
  });
});
