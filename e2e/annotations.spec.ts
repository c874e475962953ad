import { expect, test } from "./fixtures";
import { HomePage } from "./pages/home-page";
import { RunPage } from "./pages/run-page";

test("annotate a step: a note with a tag and a score, its badge, a reload, a reply and an edit, and the API lists it", async ({ page }) => {
  const home = new HomePage(page);
  await home.open();
  const runId = await home.startRun({ taskId: "qa-builtin-01", strategy: "reflexion" });
  const run = new RunPage(page);
  await run.waitForStatus(/ended/i);

  // The first action of trial 1: no notes yet.
  const action = run.node("action", 1).first();
  await run.open(action);
  const thread = page.getByTestId("inspector").getByTestId("annotation-thread");
  await expect(thread.getByTestId("annotation-empty")).toHaveText("No notes on this node yet.");
  await expect(action.getByTestId("annotation-badge")).toHaveCount(0);

  // The first note asks for the author's name once.
  const form = thread.getByTestId("annotation-form");
  await form.getByTestId("annotation-author").fill("Ada");
  await form.getByTestId("annotation-text").fill("Searched **the wrong** entity");
  await form.getByTestId("annotation-tags").fill("loop");
  await form.getByTestId("annotation-score-scale").selectOption("quality");
  await form.getByTestId("annotation-score-value").selectOption("2");
  await form.getByTestId("annotation-form-submit").click();
  const note = thread.getByTestId("annotation").first();
  await expect(note.getByTestId("annotation-body").first()).toContainText("Searched the wrong entity");
  await expect(note.locator("strong").first()).toHaveText("the wrong");
  await expect(note.getByTestId("annotation-tag").first()).toHaveText("#loop");
  await expect(note.getByTestId("annotation-score").first()).toHaveText("quality 2");
  await expect(action.getByTestId("annotation-badge")).toHaveAttribute("aria-label", "1 note");

  // After a reload the badge and the note are still there, and the name is remembered.
  await page.reload();
  await expect(action.getByTestId("annotation-badge")).toHaveAttribute("aria-label", "1 note");
  await run.open(action);
  await expect(thread.getByTestId("annotation-author-name").first()).toHaveText("Ada");
  await expect(thread.getByTestId("annotation-form")).toContainText("Writing as Ada");
  await expect(thread.getByTestId("annotation-form").getByTestId("annotation-author")).toHaveCount(0);

  // A reply, by keyboard.
  await thread.getByTestId("annotation-reply").first().focus();
  await page.keyboard.press("Enter");
  const replyForm = thread.getByTestId("annotation-reply-form");
  await replyForm.getByTestId("annotation-text").fill("The title was ambiguous.");
  await replyForm.getByTestId("annotation-reply-form-submit").click();
  await expect(replyForm).toHaveCount(0);
  await expect(thread.getByTestId("annotation")).toHaveCount(2);
  await expect(action.getByTestId("annotation-badge")).toHaveAttribute("aria-label", "2 notes");

  // An edit keeps the earlier version behind a toggle.
  await thread.getByTestId("annotation-edit").first().click();
  const editForm = thread.getByTestId("annotation-edit-form");
  await expect(editForm.getByTestId("annotation-text")).toHaveValue("Searched **the wrong** entity");
  await editForm.getByTestId("annotation-text").fill("Searched the wrong entity, twice");
  await editForm.getByTestId("annotation-edit-form-submit").click();
  await expect(editForm).toHaveCount(0);
  await expect(note.getByTestId("annotation-edited")).toBeVisible();
  await note.getByTestId("annotation-history").locator("summary").click();
  await expect(note.getByTestId("annotation-history")).toContainText("the wrong");

  // The API has the same thread.
  const response = await page.request.get(`/api/runs/${runId}/annotations`);
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as { annotations: Array<{ id: string; author: string; parentId: string | null; content: { text: string; tags: string[]; score: { scale: string; value: number } | null }; history: unknown[]; target: { kind: string; trial: number } }> };
  expect(body.annotations).toHaveLength(2);
  const [first, reply] = body.annotations;
  expect(first).toMatchObject({ author: "Ada", parentId: null, content: { text: "Searched the wrong entity, twice", tags: ["loop"], score: { scale: "quality", value: 2 } }, target: { kind: "action", trial: 1 } });
  expect(first!.history).toHaveLength(1);
  expect(reply).toMatchObject({ author: "Ada", parentId: first!.id, content: { text: "The title was ambiguous." } });

  // Search finds the trial by the note's tag, and the hit opens the run.
  await page.goto(`/search?q=${encodeURIComponent(`tag:loop run:${runId}`)}`);
  const rows = page.getByTestId("search-result-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("qa-builtin-01");
  await rows.first().getByRole("link").first().click();
  await page.waitForURL(new RegExp(`/runs/${runId}\\?`));
  await expect(page.getByTestId("inspector")).toBeVisible();
});
