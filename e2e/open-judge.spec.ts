import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { HomePage } from "./pages/home-page";
import { RunPage } from "./pages/run-page";

/**
 * Open tasks judged by a model with the offline demo model (a scripted stand-in
 * playing Actor, judge and Self-Reflection): the judge's per-criterion scores on the graph and in
 * the inspector, labelled "a model's opinion, not an oracle", the judge's prompt as a recorded
 * call; then the judge-agreement view: empty state, blind grading, agreement after 10 grades.
 */

async function endedRun(request: APIRequestContext, taskId: string): Promise<string> {
  const created = await request.post("/api/runs", { data: { environment: "open", taskSet: "builtin", taskId, strategy: "reflexion", modelId: "demo" } });
  expect(created.status()).toBe(201);
  const { runId } = (await created.json()) as { runId: string };
  await expect
    .poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { run: { status: string } }).run.status, { timeout: 60_000 })
    .toBe("ended");
  return runId;
}

test("open task: the judge scores each criterion, the reflection answers it, trial 2 passes; then grade trials in the agreement view", async ({ page }) => {
  const home = new HomePage(page);
  await home.open();
  await home.chooseEnvironment("open", "open-polite-refusal");
  await page.getByTestId("task-option-open-polite-refusal").click();
  await expect(page.getByText("LLM judge that scores each rubric criterion")).toBeVisible();
  await home.startRun({ taskId: "open-polite-refusal", strategy: "reflexion" });
  const run = new RunPage(page);
  await run.waitForStatus(/ended/i);

  // The graph: trial 1's evaluation fails with one bar per criterion and the label; trial 2 passes.
  const evaluation1 = run.evaluation(1, "fail");
  await expect(evaluation1.getByTestId("node-judge-scores")).toContainText("judge 0.71 < 0.80");
  await expect(evaluation1.getByTestId("node-judge-opinion")).toHaveText("a model's opinion, not an oracle");
  await expect(run.evaluation(2, "pass").getByTestId("node-judge-scores")).toBeVisible();
  await expect(run.node("reflection", 1)).toContainText("alternative at 0/5");

  // The inspector: per-criterion bars with weights and justifications, the threshold, the judge and its prompt.
  await run.open(evaluation1);
  const inspector = page.getByTestId("inspector");
  await expect(inspector.getByTestId("judge-opinion-label")).toHaveText("a model's opinion, not an oracle");
  await expect(inspector.getByTestId("judge-criterion")).toHaveCount(4);
  const alternative = inspector.locator('[data-testid="judge-criterion"][data-criterion="alternative"]');
  await expect(alternative).toHaveAttribute("data-score", "0");
  await expect(alternative.getByTestId("judge-justification")).toContainText('has none of "exchange"');
  await expect(alternative.getByRole("meter")).toHaveAttribute("aria-valuenow", "0");
  await expect(inspector.getByTestId("judge-weighted-score")).toHaveText("0.71");
  await expect(inspector.getByTestId("judge-threshold")).toHaveText("0.80");
  await expect(inspector.getByTestId("judge-model")).toContainText("scripted stand-in");
  await expect(inspector.getByText("Judge call (its prompt and answer)")).toBeVisible();
  await expect(inspector.getByText("You are grading an answer against a rubric.").first()).toBeVisible();
  await expect(inspector.getByTestId("oracle-badge")).toHaveCount(0);

  // The agreement view: 2 judged trials so far — the empty state says how many grades it needs.
  await page.getByTestId("nav-judge").click();
  await expect(page.getByTestId("agreement-empty")).toContainText("Grade 10 trials to see agreement.");
  const cards = page.getByTestId("grade-card");
  await expect(cards).toHaveCount(2);
  // Blind: the judge's verdict shows only after grading.
  const first = cards.first();
  await expect(first.getByTestId("grade-judge")).toHaveCount(0);
  await first.getByTestId("grade-fail").click();
  await expect(page.locator('[data-testid="grade-card"][data-graded="true"]')).toHaveCount(1);
  await expect(page.locator('[data-testid="grade-card"][data-graded="true"]').getByTestId("grade-judge")).toBeVisible();
  await expect(page.getByTestId("agreement-empty")).toContainText("1 graded so far, 9 more to go");

  // Four more runs (8 more judged trials), then grade every ungraded card: the agreement appears.
  for (const taskId of ["open-bug-report", "open-alt-text", "open-grease-fire", "open-summary-bridge"]) await endedRun(page.request, taskId);
  await page.reload();
  await expect(cards).toHaveCount(10);
  for (let graded = 1; graded < 10; graded += 1) {
    const next = page.locator('[data-testid="grade-card"][data-graded="false"]').first();
    await next.getByTestId("grade-pass").click();
    await expect(page.locator('[data-testid="grade-card"][data-graded="true"]')).toHaveCount(graded + 1);
  }
  const figures = page.getByTestId("agreement-figures");
  await expect(figures).toBeVisible();
  await expect(page.getByTestId("agreement-n")).toHaveText("10");
  // Passing every trial agrees with the judge on its 5 passes and disagrees on its 5 failures (one failure was graded fail above): 6/10.
  await expect(page.getByTestId("agreement-percent")).toHaveText("60%");
  await expect(page.getByTestId("agreement-kappa")).toContainText("0.20");
  await expect(page.getByTestId("agreement-confusion")).toBeVisible();
});
