import { expect, test } from "./fixtures";
import { ExperimentsPage } from "./pages/experiments-page";
import { HomePage } from "./pages/home-page";
import { RunPage } from "./pages/run-page";
import { TemplatesPage } from "./pages/templates-page";

/**
 * The template workbench: from the library, edit the built-in QA
 * Self-Reflection template (variables complete after `{`, an unknown one is
 * underlined) into a new template, save a version, diff it with the
 * built-in, preview it on a recorded trial with its token count, and start an
 * A/B experiment from it with the demo model on two built-in tasks — two
 * overlaid curves and the paired-test line with its sample size — then start
 * a run with the new version and see it named in the inspector. No run is
 * paused on the way. With DOCS_SCREENSHOTS=1 it writes the docs' two pictures.
 */

const screenshots = process.env.DOCS_SCREENSHOTS === "1";
const BUILT_IN_REFLECTOR = "qa/reflect";
const ADDED = "Name one concrete next step";

test("templates: edit the built-in reflector into a new template, save a version, diff with the built-in, preview, A/B with two curves", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1400, height: 900 });

  // A recorded run to preview on: a Reflexion run with the demo model (trial 1 fails and reflects).
  const home = new HomePage(page);
  await home.open();
  await home.chooseEnvironment("qa", "qa-builtin-01");
  const runId = await home.startRun({ taskId: "qa-builtin-01", strategy: "reflexion" });
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "ended", { timeout: 60_000 });

  // The library: the built-in is marked read-only with its source.
  const templates = new TemplatesPage(page);
  await templates.openLibraryFromHeader();
  const builtIn = templates.row(BUILT_IN_REFLECTOR);
  await expect(builtIn).toHaveAttribute("data-built-in", "true");
  await expect(builtIn.getByTestId("built-in-badge")).toBeVisible();
  await expect(builtIn.getByTestId("template-source")).toContainText("lib/environments/qa/prompts.ts");
  await templates.open(BUILT_IN_REFLECTOR);
  await expect(templates.workbench).toHaveAttribute("data-built-in", "true");
  // The preview of the built-in text on the run's trial 1 is exactly the Self-Reflection prompt the engine sent.
  await expect(page.getByTestId("preview-run")).toHaveValue(runId);
  await expect(page.getByTestId("preview-matches-recorded")).toBeVisible();

  // Edit with the keyboard: `{` offers the role's variables; a typo is underlined, then fixed.
  await templates.goToEnd();
  await templates.type(`\n${ADDED} (read {feed`);
  await expect(templates.suggestions.first()).toContainText("{feedback}");
  await page.keyboard.press("Enter");
  await expect(templates.editorLines).toContainText(`${ADDED} (read {feedback}`);
  await templates.type(") in {memroy}");
  await expect(templates.editor).toHaveAttribute("data-markers", "1");
  await expect(page.getByTestId("template-unknown-count")).toContainText("1 unknown placeholder");
  for (let i = 0; i < " in {memroy}".length; i++) await page.keyboard.press("Backspace");
  await templates.type(".");
  await expect(templates.editor).toHaveAttribute("data-markers", "0");
  await expect(templates.editor).toHaveAttribute("data-dirty", "true");

  // Built-in versions never change: the edit becomes a new template whose parent is the built-in.
  const templateId = await templates.saveAsNewTemplate("QA reflector: one concrete step", "Ask for one concrete next step");
  expect(templateId).not.toBe(BUILT_IN_REFLECTOR);

  // A second version of the new template.
  await templates.goToEnd();
  await templates.type(" Keep it to two sentences.");
  await templates.saveVersion("Shorter", 2);
  await templates.tab("history");
  await expect(page.getByTestId("version-row")).toHaveCount(2);

  // Diff with the built-in (the default left side): Monaco's diff editor shows the added text.
  await templates.tab("diff");
  const diff = page.getByTestId("template-diff");
  await expect(diff.getByTestId("diff-same")).toHaveAttribute("data-same", "false");
  await expect(diff.locator(".monaco-diff-editor")).toBeVisible();
  await expect(diff.locator(".editor.modified .view-lines")).toContainText(ADDED);
  await expect(diff.locator(".editor.original .view-lines")).not.toContainText(ADDED);
  await expect(diff.locator(".char-insert, .line-insert").first()).toBeAttached();

  // Live preview on the recorded run's trial 1: the Self-Reflection prompt with this text, and its token count.
  await templates.tab("preview");
  const preview = page.getByTestId("template-preview");
  await preview.getByTestId("preview-run").selectOption(runId);
  await expect(preview.getByTestId("preview-trial")).toHaveValue("1");
  await expect(preview.getByTestId("preview-tokens")).toHaveAttribute("data-tokens", /^[1-9]\d*$/);
  await expect(preview.getByTestId("preview-text")).toContainText(`${ADDED} (read`, { useInnerText: false });
  // The run used the built-in text, so this preview is not the recorded prompt.
  await expect(preview.getByTestId("preview-differs-recorded")).toBeVisible();
  if (screenshots) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.mouse.move(0, 0);
    await page.screenshot({ path: "docs/images/templates-editor.png", fullPage: true });
  }

  // A/B: A = the built-in, B = v2 of the new template, on two built-in tasks with the demo model.
  await templates.tab("ab");
  const form = page.getByTestId("ab-form");
  await expect(form.getByTestId("ab-other")).toHaveValue(/^tv-/);
  await expect(form.getByTestId("ab-other").locator("option:checked")).toContainText("Built-in");
  await form.getByTestId("ab-model").selectOption("demo");
  await form.getByRole("button", { name: "Clear" }).click();
  await form.getByTestId("ab-task-qa-builtin-01").check();
  await form.getByTestId("ab-task-qa-builtin-02").check();
  await form.getByTestId("ab-trials").fill("3");
  await expect(form.getByTestId("ab-start")).toHaveText("Start A/B: 4 runs");
  await form.getByTestId("ab-start").click();
  await page.waitForURL(/\/experiments\/[^/]+$/);

  const experiments = new ExperimentsPage(page);
  await expect(experiments.results).toBeVisible();
  await experiments.waitUntilFinished(4);
  await expect(experiments.curveLines).toHaveCount(2);
  const legend = page.getByTestId("curve-legend-item");
  await expect(legend).toHaveCount(2);
  await expect(legend.first()).toHaveAttribute("data-arm", /^A: /);
  await expect(legend.last()).toHaveAttribute("data-arm", /^B: QA reflector: one concrete step v2/);
  const pairedTest = page.getByTestId("ab-paired-test");
  await expect(pairedTest).toHaveAttribute("data-n", "2");
  await expect(pairedTest).toContainText(/n = 2 tasks, \d vs \d discordant/);
  await expect(pairedTest).toContainText(/p = /);
  await expect(page.locator('[data-testid="ab-arm"] [data-testid="ab-version-link"]')).toHaveCount(2);
  if (screenshots) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.mouse.move(0, 0);
    // The curves and the A/B read-out (the per-arm table and the grid below are in the experiments picture).
    await page.screenshot({ path: "docs/images/templates-ab.png", fullPage: true, clip: { x: 0, y: 0, width: 1400, height: 1400 } });
  }

  // Use anywhere: a run started with v2 as its Self-Reflection template names that version in the inspector.
  await home.open();
  await home.chooseEnvironment("qa", "qa-builtin-03");
  await page.getByTestId("template-version-reflector").selectOption({ label: "QA reflector: one concrete step — v2 (latest)" });
  const v2 = await page.getByTestId("template-version-reflector").inputValue();
  expect(v2).toMatch(/^tv-/);
  await home.startRun({ taskId: "qa-builtin-03", strategy: "reflexion" });
  const run = new RunPage(page);
  await expect(run.node("reflection", 1)).toBeVisible({ timeout: 60_000 });
  await run.open(run.node("reflection", 1));
  const line = page.getByTestId("inspector-template-version");
  await expect(line).toHaveAttribute("data-version-id", v2);
  await expect(line).toContainText("Self-Reflection template: QA reflector: one concrete step v2");
});
