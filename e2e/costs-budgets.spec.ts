import { expect, test } from "./fixtures";

/**
 * Costs and budgets: a run of a priced model (`compatible:fake-model`,
 * the slow fake server of playwright.config.ts, priced by a row added through the
 * API) with a $0.001 budget stops cleanly with status budget-exhausted, resumes
 * from the banner with a larger budget and completes; the run's cost table shows
 * the split between acting and reflecting, and the settings page lists the price.
 */

const MODEL = "compatible:fake-model";

test("a $0.001 budget stops the run cleanly; resuming with a larger one completes it; the cost table splits the roles", async ({ page, request }) => {
  test.setTimeout(240_000);
  // $100 / $200 per 1M tokens: the first call (~300 prompt tokens by the fake's estimate) already costs more than $0.001.
  const price = await request.put("/api/settings/prices", {
    data: { modelId: MODEL, inputUsdPerMTok: 100, outputUsdPerMTok: 200, cachedInputUsdPerMTok: 10, note: "e2e" },
  });
  expect(price.ok()).toBe(true);

  const created = await request.post("/api/runs", {
    data: { environment: "qa", taskSet: "builtin", taskId: "qa-builtin-03", strategy: "reflexion", modelId: MODEL, budget: { usd: 0.001 } },
  });
  expect(created.status()).toBe(201);
  const { runId } = (await created.json()) as { runId: string };

  await page.goto(`/runs/${runId}`);
  const status = page.getByTestId("run-status").first();
  await expect(status).toHaveAttribute("data-status", "budget-exhausted", { timeout: 60_000 });
  await expect(page.getByTestId("budget-banner")).toContainText("Budget exhausted");
  await expect(page.getByTestId("budget-detail")).toContainText("of $0.001");
  await expect(page.getByTestId("budget-meter-usd")).toBeVisible();
  // Stopped between two steps: one Actor call, recorded whole (its thought, action and observation).
  const stopped = await (await request.get(`/api/runs/${runId}/events`)).json();
  const types = (stopped.events as Array<{ type: string; data: { reason?: string } }>).map((event) => event.type);
  expect(types.at(-1)).toBe("run-pause");
  expect(types.filter((type) => type === "model-call-end")).toHaveLength(1);
  expect(types.filter((type) => type === "step-observation")).toHaveLength(1);

  // Resume from the banner with $5.
  await page.getByTestId("budget-usd-input").fill("5");
  await page.getByTestId("budget-resume").click();
  await expect(page.getByTestId("budget-banner")).toHaveCount(0);
  await expect(status).toHaveAttribute("data-status", "ended", { timeout: 180_000 });
  await expect(page.getByTestId("ended-banner")).toContainText("Solved");

  // The cost table: acting (the Actor) and reflecting (the Self-Reflection), each priced.
  const costs = page.getByTestId("run-costs");
  await costs.locator("summary").click();
  const acting = page.getByTestId("cost-total-acting");
  const reflecting = page.getByTestId("cost-total-reflecting");
  await expect(acting).toBeVisible();
  expect(Number(await acting.getAttribute("data-cost-usd"))).toBeGreaterThan(0);
  expect(Number(await reflecting.getAttribute("data-cost-usd"))).toBeGreaterThan(0);
  expect(Number(await reflecting.getAttribute("data-calls"))).toBe(1);
  await expect(page.getByTestId("cost-trial-row")).toHaveCount(2);
  await page.screenshot({ path: test.info().outputPath("run-costs.png") });

  // The settings page lists the row in force for the model.
  await page.goto("/settings#prices");
  const row = page.locator(`[data-testid="price-row"][data-model="${MODEL}"]`);
  await expect(row).toContainText("$100");
  await expect(row).toContainText("e2e");
});

test("a warm-started run shows the reflections carried in from a memory store, with their source", async ({ page, request }) => {
  test.setTimeout(120_000);
  const start = async (extra: Record<string, unknown>) => {
    const created = await request.post("/api/runs", { data: { environment: "qa", taskSet: "builtin", taskId: "qa-builtin-05", strategy: "reflexion", modelId: "demo", ...extra } });
    expect(created.status()).toBe(201);
    return ((await created.json()) as { runId: string }).runId;
  };
  const ended = async (runId: string) => {
    await expect
      .poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { run: { status: string } }).run.status, { timeout: 60_000 })
      .toBe("ended");
  };
  const cold = await start({ writeMemory: { store: "e2e-store" } });
  await ended(cold);

  const warm = await start({ warmStart: { store: "e2e-store", maxEntries: 3 } });
  await ended(warm);
  await page.goto(`/runs/${warm}`);
  const carried = page.getByTestId("carried-in");
  await expect(carried).toHaveAttribute("data-count", "1");
  await expect(carried).toContainText("e2e-store");
  await expect(carried.getByTestId("carried-entry")).toHaveAttribute("data-source-run", cold);
  await page.screenshot({ path: test.info().outputPath("warm-start.png") });

  await page.goto("/settings#memory-stores");
  await expect(page.locator('[data-testid="memory-store-row"][data-store="e2e-store"]')).toHaveAttribute("data-entries", "1");
});
