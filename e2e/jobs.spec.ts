import { expect, test } from "./fixtures";

/**
 * The job queue in the browser: /jobs in the embedded default (the Playwright server has no
 * REFLEXION_DATABASE_URL) says there is no job queue and why, reads its data from
 * GET /api/jobs/dead-letters, and loads without a CSP violation (fixtures.ts).
 */
test("the jobs page explains the embedded mode has no queue; the API says so too", async ({ page, request }) => {
  const api = await request.get("/api/jobs/dead-letters");
  expect(api.ok()).toBe(true);
  expect(await api.json()).toEqual({ mode: "in-process", stats: { queued: 0, active: expect.any(Number), failed: 0 }, deadLetters: [] });
  await page.goto("/jobs");
  await expect(page.getByRole("heading", { name: "Jobs", level: 1 })).toBeVisible();
  await expect(page.getByText("No job queue in the embedded mode")).toBeVisible();
  await expect(page.getByTestId("jobs-page")).toContainText("REFLEXION_DATABASE_URL");
});
