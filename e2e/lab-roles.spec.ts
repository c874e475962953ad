import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { HomePage } from "./pages/home-page";
import { RunPage } from "./pages/run-page";
import { signInThroughUi, startSharedModeServer, type SharedModeServer } from "./shared-mode-server";

/**
 * Roles with real accounts, in shared mode with sign-in on: one app server over a fresh PostgreSQL
 * for the whole file (e2e/shared-mode-server.ts). The first admin is made with the CLI, and with
 * the token it prints, a runner and a viewer. Each person signs in through the sign-in page in their
 * own browser context. The runner starts a demo run that pauses after its first reflection and edits
 * that reflection; the viewer sees the run with no control that changes it; the runner sees them on
 * their own run but has no Settings; the admin has Settings and finds the runner's edit in the audit
 * log under the runner's name. The server refuses what the pages hide (lib/auth/route-policy.ts).
 */

type Person = { email: string; password: string; name: string; role: "admin" | "runner" | "viewer" };

const ADMIN: Person = { email: "ada@lab.example", password: "ada-password-1", name: "Ada Admin", role: "admin" };
const RUNNER: Person = { email: "rita@lab.example", password: "rita-password-1", name: "Rita Runner", role: "runner" };
const VIEWER: Person = { email: "victor@lab.example", password: "victor-password-1", name: "Victor Viewer", role: "viewer" };
const EDITED = "Rita's lesson: answer with the name of the founder, not the ship.";

let server: SharedModeServer | null = null;
let base = "";
let runId = "";
const contexts = new Map<Person, BrowserContext>();

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startSharedModeServer({ database: "e2e_lab_roles", secret: "e2e-lab-roles-secret-e2e-lab-roles-secret" });
  base = server.base;
  const admin = await server.cli(["users", "add", "--admin", "--email", ADMIN.email, "--name", ADMIN.name, "--password-stdin"], { input: `${ADMIN.password}\n` });
  expect(admin.code, admin.stdout + admin.stderr).toBe(0);
  const token = admin.stdout.split("\n").find((line) => line.startsWith("rp_")) ?? "";
  expect(token, `the first admin's token in: ${admin.stdout}`).not.toBe("");
  for (const person of [RUNNER, VIEWER]) {
    const added = await server.cli(["users", "add", "--role", person.role, "--email", person.email, "--name", person.name, "--password-stdin"], { input: `${person.password}\n`, token });
    expect(added.code, added.stdout + added.stderr).toBe(0);
    expect(added.stdout).toContain(`${person.email}\t${person.name}\t${person.role}`);
  }
  // Without the admin's token, adding someone is refused now that an account exists.
  const anonymous = await server.cli(["users", "add", "--role", "runner", "--email", "eve@lab.example", "--name", "Eve", "--password-stdin"], { input: "eve-password-1\n" });
  expect(anonymous.code).not.toBe(0);
  expect(anonymous.stderr).toContain("needs an API token");
});

test.afterAll(async () => {
  for (const context of contexts.values()) await context.close().catch(() => undefined);
  await server?.stop();
});

/** `person`'s page in their own browser context (cookies of their own), signed in through the UI once. */
async function pageOf(browser: Browser, person: Person): Promise<Page> {
  const existing = contexts.get(person);
  if (existing) return existing.pages()[0] ?? existing.newPage();
  const context = await browser.newContext({ baseURL: base });
  contexts.set(person, context);
  const page = await context.newPage();
  await signInThroughUi(page, person);
  return page;
}

/** The run page once it shows the run paused after trial 1's reflection. */
async function openPausedRun(page: Page): Promise<RunPage> {
  await page.goto(`/runs/${runId}`);
  const run = new RunPage(page);
  await expect(run.node("reflection", 1)).toBeVisible();
  await run.waitForStatus(/paused/i);
  return run;
}

test.describe.serial("a lab with an admin, a runner and a viewer", () => {
  test("without a session the API answers 401, except the health check", async () => {
    expect((await fetch(`${base}/api/runs`)).status).toBe(401);
    const created = await fetch(`${base}/api/runs`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-02", strategy: "reflexion", modelId: "demo" }),
    });
    expect(created.status).toBe(401);
    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true });
  });

  test("the runner starts a demo run that pauses after the reflection, and edits the reflection", async ({ browser }) => {
    const page = await pageOf(browser, RUNNER);
    const home = new HomePage(page);
    await home.open();
    runId = await home.startRun({ taskId: "qa-builtin-02", strategy: "reflexion", pauseAfterReflection: true });
    const run = new RunPage(page);
    await expect(run.node("reflection", 1)).toBeVisible();
    await run.waitForStatus(/paused/i);
    await expect(page.getByTestId("paused-reason")).toHaveAttribute("data-reason", "breakpoint");

    await run.editNewestReflection(EDITED);
    await expect(page.getByTestId("edited-badge").first()).toBeVisible();
    await expect(page.locator('[data-testid="memory-all"] [data-testid="edited-by"]').first()).toContainText(new RegExp(`^edited by ${RUNNER.name} · \\d\\d:\\d\\d$`));
    await run.waitForStatus(/paused/i);
  });

  test("the viewer sees the run with no control that changes it, and no Settings", async ({ browser }) => {
    const page = await pageOf(browser, VIEWER);
    const run = await openPausedRun(page);
    await expect(page.getByTestId("role-read-only").first()).toContainText("read-only: viewers can look at runs but not change them");
    for (const control of ["cancel-run", "pause-run", "resume-run", "step-run"]) await expect(page.getByTestId(control)).toHaveCount(0);
    // The runner's edit is there to read, under their name, with no editor.
    await expect(page.locator('[data-testid="memory-all"] [data-testid="edited-by"]').first()).toContainText(`edited by ${RUNNER.name}`);
    await expect(page.getByTestId("reflection-editor")).toHaveCount(0);
    await expect(page.getByTestId("memory-edit-area")).toHaveCount(0);
    await page.getByTestId("side-tab-steer").click();
    await expect(page.getByTestId("role-read-only").last()).toBeVisible();
    await expect(page.getByTestId("steer-panel")).toHaveCount(0);
    await run.open(run.node("reflection", 1));
    await expect(page.getByTestId("inspector")).toBeVisible();
    await expect(page.getByTestId("fork-here")).toHaveCount(0);

    await expect(page.getByTestId("nav-settings")).toHaveCount(0);
    await page.goto("/settings");
    await expect(page.getByTestId("admins-only")).toContainText("Settings: admins only.");
    await expect(page.getByTestId("admins-only")).toContainText("You are signed in as a viewer.");
    await expect(page.getByTestId("users-section")).toHaveCount(0);

    // The server refuses it too, with the viewer's session.
    expect((await page.request.post(`/api/runs/${runId}/cancel`, { headers: { origin: base } })).status()).toBe(403);
  });

  test("the runner has Steer and Cancel on their own run, and no Settings", async ({ browser }) => {
    const page = await pageOf(browser, RUNNER);
    await openPausedRun(page);
    await expect(page.getByTestId("cancel-run")).toBeVisible();
    await expect(page.getByTestId("resume-run")).toBeVisible();
    await expect(page.getByTestId("role-read-only")).toHaveCount(0);
    await page.getByTestId("side-tab-steer").click();
    await expect(page.getByTestId("steer-panel")).toBeVisible();

    await expect(page.getByTestId("nav-settings")).toHaveCount(0);
    await page.goto("/settings");
    await expect(page.getByTestId("admins-only")).toContainText("Settings: admins only.");
    await expect(page.getByTestId("admins-only")).toContainText("You are signed in as a runner.");
    expect((await page.request.get("/api/settings/providers")).status()).toBe(403);
  });

  test("the admin may change the run, has Settings with Users and Budgets, and the audit log lists the runner's edit by name", async ({ browser }) => {
    const page = await pageOf(browser, ADMIN);
    await openPausedRun(page);
    await expect(page.getByTestId("cancel-run")).toBeVisible();
    await expect(page.getByTestId("role-read-only")).toHaveCount(0);
    await page.getByTestId("nav-settings").click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByTestId("admins-only")).toHaveCount(0);
    await expect(page.getByTestId("budgets-section")).toBeVisible();
    const users = page.getByTestId("users-section");
    await expect(users).toBeVisible();
    for (const person of [ADMIN, RUNNER, VIEWER]) await expect(users).toContainText(person.email);

    await page.goto("/admin/audit");
    const rows = page.getByTestId("audit-row");
    await expect(rows.first()).toBeVisible();
    await page.getByTestId("audit-filter-user").fill(RUNNER.name);
    await page.getByTestId("audit-apply").click();
    const edit = rows.filter({ hasText: "POST /api/runs/[runId]/edits" });
    await expect(edit).toHaveCount(1);
    await expect(edit).toContainText(RUNNER.name);
    await expect(edit).toContainText("200");
    await expect(edit.getByRole("link", { name: runId })).toHaveAttribute("href", `/runs/${runId}`);
    // Filtered by the runner, no one else's entry is listed.
    for (const other of [ADMIN.name, VIEWER.name]) await expect(page.getByTestId("audit-table")).not.toContainText(other);
  });
});
