import { expect, test } from "./fixtures";

/**
 * "Optimise a template" on an experiment's page, offline: a one-trial QA experiment on the demo
 * model fails every task; the optimiser's candidates (the demo's scripted answer adds the key facts
 * the failures missed) are saved, evaluated and tested against their parent on held-out tasks.
 */
test("optimise: start from the experiment page, follow the candidates to the end, open their template", async ({ page }) => {
  test.setTimeout(180_000);
  const tasks = ["qa-builtin-01", "qa-builtin-02", "qa-builtin-03", "qa-builtin-04", "qa-builtin-05", "qa-builtin-06"];
  const created = await page.request.post("/api/experiments", {
    data: { name: "one trial", environment: "qa", taskSet: "builtin", taskIds: tasks, maxTrials: 1, arms: [{ label: "reflexion", strategy: "reflexion", modelId: "demo" }] },
  });
  expect(created.status()).toBe(201);
  const { experimentId } = (await created.json()) as { experimentId: string };
  await expect
    .poll(async () => ((await (await page.request.get(`/api/experiments/${experimentId}`)).json()) as { status: string }).status, { timeout: 60_000 })
    .toBe("ended");

  await page.goto(`/experiments/${experimentId}`);
  const panel = page.getByTestId("optimise-panel");
  await expect(panel.getByTestId("optimise-demo-notice")).toContainText("scripted stand-in");
  await panel.getByLabel("Template").selectOption("actor");
  await panel.getByLabel("Rounds").fill("1");
  await panel.getByLabel("Candidates per round").fill("1");
  await expect(panel.getByLabel("Arm")).toHaveValue("reflexion");
  // A budget that is not a whole number is refused in place, never sent as "no limit".
  await panel.getByLabel("Token budget (optional)").fill("abc");
  await expect(panel.getByTestId("optimise-budget-error")).toContainText("is not a number");
  await expect(panel.getByTestId("optimise-start")).toBeDisabled();
  await panel.getByLabel("Token budget (optional)").fill("");
  await expect(panel.getByTestId("optimise-budget-error")).toHaveCount(0);
  await panel.getByTestId("optimise-start").click();

  const optimisation = panel.getByTestId("optimisation");
  await expect(optimisation).toHaveAttribute("data-status", "done", { timeout: 120_000 });
  await expect(optimisation.getByTestId("optimisation-arm")).toContainText("reflexion");
  const rows = optimisation.getByTestId("optimisation-candidate");
  await expect(rows).toHaveCount(2);
  const candidate = rows.nth(1);
  await expect(candidate).toContainText(/tv-[0-9a-f]{16} ← tv-[0-9a-f]{16}/);
  await expect(candidate).toContainText(/%.*p = /);

  await optimisation.getByTestId("optimisation-template").click();
  await expect(page).toHaveURL(/\/templates\/tpl-[0-9a-f]{12}/);
});
