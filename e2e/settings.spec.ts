import { SLOW_MODEL_PORT } from "../playwright.config";
import { expect, test } from "./fixtures";
import { HomePage } from "./pages/home-page";
import { RunPage } from "./pages/run-page";

/**
 * Providers and per-role models in the browser: the settings page lists the providers the
 * server's environment configures (playwright.config.ts: an OpenAI key that is not a
 * key, pointed at a fake server; the slow fake OpenAI-compatible server as
 * `compatible:fake-model`; no Anthropic key), "Test connection" against the fake
 * compatible server shows a latency, and a run whose Self-Reflection uses another
 * model than its Actor records each role's model.
 */

const NOT_A_KEY = "e2e-not-a-key";

test("the settings page lists the configured providers and tests the fake OpenAI-compatible server", async ({ page }) => {
  await page.goto("/");
  await page.getByTestId("nav-settings").click();
  await expect(page).toHaveURL(/\/settings$/);
  const compatible = page.getByTestId("provider-compatible");
  await expect(compatible.getByTestId("provider-status")).toHaveText("Configured");
  await expect(compatible.getByTestId("provider-base-url")).toContainText(`http://127.0.0.1:${SLOW_MODEL_PORT}/v1`);
  await expect(compatible.getByTestId("provider-models")).toContainText("fake-model");
  await expect(page.getByTestId("provider-openai").getByTestId("provider-status")).toHaveText("Configured");
  const anthropic = page.getByTestId("provider-anthropic");
  await expect(anthropic.getByTestId("provider-status")).toHaveText("Not configured");
  await expect(anthropic).toContainText("set ANTHROPIC_API_KEY");
  await expect(anthropic.getByTestId("provider-test")).toHaveCount(0);

  await compatible.getByTestId("provider-test").click();
  await expect(compatible.getByTestId("provider-test-result")).toHaveText(/OK in \d+ ms \(compatible:fake-model\)/, { timeout: 30_000 });
  await page.screenshot({ path: test.info().outputPath("settings-providers.png"), fullPage: true });
  // The key's value is on the server only.
  expect(await page.content()).not.toContain(NOT_A_KEY);
});

test("a run with another model for the Self-Reflection records each role's model", async ({ page, request }) => {
  const home = new HomePage(page);
  await home.open();
  await page.getByTestId("task-option-qa-builtin-01").click();
  await page.getByTestId("strategy-select").selectOption("reflexion");
  await page.getByTestId("model-select").selectOption("demo");
  await page.getByTestId("role-models").locator("summary").click();
  await page.getByTestId("role-reflector-model").selectOption("compatible:fake-model");
  await page.getByTestId("role-reflector-max-tokens").fill("120");
  await page.getByTestId("pause-after-reflection").uncheck();
  await page.getByTestId("start-run").click();
  await page.waitForURL(/\/runs\/[0-9a-f-]+$/);
  const runId = page.url().split("/").at(-1) ?? "";
  const run = new RunPage(page);
  try {
    await expect(page.getByTestId("run-role-models")).toContainText("Self-Reflection compatible:fake-model");
    await expect(page.getByTestId("run-role-models")).toContainText("Actor demo");
    // The reflection is written by the fake server's model (it plays the demo script, one word every 150 ms).
    await run.node("reflection", 1).click();
    await expect(page.getByTestId("inspector-model")).toHaveText("compatible:fake-model", { timeout: 60_000 });
    const events = (await (await request.get(`/api/runs/${runId}/events`)).json()) as { events: Array<{ type: string; data: { role?: string; settings?: { modelId: string; maxOutputTokens: number } } }> };
    const calls = events.events.filter((e) => e.type === "model-call-end");
    expect(calls.find((c) => c.data.role === "reflector")?.data.settings).toMatchObject({ modelId: "compatible:fake-model", maxOutputTokens: 120 });
    expect(calls.find((c) => c.data.role === "actor")?.data.settings?.modelId).toBe("demo");
  } finally {
    await request.post(`/api/runs/${runId}/cancel`, { data: {} });
  }
});
