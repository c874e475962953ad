import { expect, test } from "./fixtures";
import { HomePage } from "./pages/home-page";
import { RunPage } from "./pages/run-page";

const EDITED = "EDITED IN THE FORK: answer with the name of the founder, not the ship.";

test("pause after the reflection, fork it with another lesson, and compare both branches' trial 2", async ({ page }) => {
  const home = new HomePage(page);
  await home.open();
  await home.startRun({ taskId: "qa-builtin-02", strategy: "reflexion", pauseAfterReflection: true });
  const run = new RunPage(page);

  // Root branch: trial 1 fails, the reflection is written, the breakpoint stops the run.
  await expect(run.node("reflection", 1)).toBeVisible();
  await run.waitForStatus(/paused/i);
  await expect(page.getByTestId("paused-reason")).toHaveAttribute("data-reason", "breakpoint");
  await expect(page.getByTestId("pause-detail")).toContainText("after the reflection on trial 1");
  const rootId = await run.currentBranchId();
  expect(rootId).not.toBe("");
  await expect(page.getByTestId("branch-tree").getByTestId("branch-tree-item")).toHaveCount(1);

  // Fork at the checkpoint after trial 1's reflection, with the lesson replaced (recorded replay).
  await run.open(run.node("reflection", 1));
  await page.getByTestId("fork-here").click();
  const dialog = page.getByTestId("fork-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("fork-replay-recorded")).toBeChecked();
  await expect(dialog.getByTestId("fork-reflection-text")).toHaveValue(/exact title Port Averly/);
  await expect(dialog.getByTestId("fork-edit-state")).toHaveAttribute("data-edited", "false");
  await dialog.getByTestId("fork-reflection-text").fill(EDITED);
  await expect(dialog.getByTestId("fork-edit-state")).toHaveAttribute("data-edited", "true");
  await dialog.getByTestId("fork-submit").click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\?branch=/);
  const forkId = new URL(page.url()).searchParams.get("branch") ?? "";
  expect(forkId).not.toBe(rootId);
  await expect(page.getByTestId("run-workspace")).toHaveAttribute("data-branch-id", forkId);
  await expect(page.getByTestId("branch-switcher")).toHaveValue(forkId);
  await expect(page.getByTestId("branch-origin")).toContainText("recorded");

  // The fork sees the edited lesson: the scripted Actor fails trial 2 there.
  await expect(run.node("reflection", 1).getByTestId("edited-badge")).toBeVisible();
  await expect(run.evaluation(2, "fail")).toBeVisible();
  const forkPrompt = await run.promptOf(run.node("thought", 2).first());
  expect(forkPrompt).toContain(EDITED);
  await expect(page.locator('[data-testid="prompt-reflection-highlight"]').filter({ hasText: EDITED })).toHaveCount(1);
  await expect(page.getByTestId("missing-memory-warning")).toHaveCount(0);
  // It inherited the breakpoint and stops after trial 2's reflection: turn it off and let the branch finish.
  await run.waitForStatus(/paused/i);
  await run.setBreakpoint("bp-after-reflection", false);
  await page.getByTestId("resume-run").click();
  await run.waitForStatus(/ended/i);
  await expect(run.evaluation(3, "pass")).toBeVisible();

  // The tree shows the fork under the root, with its fork point and its own calls.
  const forkRow = page.locator(`[data-testid="branch-tree-item"][data-branch-id="${forkId}"]`);
  await expect(forkRow).toHaveAttribute("data-depth", "1");
  await expect(forkRow).toHaveAttribute("data-current", "true");
  await expect(forkRow.getByTestId("branch-tree-fork-seq")).toHaveText(/^\d+$/);
  await expect(forkRow).toContainText("edit");
  await expect(forkRow.getByTestId("branch-tree-status")).toHaveText(/ended · success/);

  // Back to the root: it is still paused after trial 1's reflection, untouched by the fork.
  await run.switchToBranch(rootId);
  await expect(page).not.toHaveURL(/\?branch=/);
  await run.waitForStatus(/paused/i);
  await expect(run.node("trial", 2)).toHaveCount(0);
  await expect(run.node("reflection", 1).getByTestId("edited-badge")).toHaveCount(0);
  await page.getByTestId("resume-run").click();
  await run.waitForStatus(/ended/i);
  await expect(run.evaluation(2, "pass")).toBeVisible();

  // Each branch shows its own trial 2 verdict.
  await run.switchToBranch(forkId);
  await expect(run.evaluation(2, "fail")).toBeVisible();
  await expect(run.evaluation(2, "pass")).toHaveCount(0);
  await run.switchToBranch(rootId);
  await expect(run.evaluation(2, "pass")).toBeVisible();
  await expect(run.evaluation(2, "fail")).toHaveCount(0);

  // A plain recorded replay of the root from the same checkpoint: trial 2 comes from the cache.
  const replayId = await run.forkFrom(run.node("reflection", 1), { replay: "recorded" });
  await expect(run.evaluation(2, "pass")).toBeVisible();
  await run.waitForStatus(/ended/i);
  await expect(run.node("thought", 2).first().getByTestId("cache-marker")).toBeVisible();
  await expect(run.node("action", 2).last()).toHaveAttribute("data-source", "cache");
  await expect(run.node("thought", 1).first().getByTestId("cache-marker")).toHaveCount(0);
  await run.open(run.node("action", 2).first());
  await expect(page.getByTestId("inspector-source")).toHaveAttribute("data-source", "cache");
  const replayRow = page.locator(`[data-testid="branch-tree-item"][data-branch-id="${replayId}"]`);
  await expect(replayRow).toContainText("replay");
  await expect(replayRow.getByTestId("branch-tree-calls")).toContainText(/^0 live \/ [1-9]\d* cached$/);

  // The URL keeps the branch across a reload.
  await run.switchToBranch(forkId);
  await page.reload();
  await expect(page.getByTestId("run-workspace")).toHaveAttribute("data-branch-id", forkId);
  await expect(run.evaluation(2, "fail")).toBeVisible();
  await expect(page.getByTestId("branch-tree").getByTestId("branch-tree-item")).toHaveCount(3);
  await page.screenshot({ path: "test-results/steer-and-fork-branches.png", fullPage: false });
});

test("steer a paused run: breakpoints, Step, the Actor's next action, memory order and Cancel", async ({ page }) => {
  const home = new HomePage(page);
  await home.open();
  await home.startRun({ taskId: "qa-builtin-02", strategy: "reflexion", pauseAfterReflection: true });
  const run = new RunPage(page);

  await expect(run.node("reflection", 1)).toBeVisible();
  await run.waitForStatus(/paused/i);

  // Step: one action — trial 2 starts and its first Actor step runs — then paused again with reason "step".
  await page.getByTestId("step-run").click();
  await expect(run.node("trial", 2)).toBeVisible();
  await expect(page.locator('[data-testid="node-action"][data-trial="2"][data-step="1"]')).toBeVisible();
  await run.waitForStatus(/paused/i);
  await expect(page.getByTestId("paused-reason")).toHaveAttribute("data-reason", "step");
  await expect(page.getByTestId("paused-banner")).toContainText("Paused after one step.");

  // A breakpoint before every Actor call, set from the popover.
  await run.setBreakpoint("bp-before-actor", true);
  await page.getByTestId("breakpoints-toggle").click();
  for (const id of ["bp-after-reflection", "bp-after-observation", "bp-after-evaluation", "bp-before-actor", "bp-before-reflector"]) {
    await expect(page.getByTestId("breakpoints-panel").getByTestId(id)).toBeVisible();
  }
  await expect(page.getByTestId("bp-before-actor")).toBeChecked();
  await expect(page.getByTestId("bp-after-reflection")).toBeChecked();
  await page.keyboard.press("Escape");

  // Write the Actor's next action: the step makes no model call.
  await page.getByTestId("side-tab-steer").click();
  await expect(page.getByTestId("steer-panel")).toBeVisible();
  await page.getByTestId("inject-action").fill("Search[Port Averly]");
  await page.getByTestId("inject-action-submit").click();
  await expect(page.getByTestId("pending-action")).toContainText("Search[Port Averly]");
  await expect(page.getByTestId("pending-action-banner")).toContainText("Search[Port Averly]");
  await expect(page.getByTestId("model-settings-actor")).toBeVisible();
  await expect(page.getByTestId("prompt-editor-actor")).toBeVisible();
  await expect(page.getByTestId("prompt-editor-reflector")).toBeVisible();

  await page.getByTestId("step-run").click();
  await expect(page.locator('[data-testid="node-action"][data-trial="2"][data-step="2"]')).toBeVisible();
  await run.waitForStatus(/paused/i);
  await expect(page.getByTestId("pending-action")).toHaveCount(0);
  await run.open(page.locator('[data-testid="node-action"][data-trial="2"][data-step="2"]'));
  await expect(page.getByTestId("inspector-no-call")).toBeVisible();

  // The Actor breakpoint stops before the next call; the banner says which one.
  await page.getByTestId("resume-run").click();
  await run.waitForStatus(/paused/i);
  await expect(page.getByTestId("paused-reason")).toHaveAttribute("data-reason", "breakpoint");
  await expect(page.getByTestId("pause-detail")).toContainText("before the Actor call for trial 2");

  // Model settings of the Actor: a new temperature, recorded as an edit.
  await page.getByTestId("temperature-actor").fill("0.3");
  await page.getByTestId("model-save-actor").click();
  await expect(page.getByTestId("temperature-actor")).toHaveValue("0.3");
  await expect(page.getByTestId("model-save-actor")).toBeDisabled();

  // Memory editor: add a hand-written entry, move it up, save; then Clear is available.
  await page.getByTestId("side-tab-memory").click();
  await page.getByTestId("memory-editor-toggle").click();
  await page.getByTestId("memory-add").click();
  await page.getByTestId("memory-item-editor").last().fill("Hand-written: the answer is a ship's name.");
  await page.getByTestId("memory-move-up").last().click();
  await expect(page.getByTestId("memory-item-editor").first()).toHaveValue("Hand-written: the answer is a ship's name.");
  await page.getByTestId("save-memory").click();
  await expect(page.locator('[data-testid="memory-all"] [data-testid="memory-item"]').first()).toContainText("Hand-written");
  await expect(page.getByTestId("memory-clear")).toBeEnabled();

  // Cancel asks first, then ends the run as cancelled.
  await page.getByTestId("cancel-run").click();
  await expect(page.getByTestId("cancel-confirm")).toBeVisible();
  await page.getByTestId("cancel-run-dismiss").click();
  await expect(page.getByTestId("cancel-confirm")).toBeHidden();
  await run.waitForStatus(/paused/i);
  await page.getByTestId("cancel-run").click();
  await page.getByTestId("cancel-run-confirm").click();
  await run.waitForStatus(/ended/i);
  await expect(page.getByTestId("ended-banner")).toContainText("cancelled");
});

test("a prompt template without {memory}: the inspector shows the reflections never reached the Actor", async ({ page }) => {
  const home = new HomePage(page);
  await home.open();
  await home.startRun({ taskId: "qa-builtin-02", strategy: "reflexion", pauseAfterReflection: true });
  const run = new RunPage(page);
  await expect(run.node("reflection", 1)).toBeVisible();
  await run.waitForStatus(/paused/i);

  // Replace the Actor template (Monaco) with one that drops {memory} and {examples}.
  await page.getByTestId("side-tab-steer").click();
  const editor = page.getByTestId("prompt-editor-actor");
  await expect(editor.locator(".monaco-editor")).toBeVisible();
  await editor.locator(".monaco-editor .view-lines").click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("Answer the question with Thought, Action and Observation steps.\nQuestion: {question}{scratchpad}");
  await expect(editor).toHaveAttribute("data-dirty", "true");
  await expect(page.getByTestId("prompt-placeholder-warning-actor")).toContainText("{memory}");
  await page.getByTestId("prompt-save-actor").click();
  await expect(page.getByTestId("prompt-template-actor")).toContainText("v2");
  await run.setBreakpoint("bp-after-reflection", false);
  await page.getByTestId("resume-run").click();

  // Trial 2 started with the reflection in context, but its Actor prompt does not carry it.
  await expect(run.node("thought", 2).first()).toBeVisible();
  await expect(run.node("trial", 2)).toHaveAttribute("data-memory-missing", "true");
  await expect(run.node("trial", 2).getByTestId("memory-missing-badge")).toBeVisible();
  const prompt = await run.promptOf(run.node("thought", 2).first());
  expect(prompt).toContain("Answer the question with Thought, Action and Observation steps.");
  await expect(page.getByTestId("missing-memory-warning")).toContainText("1 reflection in context");
  await expect(page.getByTestId("prompt-memory-item")).toHaveAttribute("data-found", "false");
  await expect(page.getByTestId("prompt-reflection-highlight")).toHaveCount(0);
  // The scripted Actor, blind to its lesson, fails trial 2 again.
  await expect(run.evaluation(2, "fail")).toBeVisible();
  // Trial 1's prompt (no memory expected) carries no warning.
  await run.promptOf(run.node("thought", 1).first());
  await expect(page.getByTestId("missing-memory-warning")).toHaveCount(0);
});
