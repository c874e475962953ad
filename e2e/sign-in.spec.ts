import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { expect, test } from "./fixtures";
import { openNodePostgres } from "@/lib/db/pg/database";
import { PgRunStore } from "@/lib/db/pg/pg-store";
import { startPostgresServer, type PostgresServer } from "../tests/helpers/postgres-server";

/**
 * Sign-in in the browser, shared mode with sign-in on: this spec starts its own app server (the
 * production build, on a free port) over a fresh PostgreSQL database, makes the first admin with
 * the CLI, then signs in, sees their name, creates an API token (shown once), signs out.
 */
const SECRET = "e2e-sign-in-secret-e2e-sign-in-secret-01";
let pg: PostgresServer;
let app: ChildProcess | null = null;
let base = "";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function run(command: string, args: string[], env: Record<string, string>, input?: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
    child.stdin.end(input ?? "");
  });
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  pg = await startPostgresServer();
  const url = await pg.createDatabase("e2e_sign_in");
  const migrator = new PgRunStore(openNodePostgres(url, { max: 2 }), { migrate: "apply" });
  await migrator.ready();
  await migrator.close();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env = { REFLEXION_DATABASE_URL: url, BETTER_AUTH_SECRET: SECRET, REFLEXION_PUBLIC_URL: base, REFLEXION_ENV_FILES: "off", NEXT_TELEMETRY_DISABLED: "1", REFLEXION_CONCURRENCY: "1" };
  const admin = await run(process.execPath, ["--import", "tsx", "bin/cli.ts", "users", "add", "--admin", "--email", "ada@lab.example", "--name", "Ada Admin", "--password-stdin"], env, "ada-password\n");
  expect(admin.code, admin.out).toBe(0);
  app = spawn("node_modules/.bin/next", ["start", "-p", String(port), "-H", "127.0.0.1"], { env: { ...process.env, ...env }, stdio: "ignore" });
  for (let i = 0; i < 120; i++) {
    const ok = await fetch(`${base}/api/health`).then((response) => response.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("the shared-mode app server did not start");
});

test.afterAll(async () => {
  app?.kill("SIGTERM");
  await pg?.stop();
});

test("an admin made with the CLI signs in, sees their name, creates a token shown once, signs out", async ({ page }) => {
  // Which routes need what is the route policy's (lib/auth/route-policy.ts); the token routes check a principal themselves.
  const noSession = await fetch(`${base}/api/tokens`);
  expect(noSession.status).toBe(401);
  expect(await (await fetch(`${base}/api/health`)).json()).toEqual({ ok: true });

  await page.goto(`${base}/settings`);
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fsettings$/);
  await page.getByTestId("sign-in-email").fill("ada@lab.example");
  await page.getByTestId("sign-in-password").fill("wrong-password");
  await page.getByTestId("sign-in-submit").click();
  await expect(page.getByTestId("sign-in-error")).toContainText("do not match an account");
  await page.getByTestId("sign-in-password").fill("ada-password");
  await page.getByTestId("sign-in-submit").click();
  await expect(page).toHaveURL(`${base}/settings`);
  await expect(page.getByTestId("account-badge")).toContainText("Ada Admin (admin)");
  await expect(page.getByTestId("users-table")).toContainText("ada@lab.example");

  await page.getByTestId("account-name").click();
  await expect(page.getByTestId("account-role")).toHaveText("admin");
  await page.getByTestId("token-name").fill("laptop");
  await page.getByTestId("token-create").click();
  const secret = (await page.getByTestId("token-secret").textContent()) ?? "";
  expect(secret).toMatch(/^rp_/);
  await expect(page.getByTestId("token-secret-notice")).toContainText("you will not see it again");
  await expect(page.getByTestId("tokens-table")).toContainText("laptop");
  await expect(page.getByTestId("tokens-table")).not.toContainText(secret);
  const withToken = await fetch(`${base}/api/tokens`, { headers: { authorization: `Bearer ${secret}` } });
  expect(withToken.status).toBe(200);

  await page.reload();
  await expect(page.getByTestId("token-secret")).toHaveCount(0);
  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(`${base}/sign-in`);
  await page.goto(`${base}/account`);
  await expect(page).toHaveURL(/\/sign-in\?next=%2Faccount$/);
});
