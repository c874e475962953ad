import { expect, test } from "./fixtures";
import { HomePage } from "./pages/home-page";
import { RunPage } from "./pages/run-page";

/**
 * The code family (the paper's programming Reflexion) with the offline demo
 * model: the agent's own (internal) tests drive the loop, the hidden tests are
 * run for reporting only and never reach the Actor.
 */

test("code: run_length_encode fails its internal and hidden tests, reflects on the empty string, then passes both", async ({ page }) => {
  const home = new HomePage(page);
  await home.open();
  await home.chooseEnvironment("code", "code-py-01");
  await home.startRun({ taskId: "code-py-01", strategy: "reflexion" });
  const run = new RunPage(page);
  const inspector = page.getByTestId("inspector");

  // Trial 1: tests written, a naive implementation; both verdicts fail on the graph's evaluation node.
  await expect(run.codeAction(1, "WriteTests")).toBeVisible();
  await expect(run.codeAction(1, "Implement")).toBeVisible();
  const evaluation1 = run.evaluation(1, "fail");
  await expect(evaluation1).toBeVisible();
  await expect(evaluation1.getByTestId("verdict-internal")).toHaveAttribute("data-verdict", "fail");
  await expect(evaluation1.getByTestId("verdict-internal")).toContainText("(2/3)");
  await expect(evaluation1.getByTestId("verdict-hidden")).toHaveAttribute("data-verdict", "fail");
  await expect(evaluation1.getByTestId("verdict-hidden")).toContainText("(6/7)");
  await expect(evaluation1.getByTestId("false-positive-flag")).toHaveCount(0);
  await expect(run.node("reflection", 1)).toBeVisible();
  await expect(run.node("reflection", 1)).toContainText(/empty string/i);

  // Trial 2: one Implement step, internal and hidden tests pass; the run ends solved.
  const evaluation2 = run.evaluation(2, "pass");
  await expect(evaluation2).toBeVisible();
  await expect(evaluation2.getByTestId("verdict-internal")).toHaveAttribute("data-verdict", "pass");
  await expect(evaluation2.getByTestId("verdict-internal")).toContainText("(3/3)");
  await expect(evaluation2.getByTestId("verdict-hidden")).toHaveAttribute("data-verdict", "pass");
  await run.waitForStatus(/ended/i);
  await expect(page.getByTestId("ended-banner")).toHaveText("Solved in trial 2.");
  await expect(page.getByTestId("branch-switcher").locator("option:checked")).toContainText("ended · success");
  await expect(run.codeAction(2, "WriteTests")).toHaveCount(0); // tests are written once, in trial 1
  await expect(page.locator('[data-testid="node-thought"]')).toHaveCount(0); // code steps have no thoughts

  // Trial 1's Implement node: the program in a read-only Monaco editor.
  await run.open(run.codeAction(1, "Implement"));
  await expect(inspector).toHaveAttribute("data-kind", "action");
  const codeView = inspector.getByTestId("code-view");
  await expect(codeView).toHaveCount(1);
  await expect(codeView).toHaveAttribute("data-language", "python");
  await expect(inspector.getByTestId("code-view-text")).toContainText("current, count = text[0], 1");
  await expect(inspector.getByTestId("code-view-text")).not.toContainText("if not text");
  const lines = codeView.locator(".monaco-editor .view-lines");
  await expect(lines).toContainText(/def\s+run_length_encode/);
  await lines.click();
  await expect(codeView.locator(".monaco-editor.focused")).toBeVisible();
  await page.keyboard.type("XYZZY");
  await expect(codeView.locator(".monaco-editor-overlaymessage")).toContainText("Cannot edit in read-only editor");
  await expect(lines).not.toContainText("XYZZY"); // read-only: typing changes nothing

  // Trial 1's evaluation: the internal tests' table (one test not passing) and the hidden tests' table (reporting only).
  await run.open(evaluation1);
  await expect(inspector).toHaveAttribute("data-kind", "evaluation");
  await expect(inspector.getByTestId("verdict-internal")).toHaveAttribute("data-verdict", "fail");
  await expect(inspector.getByTestId("verdict-hidden")).toHaveAttribute("data-verdict", "fail");
  const internalTable = inspector.locator('[data-testid="test-table"][data-kind="internal"]');
  await expect(internalTable).toHaveAttribute("data-total", "3");
  await expect(internalTable).toHaveAttribute("data-passed", "2");
  await expect(internalTable.locator('[data-testid="test-row"][data-status="pass"]')).toHaveCount(2);
  const notPassing = internalTable.locator('[data-testid="test-row"]:not([data-status="pass"])');
  await expect(notPassing).toHaveCount(1);
  await expect(notPassing).toContainText('run_length_encode("")');
  await expect(notPassing).toHaveAttribute("data-status", "error"); // IndexError: an error, not a failed assert
  await expect(notPassing).toContainText("IndexError");
  const hiddenTable = inspector.locator('[data-testid="test-table"][data-kind="hidden"]');
  await expect(hiddenTable).toBeVisible();
  await expect(hiddenTable).toHaveAttribute("data-total", "7");
  await expect(hiddenTable).toHaveAttribute("data-passed", "6");
  await expect(hiddenTable.locator('[data-testid="test-row"]:not([data-status="pass"])')).toContainText('candidate("")');
  await expect(hiddenTable.locator("xpath=ancestor::section[1]").getByRole("heading").first()).toHaveText(/^Hidden tests — reporting only/);
  await expect(inspector.getByTestId("false-positive-flag")).toHaveCount(0);

  // The reflection's exact text, then trial 2's Actor prompt: it carries the reflection and
  // the previous implementation, but never the hidden tests.
  await run.open(run.node("reflection", 1));
  await expect(inspector).toHaveAttribute("data-kind", "reflection");
  const reflection = (await inspector.getByTestId("inspector-text").textContent())?.trim() ?? "";
  expect(reflection).toMatch(/empty string/i);
  const prompt = await run.promptOf(run.codeAction(2, "Implement"));
  expect(prompt).toContain(reflection);
  expect(prompt).toContain("[previous impl]:");
  expect(prompt).toContain("current, count = text[0], 1"); // trial 1's program
  expect(prompt).not.toContain("def check(candidate)");
  expect(prompt).not.toContain("candidate(");
  expect(prompt).not.toContain('"zzzzzzzzzzzz"'); // a hidden-only test input
  await expect(inspector.getByTestId("prompt-memory-item").first()).toHaveAttribute("data-found", "true");
});

test("code: isPalindrome passes its own tests but fails the hidden ones — a false positive, the run ends failed", async ({ page }) => {
  const home = new HomePage(page);
  await home.open();
  await home.chooseEnvironment("code", "code-ts-03");
  await home.startRun({ taskId: "code-ts-03", strategy: "reflexion" });
  const run = new RunPage(page);

  const evaluation = run.evaluation(1, "pass");
  await expect(evaluation).toBeVisible();
  await expect(evaluation).toHaveAttribute("data-false-positive", "true");
  await expect(evaluation.getByTestId("verdict-internal")).toHaveAttribute("data-verdict", "pass");
  await expect(evaluation.getByTestId("verdict-hidden")).toHaveAttribute("data-verdict", "fail");
  await expect(evaluation.getByTestId("false-positive-flag")).toBeVisible();
  await run.waitForStatus(/ended/i);
  await expect(page.getByTestId("ended-banner")).toHaveText("Not solved within 1 trial.");
  await expect(page.getByTestId("branch-switcher").locator("option:checked")).toContainText("ended · failure");
  // The trial itself ended "success" as the agent saw it (decision 0010); the run's outcome follows the hidden tests.
  await expect(page.locator('[data-testid="trial-chip"][data-trial="1"]')).toHaveAttribute("data-outcome", "success");
  await expect(page.getByTestId("trial-chip-code")).toHaveAttribute("data-false-positive", "true");
  // The internal verdict passed, so the loop stopped: no reflection, no second trial.
  await expect(run.node("reflection", 1)).toHaveCount(0);
  await expect(run.node("trial", 2)).toHaveCount(0);

  await run.open(evaluation);
  const inspector = page.getByTestId("inspector");
  await expect(inspector.getByTestId("false-positive-flag")).toBeVisible();
  await expect(inspector.getByTestId("verdict-hidden")).toHaveAttribute("data-verdict", "fail");
  await expect(inspector.locator('[data-testid="test-table"][data-kind="internal"] [data-testid="test-row"]:not([data-status="pass"])')).toHaveCount(0);
});

test("code: pause after the reflection, remove its lesson, resume — trial 2 fails again and the page shows the new pause at once", async ({ page }) => {
  const home = new HomePage(page);
  await home.open();
  await home.chooseEnvironment("code", "code-py-05");
  await home.startRun({ taskId: "code-py-05", strategy: "reflexion", pauseAfterReflection: true });
  const run = new RunPage(page);

  await expect(run.node("reflection", 1)).toBeVisible();
  await run.waitForStatus(/paused/i);
  await run.editNewestReflection("I failed.");
  await page.getByTestId("resume-run").click();

  // Trial 2 runs in well under a second and pauses after its own reflection; the header must follow
  // (a stale "running" from the resume response once stuck there until a reload).
  await expect(run.evaluation(2, "fail")).toBeVisible();
  await expect(run.node("reflection", 2)).toBeVisible();
  await run.waitForStatus(/paused/i);
  await expect(page.getByTestId("paused-banner")).toBeVisible();
  await expect(page.getByTestId("resume-run")).toBeEnabled();
  const prompt = await run.promptOf(run.codeAction(2, "Implement"));
  expect(prompt).toContain("[reflection on previous impl]:\nI failed.");
});
