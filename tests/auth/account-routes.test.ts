import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSignIn, type AccountServices } from "@/lib/auth/accounts";
import type { AuthPort } from "@/lib/auth/auth-port";
import { createToken, listTokens, revokeToken } from "@/lib/auth/token-routes";
import { addUser, listUsers, removeUser, setUserRole } from "@/lib/auth/user-routes";
import { openPglite } from "@/lib/db/pg/pglite";
import type { PgConnection } from "@/lib/db/pg/database";
import { errorResponse } from "@/lib/server/http-errors";

const ENV = { REFLEXION_SIGN_IN: "on", BETTER_AUTH_SECRET: "routes-secret-routes-secret-routes-0123" };

let pg: PgConnection;
let ctx: { auth: AuthPort; accounts: AccountServices | null };
let admin: string;
let runner: string;
let adminId: string;
let runnerId: string;

/** A request as a token's holder sends it. */
const as = (secret: string | null, path = "/api/tokens") => new Request(`http://localhost${path}`, { headers: secret ? { authorization: `Bearer ${secret}` } : {} });
/** The HTTP status a thrown error becomes. */
const statusOf = async (promise: Promise<unknown>) => errorResponse(await promise.then(() => new Error("no error"), (error: unknown) => error)).status;

beforeAll(async () => {
  pg = openPglite();
  await pg.migrate();
  ctx = openSignIn(pg.db, ENV);
  const accounts = ctx.accounts!;
  adminId = (await accounts.users.add({ email: "ada@lab.example", name: "Ada", password: "ada-password", role: "admin" })).id;
  runnerId = (await accounts.users.add({ email: "rob@lab.example", name: "Rob", password: "rob-password", role: "runner" })).id;
  admin = (await accounts.tokens.create(adminId, "admin")).secret;
  runner = (await accounts.tokens.create(runnerId, "runner")).secret;
}, 60_000);
afterAll(async () => {
  await pg?.close();
});

describe("token and user routes", () => {
  it("lists and creates your own tokens; another person's only for an admin; never a secret in a list", async () => {
    const created = await createToken(ctx, as(runner), { name: "script" });
    expect(created.secret).toMatch(/^rp_/);
    const mine = await listTokens(ctx, as(runner));
    expect(mine.map((token) => token.name).sort()).toEqual(["runner", "script"]);
    expect(JSON.stringify(mine)).not.toContain(created.secret);
    expect(await statusOf(listTokens(ctx, as(runner, `/api/tokens?user=${adminId}`)))).toBe(403);
    expect((await listTokens(ctx, as(admin, `/api/tokens?user=${runnerId}`))).length).toBe(2);
    expect(await statusOf(listTokens(ctx, as(null)))).toBe(401);
    expect(await statusOf(createToken(ctx, as(runner), { name: "" }))).toBe(400);
  });

  it("revokes your own token; another person's reads as missing unless you are an admin", async () => {
    const { token, secret } = await createToken(ctx, as(runner), { name: "to revoke" });
    const adminsOwn = (await listTokens(ctx, as(admin)))[0]!;
    expect(await statusOf(revokeToken(ctx, as(runner), adminsOwn.id))).toBe(404);
    expect((await revokeToken(ctx, as(runner), token.id)).revokedAt).not.toBeNull();
    expect(await ctx.auth.principalOfToken(secret)).toBeNull();
    const other = await createToken(ctx, as(runner), { name: "admin revokes" });
    expect((await revokeToken(ctx, as(admin), other.token.id)).revokedAt).not.toBeNull();
  });

  it("lets only admins manage accounts, and not remove themselves", async () => {
    expect(await statusOf(listUsers(ctx, as(runner, "/api/users")))).toBe(403);
    expect(await statusOf(addUser(ctx, as(runner, "/api/users"), { email: "x@lab.example", name: "X", password: "x-password" }))).toBe(403);
    const vic = await addUser(ctx, as(admin, "/api/users"), { email: "vic@lab.example", name: "Vic", password: "vic-password", role: "viewer" });
    expect((await setUserRole(ctx, as(admin, "/api/users"), vic.id, { role: "runner" })).role).toBe("runner");
    expect(await statusOf(setUserRole(ctx, as(admin, "/api/users"), vic.id, { role: "owner" }))).toBe(400);
    expect(await statusOf(removeUser(ctx, as(admin, "/api/users"), adminId))).toBe(409);
    await removeUser(ctx, as(admin, "/api/users"), vic.id);
    expect((await listUsers(ctx, as(admin, "/api/users"))).map((user) => user.email)).toEqual(["ada@lab.example", "rob@lab.example"]);
  });

  it("says API tokens need sign-in when it is off", async () => {
    const off = openSignIn(pg.db, { ...ENV, REFLEXION_SIGN_IN: "off" });
    expect(off.auth.signIn).toBe("off");
    expect(await statusOf(listTokens(off, as(null)))).toBe(409);
  });
});
