import { expect, test } from "./fixtures";
import { ExperimentsPage } from "./pages/experiments-page";

const BUILTIN_QA_TASKS = 12;

test("experiment with 3 repeats: the curves have bands, identical arms show no difference and none vs reflexion differs; exports carry the intervals", async ({ page }) => {
  test.setTimeout(300_000);
  const experiments = new ExperimentsPage(page);
  await experiments.openListFromHeader();
  await experiments.startFromForm({
    environment: "qa",
    arms: ["none", "reflexion", "reflexion"],
    labels: ["none", "reflexion", "reflexion-2"],
    model: "demo",
    trials: 4,
    repeats: 3,
  });
  const total = BUILTIN_QA_TASKS * 3 * 3;
  await expect(experiments.progressBar).toHaveAttribute("aria-valuemax", String(total));
  await expect(page.getByTestId("experiment-repeats-text")).toHaveText("× 3 repetitions");
  await expect(page.getByTestId("experiment-dataset-hash")).toContainText(/tasks pinned [0-9a-f]{12}/);
  await experiments.waitUntilFinished(total, 240_000);

  // Labelled honestly: the demo model varies by repetition because it is seeded, and says so.
  await expect(page.getByTestId("demo-variation-note")).toContainText("seeded per repetition");

  // Bands: one shaded area per arm, named under the chart as bootstrap intervals.
  await expect(experiments.curveLines).toHaveCount(3);
  await expect(page.locator('[data-testid="success-curves"] .curve-band path.recharts-area-area')).toHaveCount(3);
  await expect(page.getByTestId("curve-band-note")).toHaveAttribute("data-method", "bootstrap");
  await expect(page.getByTestId("curve-band-note")).toContainText("bootstrap over tasks and repetitions (3 per task");
  await expect(page.locator('[data-testid="arm-result"][data-arm="reflexion"] [data-testid="rate-ci"]')).toHaveCount(2);

  // Paired tests: the two identical arms do not differ (p = 1); none vs reflexion differs on final success.
  const row = (a: string, b: string, metric: string) => page.locator(`[data-testid="paired-test-row"][data-a="${a}"][data-b="${b}"][data-metric="${metric}"]`);
  for (const metric of ["final-success", "auc", "cost"]) {
    await expect(row("reflexion", "reflexion-2", metric)).toHaveAttribute("data-verdict", "no difference");
    await expect(row("reflexion", "reflexion-2", metric)).toHaveAttribute("data-p", "1");
  }
  await expect(row("none", "reflexion", "final-success")).toHaveAttribute("data-verdict", "differs");
  await expect(row("none", "reflexion", "final-success")).toContainText("exact McNemar");
  await expect(row("none", "reflexion", "final-success")).toContainText("p < 0.001");
  await expect(row("none", "reflexion", "auc")).toHaveAttribute("data-verdict", "differs");
  await expect(page.getByTestId("paired-tests")).not.toContainText("p = <");

  // Cost-effectiveness: one point per arm (the demo model has no price: tokens per run).
  await expect(page.getByTestId("cost-effectiveness")).toHaveAttribute("data-unit", "tokens");
  await expect(page.getByTestId("cost-point")).toHaveCount(3);

  // The exports carry the same statistics.
  const md = await experiments.download("md");
  expect(md.name).toMatch(/\.md$/);
  expect(md.text).toContain("bootstrap intervals over tasks and, within each, repetitions");
  expect(md.text).toMatch(/\| reflexion \| reflexion-2 \| final success \| exact McNemar \| 36 \(discordant 0 vs 0\) \| .* \| 1 \| no difference \|/);
  const svg = await experiments.download("svg");
  expect(svg.name).toMatch(/-curve\.svg$/);
  expect(svg.text.match(/<polygon class="band"/g)).toHaveLength(3);
  const tex = await experiments.download("latex");
  expect(tex.text).toContain("\\begin{tabular}");

  if (process.env.DOCS_SCREENSHOTS === "1") {
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.getByTestId("success-curves").scrollIntoViewIfNeeded();
    await page.screenshot({ path: "docs/screenshot-experiment-bands.png", fullPage: true });
  }
});

test("the paper's ALFWorld Reflexion run: Wilson bands on the logged curve and the paper's reported 130/134 by trial 12 circled", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto("/imports");
  const row = page.locator('[data-testid="importable-file"][data-path$="alfworld_runs/root/reflexion_run_logs"]');
  await expect(row).toHaveCount(1);
  if ((await row.getAttribute("data-imported")) !== "true") {
    await row.getByTestId("import-file").click();
    await expect(row.getByTestId("open-import")).toBeVisible({ timeout: 120_000 });
  }
  await row.getByTestId("open-import").click();
  await page.waitForURL(/\/experiments\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("curve-band-note")).toHaveAttribute("data-method", "wilson");
  await expect(page.locator('[data-testid="success-curves"] .curve-band path.recharts-area-area')).toHaveCount(1);
  await expect(page.getByTestId("reported-note")).toContainText("paper's reported stopping point (130/134 by trial 12)");
  await expect(page.locator('[data-testid="success-curves"] .paper-reported-point')).toHaveCount(1);
});
