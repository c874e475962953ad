import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";

/**
 * The paper's runs: import the authors' HotpotQA ReAct + Reflexion
 * log from the shared folder's list, open its experiment (badge, curve), import
 * the ReAct-only log and overlay the two (the paper's Fig. 4 curves rebuilt from
 * the raw logs: 32 → 51 vs 34 flat), see "Run these tasks yourself" prefilled,
 * and open a reflection that worked at its place in the run (read-only, badge).
 * With DOCS_SCREENSHOTS=1 it writes the docs' two pictures.
 */

const REFLEXION_LOG = "hotpotqa_runs/root/ReAct/reflexion/100_questions_5_trials.txt";
const REACT_LOG = "hotpotqa_runs/root/ReAct/base/100_questions_5_trials.txt";
const screenshots = process.env.DOCS_SCREENSHOTS === "1";
/** The shared data folder (read in place, never copied into the repo). */
const DATA_ROOT = process.env.REFLEXION_DATA_ROOT ?? path.resolve("../shared/data");

/**
 * Imports the list's row whose path ends with `suffix`; resolves with its experiment id (from the result's link).
 * The journeys share one database: when an earlier journey already imported the log (the lessons
 * journey's paper lesson imports the ReAct + Reflexion log on first use), the row offers "Open →"
 * instead, and its experiment is the one to check.
 */
async function importFromList(page: import("@playwright/test").Page, suffix: string, figures: string): Promise<string> {
  const row = page.locator(`[data-testid="importable-file"][data-path$="${suffix}"]`);
  await expect(row).toHaveCount(1);
  if ((await row.getAttribute("data-imported")) === "true") {
    const href = (await row.getByTestId("open-import").getAttribute("href")) ?? "";
    return decodeURIComponent(href.split("/").at(-1) ?? "");
  }
  await row.getByTestId("import-file").click();
  const result = page.getByTestId("import-result").filter({ hasText: figures });
  await expect(result).toBeVisible({ timeout: 60_000 });
  await expect(row.getByTestId("open-import")).toBeVisible();
  const href = (await result.getByTestId("import-open-experiment").getAttribute("href")) ?? "";
  return decodeURIComponent(href.split("/").at(-1) ?? "");
}

test("the paper's runs: import from the list, badge and curve, overlay of ReAct vs ReAct + Reflexion, a reflection that worked", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1400, height: 900 });

  // The list of the shared folder's logs, from the header.
  await page.goto("/");
  await page.getByTestId("nav-imports").click();
  await page.waitForURL(/\/imports$/);
  await expect(page.getByTestId("imports-data-root")).toBeVisible();
  await expect(page.locator('[data-testid="import-family"][data-family="qa"]')).toBeVisible();

  // A truncated upload is refused with its file and line, and nothing of it is imported.
  const log = fs.readFileSync(path.join(DATA_ROOT, "reflexion/noahshinn-reflexion", REACT_LOG));
  await page.getByTestId("import-upload").setInputFiles({ name: "100_questions_5_trials.txt", mimeType: "text/plain", buffer: log.subarray(0, 200_000) });
  await expect(page.getByTestId("import-upload-error")).toContainText(/100_questions_5_trials\.txt, line \d+: .*truncated/);
  await expect(page.getByTestId("import-upload-error")).toContainText("Nothing of this upload was imported");
  await expect(page.locator(`[data-testid="importable-file"][data-path$="${REACT_LOG}"]`)).toHaveAttribute("data-imported", "false");

  const reflexionId = await importFromList(page, REFLEXION_LOG, "32 → 42 → 48 → 50 → 51");

  // Its experiment: recorded by the authors, one curve ending at 51 %.
  await page.locator(`[data-testid="importable-file"][data-path$="${REFLEXION_LOG}"]`).getByTestId("open-import").click();
  await page.waitForURL(new RegExp(`/experiments/${reflexionId}$`));
  await expect(page.getByTestId("experiment-results")).toBeVisible();
  await expect(page.getByTestId("recorded-badge").first()).toContainText("Recorded by the authors, 2023");
  await expect(page.getByTestId("read-only-note")).toBeVisible();
  await expect(page.locator('[data-testid="success-curves"] path.recharts-line-curve')).toHaveCount(1);
  await expect(page.getByTestId("curve-legend-item")).toHaveAttribute("data-final-percent", "51");
  await expect(page.getByTestId("curve-legend-item")).toHaveAttribute("data-first-percent", "32");

  // Run these tasks yourself: the form starts with the same 100 questions.
  await page.getByTestId("run-these-tasks").click();
  await page.waitForURL(/\/experiments\/new\?from=/);
  await expect(page.getByTestId("experiment-prefilled")).toContainText("100 of its 100 tasks");
  await expect(page.getByTestId("arm-label").first()).toHaveValue(/^You: /);

  // The ReAct-only log, then both on one chart.
  await page.goto("/imports");
  const reactId = await importFromList(page, REACT_LOG, "34 → 34 → 34 → 34 → 34");
  await page.goto(`/experiments/${reflexionId}`);
  await page.getByTestId("compare-with").click();
  await page.waitForURL(/\/experiments\/overlay\?ids=/);
  await expect(page.getByTestId("overlay-member")).toHaveCount(1);
  // The picker is driven by the URL (the box turns checked once the navigation lands), so click and wait, not check().
  const pick = page.locator(`[data-testid="overlay-pick"][data-experiment-id="${reactId}"]`);
  await pick.click();
  await expect(pick).toBeChecked();
  await expect(page.getByTestId("overlay-member")).toHaveCount(2);
  await expect(page.locator('[data-testid="success-curves"] path.recharts-line-curve')).toHaveCount(2);
  const finals = await page.getByTestId("curve-legend-item").evaluateAll((items) => items.map((item) => item.getAttribute("data-final-percent")));
  expect(finals.sort()).toEqual(["34", "51"]);
  await expect(page.getByTestId("final-bar-item")).toHaveCount(2);
  if (screenshots) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.mouse.move(0, 0);
    await page.screenshot({ path: "docs/images/paper-overlay.png" });
  }

  // Reflections that worked, from this experiment: each opens the run at that reflection.
  await page.goto(`/experiments/${reflexionId}`);
  await page.getByTestId("experiment-reflections").click();
  await page.waitForURL(/\/reflections\?experimentId=/);
  await page.getByTestId("reflections-filter-helped").click();
  await expect(page).toHaveURL(/helped=true/);
  const items = page.getByTestId("reflection-item");
  await expect(items.first()).toBeVisible();
  expect(await items.evaluateAll((all) => all.every((item) => item.getAttribute("data-verdict") === "helped"))).toBe(true);
  // The curve rises from 32 to 51: at least 19 failures turned into successes after a reflection.
  const helped = Number((await page.getByTestId("reflections-filter-helped").textContent())?.match(/\((\d+)\)/)?.[1]);
  expect(helped).toBeGreaterThanOrEqual(19);
  const first = items.first();
  await expect(first.getByTestId("reflection-failed-trial")).toHaveAttribute("data-outcome", /failure|halted/);
  await expect(first.getByTestId("reflection-next-trial")).toHaveAttribute("data-outcome", "success");
  if (screenshots) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.mouse.move(0, 0);
    await page.screenshot({ path: "docs/images/reflection-that-worked.png" });
  }
  const reflectionText = (await first.getByTestId("reflection-text").textContent())?.trim() ?? "";
  await first.getByTestId("open-reflection").click();
  await page.waitForURL(/\/runs\/[^?]+\?node=/);
  await expect(page.getByTestId("run-workspace")).toBeVisible();
  await expect(page.getByTestId("recorded-badge")).toBeVisible();
  await expect(page.getByTestId("read-only-note")).toBeVisible();
  await expect(page.getByTestId("pause-run")).toHaveCount(0);
  const inspector = page.getByTestId("inspector");
  await expect(inspector).toHaveAttribute("data-kind", "reflection");
  await expect(inspector).toContainText(reflectionText.slice(0, 40));
});
