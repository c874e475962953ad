import { expect, test } from "./fixtures";
import { HomePage } from "./pages/home-page";
import { RunPage } from "./pages/run-page";

test("a Reflexion run with the demo model: trial 1 fails, a reflection is written, trial 2 succeeds", async ({ page }) => {
  const home = new HomePage(page);
  await home.open();
  await home.startRun({ taskId: "qa-builtin-01", strategy: "reflexion" });
  const run = new RunPage(page);

  await expect(page.getByTestId("demo-model-badge")).toBeVisible();
  await expect(run.evaluation(1, "fail")).toBeVisible();
  await expect(run.evaluation(1, "fail").getByTestId("oracle-badge")).toBeVisible();
  await expect(run.node("reflection", 1)).toBeVisible();
  await expect(run.node("trial", 2)).toBeVisible();
  await expect(run.evaluation(2, "pass")).toBeVisible();
  await run.waitForStatus(/ended/i);

  // The inspector shows the exact Actor prompt: trial 2's carries trial 1's reflection.
  const reflectionText = (await run.node("reflection", 1).textContent()) ?? "";
  expect(reflectionText.length).toBeGreaterThan(20);
  const prompt = await run.promptOf(run.node("thought", 2).first());
  expect(prompt).toContain("Reflections:");
  expect(prompt).toMatch(/Question: Which river runs through the town/);

  // A reload shows the whole run again (it is read back from the database).
  await page.reload();
  await expect(run.evaluation(2, "pass")).toBeVisible();
  await expect(run.node("reflection", 1)).toBeVisible();
});

test("pause after the reflection, edit it, resume: trial 2's first Actor prompt carries the edited text", async ({ page }) => {
  const home = new HomePage(page);
  await home.open();
  await home.startRun({ taskId: "qa-builtin-02", strategy: "reflexion", pauseAfterReflection: true });
  const run = new RunPage(page);

  await expect(run.node("reflection", 1)).toBeVisible();
  await run.waitForStatus(/paused/i);
  await expect(run.node("trial", 2)).toHaveCount(0);

  const edited = "EDITED BY A TEACHER: answer with the name of the founder, not the ship.";
  await run.editNewestReflection(edited);
  await expect(page.getByTestId("edited-badge").first()).toBeVisible();
  await page.getByTestId("resume-run").click();

  await expect(run.node("thought", 2).first()).toBeVisible();
  const prompt = await run.promptOf(run.node("thought", 2).first());
  expect(prompt).toContain(edited);
  // The lesson was removed, so the scripted Actor fails trial 2 again.
  await expect(run.evaluation(2, "fail")).toBeVisible();
});

test("household: the mug-and-desklamp scene fails, reflects, then succeeds, with location and inventory shown", async ({ page }) => {
  const home = new HomePage(page);
  await home.open();
  await page.getByTestId("environment-select").selectOption("household");
  await expect(page.getByTestId("task-option-household-builtin-01")).toBeVisible();
  await home.startRun({ taskId: "household-builtin-01", strategy: "reflexion" });
  const run = new RunPage(page);

  await page.getByTestId("run-setting").locator("summary").click();
  await expect(page.getByTestId("run-setting")).toContainText("You are in the middle of a room");
  await expect(run.evaluation(1, "fail")).toBeVisible();
  await expect(run.evaluation(1, "fail").getByTestId("oracle-badge")).toHaveCount(0); // environment success is no oracle
  await expect(run.node("reflection", 1)).toContainText(/desklamp/i);
  await expect(run.evaluation(2, "pass")).toBeVisible();
  // The loop that ended trial 1 is marked, and observations show where the agent is and what it holds.
  await expect(page.locator('[data-testid="node-observation"][data-trial="1"] [data-testid="loop-badge"]').first()).toBeAttached();
  await expect(page.locator('[data-testid="node-observation"][data-trial="2"] [data-testid="world-state"]').filter({ hasText: "holding mug 1" }).first()).toBeAttached();
});

test("every page is served with the Content-Security-Policy header", async ({ page }) => {
  for (const path of ["/", "/experiments", "/api/models"]) {
    const response = await page.request.get(path);
    const csp = response.headers()["content-security-policy"] ?? "";
    expect(csp, path).toContain("default-src 'self'");
    expect(csp, path).toContain("connect-src 'self'");
    expect(response.headers()["x-content-type-options"]).toBe("nosniff");
  }
});
