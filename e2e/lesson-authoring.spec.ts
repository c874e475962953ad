import fs from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures";

/**
 * Lesson authoring in the app (docs/guides/teaching.md, "Writing a lesson in the app"): from a
 * finished demo run's Share menu, write a three-step lesson with a prediction whose answer the log
 * gives, reorder its steps with the buttons and the keyboard, preview it as a student, save it; it is
 * on /lessons and plays; its Export is a file the import accepts (renamed when its id is taken).
 */

async function finishedDemoRun(page: Page): Promise<string> {
  const response = await page.request.post("/api/runs", { data: { environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo" } });
  expect(response.status()).toBe(201);
  const { runId } = (await response.json()) as { runId: string };
  await expect.poll(async () => ((await (await page.request.get(`/api/runs/${runId}`)).json()) as { run: { status: string } }).run.status, { timeout: 30_000 }).toBe("ended");
  return runId;
}

const steps = (page: Page): Locator => page.getByTestId("authoring-step");

test("author a 3-step lesson over a finished run: a derived prediction, reorder, preview, save, play, export and import", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const runId = await finishedDemoRun(page);
  const id = `class-lesson-${Date.now().toString(36)}`;

  // From the run page at a replay cursor: Share → Author a lesson.
  await page.goto(`/runs/${runId}?cursor=6`);
  await page.getByTestId("share-menu").click();
  await page.getByTestId("author-lesson").click();
  await expect(page).toHaveURL(new RegExp(`/lessons/new\\?run=${runId}&cursor=6`));
  const editor = page.getByTestId("lesson-editor");
  await expect(editor).toBeVisible();
  await expect(steps(page)).toHaveCount(1);

  await page.getByTestId("lesson-title").fill("Our class run");
  await page.getByTestId("lesson-id").fill(id);
  await page.getByTestId("lesson-summary").fill("The run we made together, step by step.");
  await page.getByTestId("step-1-title").fill("Where we start");
  await page.getByTestId("step-1-narration").fill("The Actor reads the question **first**.");
  // The live preview renders the Markdown with the lesson's component.
  await expect(page.getByTestId("step-1-preview").locator("strong")).toHaveText("first");
  // Spotlight: the nodes drawn at the step's cursor, as checkboxes.
  await page.getByTestId("step-1-nodes").getByLabel("trial 1 (header)").check();

  // Step 2: a prediction whose choices and answer come from the log.
  await page.getByTestId("add-step").click();
  await expect(steps(page)).toHaveCount(2);
  await page.getByTestId("step-2-title").fill("Predict the verdict");
  await page.getByTestId("step-2-narration").fill("Make a prediction before the graph shows it.");
  await page.getByTestId("step-2-add-question").selectOption("evaluator-verdict");
  const derived = page.getByTestId("step-2-question-derived");
  await expect(derived.locator("[data-correct]")).toHaveText(/Fail \(the answer\)/);
  await expect(page.getByTestId("step-2-question-fact")).toContainText("The Evaluator: FAIL (trial 1).");
  // The question moved the step's cursor to just before the answer.
  await expect(page.getByTestId("step-2-cursor-edge")).toHaveValue("before");
  await expect(page.getByTestId("step-2-cursor-event")).toHaveValue("evaluation");
  await page.getByTestId("step-2-question-prompt").fill("Will the Evaluator pass trial 1?");
  await page.getByTestId("step-2-question-explanation").fill("It compares the answer with the gold one, exactly.");

  // Step 3, then reorder: Move up, and back down with Alt+↓ from the keyboard.
  await page.getByTestId("add-step").click();
  await expect(steps(page)).toHaveCount(3);
  await page.getByTestId("step-3-title").fill("What happened");
  await page.getByTestId("step-3-narration").fill("Trial 1 failed: what would you tell it?");
  await page.getByTestId("step-3-nodes").getByLabel(/^trial 1 · evaluation/).check();
  await page.getByTestId("step-3-up").click();
  await expect(steps(page).nth(1)).toHaveAttribute("data-step-title", "What happened");
  await expect(steps(page).nth(2)).toHaveAttribute("data-step-title", "Predict the verdict");
  await page.getByTestId("step-2-title").focus();
  await page.keyboard.press("Alt+ArrowDown");
  await expect(steps(page).nth(2)).toHaveAttribute("data-step-title", "What happened");
  await expect(page.getByTestId("step-3-title")).toBeFocused();

  // A problem is named by step and field; fixing it clears it.
  await page.getByTestId("step-1-narration").fill("");
  await expect(page.getByTestId("draft-issues")).toContainText("Step 1 (Where we start) · narration");
  await expect(page.getByTestId("lesson-save")).toBeDisabled();
  await page.getByTestId("step-1-narration").fill("The Actor reads the question **first**.");
  await expect(page.getByTestId("draft-issues")).toHaveCount(0);
  await expectAccessible(page, "the lesson editor");

  // Preview as a student: the draft in the lesson player, then back to the same draft.
  await page.getByTestId("lesson-preview").click();
  await expect(page).toHaveURL(/\/lessons\/new\/preview/);
  await expect(page.getByTestId("lesson-preview-banner")).toBeVisible();
  await expect(page.getByTestId("lesson-step-counter")).toHaveText("Step 1 of 3");
  await expect(page.getByTestId("lesson-step-title")).toHaveText("Where we start");
  await page.getByTestId("lesson-next").click();
  await expect(page.getByTestId("lesson-step-title")).toHaveText("Predict the verdict");
  await expect(page.getByTestId("prediction")).toBeVisible();
  await page.getByTestId("lesson-preview-back").click();
  await expect(editor).toBeVisible();
  await expect(page.getByTestId("lesson-title")).toHaveValue("Our class run");
  await expect(steps(page)).toHaveCount(3);

  // Save: the page becomes the lesson's edit page; it is on /lessons and plays.
  await page.getByTestId("lesson-save").click();
  await expect(page).toHaveURL(new RegExp(`/lessons/${id}/edit`));
  await page.goto("/lessons");
  const item = page.locator(`[data-testid=lesson-item][data-lesson-id=${id}]`);
  await expect(item).toContainText("Our class run");
  await expect(item).toContainText("written in the app");
  await item.getByTestId("lesson-open").click();
  await expect(page.getByTestId("lesson-step-counter")).toHaveText("Step 1 of 3");
  await page.getByTestId("lesson-next").click();
  await page.getByTestId("prediction-choice-2").click();
  await expect(page.getByTestId("prediction-reveal")).toContainText(/FAIL/);

  // Export downloads the .md; the import accepts it (its id is taken here, so it gets a free one).
  await page.goto(`/lessons/${id}/edit`);
  const download = page.waitForEvent("download");
  await page.getByTestId("lesson-export").click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${id}.md`);
  const saved = testInfo.outputPath(`${id}.md`);
  await file.saveAs(saved);
  const text = fs.readFileSync(saved, "utf8");
  expect(text).toMatch(new RegExp(`^---\\nid: ${id}\\n`));
  expect(text).toContain(`runId: ${runId}`);
  fs.writeFileSync(saved, text.replace("title: Our class run", "title: Our class run, again"));
  await page.goto("/lessons");
  await page.getByTestId("lessons-import-file").setInputFiles(saved);
  await expect(page).toHaveURL(new RegExp(`/lessons/${id}-2/edit\\?imported=1&renamedFrom=${id}`));
  await expect(page.getByTestId("lesson-imported")).toContainText(`a lesson "${id}" was here already`);
  await expect(page.getByTestId("lesson-title")).toHaveValue("Our class run, again");
});
