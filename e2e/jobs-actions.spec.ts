import { expect, test } from "./fixtures";

/**
 * The job queue in the browser, embedded default (the Playwright server has no REFLEXION_DATABASE_URL):
 * the dead-letter actions answer 409 saying there is no job queue and what to set; /jobs keeps its
 * empty state and shows the provider rate-limit section (per-process or off, no blocks, never a key;
 * the adaptive limits on by default),
 * with no CSP violation (fixtures.ts).
 */
test("/jobs: dead-letter actions explain the embedded mode; the rate-limit section is shown without keys", async ({ page, request }) => {
  const retryAll = await request.post("/api/jobs/dead-letters/retry-all");
  expect(retryAll.status()).toBe(409);
  expect((await retryAll.json()).error.message).toMatch(/no job queue in the embedded mode.*REFLEXION_DATABASE_URL/);

  const limits = await request.get("/api/jobs/rate-limits");
  expect(limits.ok()).toBe(true);
  const text = await limits.text();
  const view = JSON.parse(text);
  expect(["off", "process"]).toContain(view.counters);
  expect(view.blocked).toBeNull();
  expect(view.adaptive.mode).toBe("on");
  expect(text).not.toContain("e2e-not-a-key");

  await page.goto("/jobs");
  await expect(page.getByText("No job queue in the embedded mode")).toBeVisible();
  const section = page.getByRole("region", { name: "Provider rate limits" });
  await expect(section).toBeVisible();
  await expect(section).toContainText(view.counters === "off" ? "No limits configured" : "this process only");
  await expect(section.getByTestId("adaptive-limits")).toContainText("Adaptive limits, learnt from 429s");
  await expect(page.getByTestId("jobs-page")).not.toContainText("e2e-not-a-key");
});
