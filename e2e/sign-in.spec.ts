import { expect, test } from "./fixtures";
import { startSharedModeServer, type SharedModeServer } from "./shared-mode-server";

/**
 * Sign-in in the browser, shared mode with sign-in on: this spec starts its own app server (the
 * production build, on a free port) over a fresh PostgreSQL database, makes the first admin with
 * the CLI, then signs in, sees their name, creates an API token (shown once), signs out.
 */
let server: SharedModeServer | null = null;
let base = "";

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startSharedModeServer({ database: "e2e_sign_in", secret: "e2e-sign-in-secret-e2e-sign-in-secret-01" });
  base = server.base;
  const admin = await server.cli(["users", "add", "--admin", "--email", "ada@lab.example", "--name", "Ada Admin", "--password-stdin"], { input: "ada-password\n" });
  expect(admin.code, admin.stdout + admin.stderr).toBe(0);
});

test.afterAll(async () => {
  await server?.stop();
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
