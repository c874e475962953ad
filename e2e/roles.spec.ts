import type { Page } from "@playwright/test";
import type { MeResponse, Role } from "@/lib/domain/roles";
import { expect, test } from "./fixtures";
import { HomePage } from "./pages/home-page";
import { RunPage } from "./pages/run-page";

/**
 * The UI hides what a role cannot do, from `GET /api/me` (the server refuses it regardless:
 * tests/auth/route-matrix.test.ts): the embedded build (sign-in off) with /api/me answered in the
 * browser as a viewer, a runner who does not own the run, and an admin — the hiding logic end to end
 * on any checkout. The same with real accounts, signed in on a shared-mode server, is
 * e2e/lab-roles.spec.ts.
 */

const meAs = (role: Role): MeResponse => ({ signIn: "on", principal: { kind: "person", userId: `e2e-${role}`, name: `e2e ${role}`, email: null, role, tokenId: null } });

/** Answers the browser's /api/me as `role` (the server itself still runs with sign-in off). */
async function pretendToBe(page: Page, role: Role): Promise<void> {
  await page.route("**/api/me", (route) => route.fulfill({ json: meAs(role) }));
}

/** What a person who may not change the run sees: no Pause/Resume/Cancel, no Steer panel, no memory editors; a read-only line. */
async function expectReadOnlyRun(page: Page, reason: RegExp): Promise<void> {
  await expect(page.getByTestId("role-read-only").first()).toContainText(reason);
  await expect(page.getByTestId("cancel-run")).toHaveCount(0);
  await expect(page.getByTestId("resume-run")).toHaveCount(0);
  await page.getByTestId("side-tab-steer").click();
  await expect(page.getByTestId("steer-panel")).toHaveCount(0);
  await page.getByTestId("side-tab-memory").click();
  await expect(page.getByTestId("memory-edit-area")).toHaveCount(0);
}

test.describe("as /api/me says (embedded build)", () => {
  test("a viewer and a runner who does not own the run see no Steer or Cancel; a runner cannot open Settings; an admin can do both", async ({ page }) => {
    const home = new HomePage(page);
    await home.open();
    const runId = await home.startRun({ taskId: "qa-builtin-02", strategy: "reflexion", pauseAfterReflection: true });
    const run = new RunPage(page);
    await run.waitForStatus(/paused/i);
    await expect(page.getByTestId("cancel-run")).toBeVisible();

    await pretendToBe(page, "viewer");
    await page.goto(`/runs/${runId}`);
    await run.waitForStatus(/paused/i);
    await expectReadOnlyRun(page, /read-only: viewers can look at runs but not change them/);

    await page.unroute("**/api/me");
    await pretendToBe(page, "runner");
    await page.goto(`/runs/${runId}`);
    await run.waitForStatus(/paused/i);
    // Made with sign-in off, the run has no owner: only an admin may change it.
    await expectReadOnlyRun(page, /read-only: this run has no owner; only an admin may change it/);
    await expect(page.getByTestId("nav-settings")).toHaveCount(0);
    await page.goto("/settings");
    await expect(page.getByTestId("admins-only")).toContainText("Settings: admins only.");
    await expect(page.getByTestId("admins-only")).toContainText("You are signed in as a runner.");
    await expect(page.getByTestId("provider-openai")).toHaveCount(0);

    await page.unroute("**/api/me");
    await pretendToBe(page, "admin");
    await page.goto(`/runs/${runId}`);
    await run.waitForStatus(/paused/i);
    await expect(page.getByTestId("cancel-run")).toBeVisible();
    await expect(page.getByTestId("role-read-only")).toHaveCount(0);
    await page.getByTestId("side-tab-steer").click();
    await expect(page.getByTestId("steer-panel")).toBeVisible();
    await page.getByTestId("nav-settings").click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByTestId("provider-openai")).toBeVisible();
    await expect(page.getByTestId("admins-only")).toHaveCount(0);
  });
});
