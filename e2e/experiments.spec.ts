import { expect, test } from "./fixtures";
import { ExperimentsPage } from "./pages/experiments-page";

/** The CSV export's header row (lib/server/experiment-export.ts): one row per task × arm × repetition × trial, carried forward. */
const CSV_HEADER =
  "task_id,arm,repetition,strategy,model,trial,solved_so_far,carried_forward,outcome,trial_outcome,halt_reason,internal_verdict,hidden_verdict,false_positive,score,f1,steps,cached,model_calls,cached_calls,tokens_in,tokens_out,cost_usd,latency_ms,actor_template,actor_template_version_id,reflector_template,reflector_template_version_id,actor_temperature,reflector_temperature,seed,memory_window,dataset_hash,run_id";
const BUILTIN_QA_TASKS = 12;

test("experiment: built-in QA × {none, reflexion} with the demo model — progress, curves, side-by-side compare, CSV export", async ({ page }) => {
  test.setTimeout(180_000);
  const experiments = new ExperimentsPage(page);
  // Not an A/B template comparison: its page never asks for the A/B read-out (which would answer 404).
  const abRequests: string[] = [];
  page.on("request", (request) => {
    if (/\/api\/experiments\/[^/]+\/ab(\?|$)/.test(new URL(request.url()).pathname)) abRequests.push(request.url());
  });
  await experiments.openListFromHeader();
  await experiments.startFromForm({ environment: "qa", arms: ["none", "reflexion"], model: "demo", trials: 5 });
  const total = BUILTIN_QA_TASKS * 2;

  // The progress bar counts the runs while they go, then reaches all of them.
  await expect(experiments.progressBar).toHaveAttribute("aria-valuemax", String(total));
  await expect(page.getByTestId("experiment-progress-text")).toContainText(new RegExp(`^\\d+/${total} runs · `));
  await experiments.waitUntilFinished(total);
  expect(abRequests).toEqual([]);

  // Labelled honestly: the demo model is a scripted stand-in, EM is an oracle signal.
  await expect(page.getByTestId("experiment-demo-notice")).toContainText("scripted stand-in");
  await expect(page.getByTestId("experiment-oracle-badge").first()).toBeVisible();
  await expect(page.getByTestId("shared-prefix-note")).toContainText("trial 1 of one arm is served from the response cache to the others when their prompts are identical");

  // Two curves; reflexion ends above none (in the data and on the drawn chart).
  await expect(experiments.curveLines).toHaveCount(2);
  const noneFinal = await experiments.finalPercent("none");
  const reflexionFinal = await experiments.finalPercent("reflexion");
  expect(reflexionFinal).toBeGreaterThan(noneFinal);
  expect(await experiments.lastDotY("reflexion")).toBeLessThan(await experiments.lastDotY("none"));
  // Trial 1 is shared: reflexion's trial-1 calls (or none's) come from the cache.
  const calls = await page.getByTestId("arm-calls").allTextContents();
  expect(calls.some((text) => /[1-9]\d* cached/.test(text))).toBe(true);

  // The grid: one row per task; "differs" keeps the tasks reflexion solved and none did not.
  await expect(page.getByTestId("task-grid-table")).toHaveAttribute("data-rows", String(BUILTIN_QA_TASKS));
  await expect(experiments.taskRow("qa-builtin-01").locator('[data-testid="grid-cell"][data-arm="reflexion"]')).toHaveText(/✓ t\d/);
  await page.getByTestId("grid-filter-b-not-a").click();
  await expect(page.getByTestId("task-grid-table")).toHaveAttribute("data-rows", String(Math.round((reflexionFinal - noneFinal) * BUILTIN_QA_TASKS / 100)));
  await page.getByTestId("grid-filter-all").click();

  // "ReAct vs Reflexion on this task": trial lanes aligned, the first divergence marked.
  const resultsUrl = page.url();
  await experiments.openCompare("qa-builtin-01", 2);
  await expect(page.getByTestId("divergence-summary")).toContainText("First divergence: trial 2");
  await expect(page.getByTestId("divergence-marker").first()).toBeVisible();
  await expect(page.locator('[data-testid="trial-row"][data-trial="1"] [data-testid="lane"]')).toHaveCount(2);
  // The Reflexion run's history: its reflection entered the memory of trial 2.
  await expect(page.locator('[data-testid="memory-diff"][data-trial="2"] [data-testid="memory-entered"]')).toBeVisible();
  await expect(page.getByTestId("trial-diff").first()).toBeVisible();

  // CSV export: a download whose first line is the header row.
  await page.goto(resultsUrl);
  await experiments.waitUntilFinished(total);
  const csv = await experiments.download("csv");
  expect(csv.name).toMatch(/\.csv$/);
  const lines = csv.text.trim().split(/\r?\n/);
  expect(lines[0]).toBe(CSV_HEADER);
  // Long format: every run has a row for each of the 5 trials (played or carried forward).
  expect(lines.length).toBe(total * 5 + 1);

  if (process.env.DOCS_SCREENSHOTS === "1") {
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.mouse.move(0, 0);
    await page.screenshot({ path: "docs/screenshot-experiment.png" });
  }
});
