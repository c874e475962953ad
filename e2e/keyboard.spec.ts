import type { Locator, Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures";

/**
 * Keyboard only (WCAG 2.1 2.1.1, 2.4.3, 2.4.7): from the skip link to a
 * finished lesson, then through a run's transcript and graph to a fork. No
 * click, no mouse: every control is reached with Tab (in the page's order) and
 * used with Enter, arrows, PageDown and digits, and every control reached shows
 * a visible focus indicator. The API only prepares the run the fork starts from
 * (like opening a link someone sent).
 */

/** The focused element shows a focus indicator: it matches :focus-visible and draws an outline or a ring. */
async function expectVisibleFocus(page: Page, what: string) {
  const focus = await page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return null;
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0;
    const ring = style.boxShadow !== "none";
    return { visible: element.matches(":focus-visible"), drawn: outline || ring, rect: element.getBoundingClientRect().toJSON() as { width: number; height: number } };
  });
  expect(focus, `${what}: something has focus`).not.toBeNull();
  expect(focus?.visible, `${what}: focus is :focus-visible`).toBe(true);
  expect(focus?.drawn, `${what}: an outline or a ring is drawn`).toBe(true);
  expect((focus?.rect.width ?? 0) * (focus?.rect.height ?? 0), `${what}: the focused element has a size`).toBeGreaterThan(0);
}

/** Presses Tab (Shift+Tab with `back`) until `target` has focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, what: string, { max = 120, back = false } = {}) {
  const handle = await target.elementHandle();
  expect(handle, `${what} is on the page`).not.toBeNull();
  for (let presses = 0; presses < max; presses += 1) {
    if (await page.evaluate((element) => document.activeElement === element, handle)) {
      await expectVisibleFocus(page, what);
      return;
    }
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
  }
  throw new Error(`${what}: not reached with ${max} presses of ${back ? "Shift+Tab" : "Tab"}`);
}

test("keyboard only: skip link, a whole lesson with its predictions, then a run's transcript, graph and a fork", async ({ page, request }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto("/");
  await expect(page.getByTestId("start-run")).toBeVisible();

  // The first Tab lands on the skip link, visible while focused; Enter moves focus past the header.
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await expectVisibleFocus(page, "skip link");

  // The site navigation: Lessons.
  await tabTo(page, page.getByTestId("nav-lessons"), "Lessons in the navigation");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/lessons$/);

  // Present the QA lesson.
  const item = page.locator("[data-testid=lesson-item][data-lesson-id=why-reflexion-qa]");
  await expect(item).toBeVisible();
  await tabTo(page, item.getByTestId("lesson-present"), "Present the QA lesson");
  await page.keyboard.press("Enter");
  const counter = page.getByTestId("lesson-step-counter");
  await expect(counter).toHaveText("Step 1 of 10", { timeout: 60_000 });
  await expectAccessible(page, "the lesson, step 1 (presenter mode)");

  // Every step with PageDown; each prediction answered with a digit (a skipped one is answered by PageDown itself).
  const prediction = page.getByTestId("prediction");
  for (let step = 2; step <= 10; step += 1) {
    await page.keyboard.press("PageDown");
    if ((await counter.textContent()) !== `Step ${step} of 10`) {
      // An open question: PageDown revealed its answer; the next PageDown moves on.
      await expect(prediction).toHaveAttribute("data-state", "skipped");
      await page.keyboard.press("PageDown");
    }
    await expect(counter).toHaveText(`Step ${step} of 10`);
    if ((await prediction.count()) > 0 && (await prediction.getAttribute("data-state")) === "pending") {
      await page.keyboard.press("1");
      await expect(prediction).not.toHaveAttribute("data-state", "pending");
    }
  }
  await expect(page.getByTestId("lesson-score")).toContainText(/\d of \d right/);
  await expectAccessible(page, "the lesson's last step with its score");

  // A run to fork, from the same demo model: open it like a link.
  const created = await request.post("/api/runs", { data: { environment: "qa", taskSet: "builtin", taskId: "qa-builtin-02", strategy: "reflexion", modelId: "demo" } });
  expect(created.status()).toBe(201);
  const { runId } = (await created.json()) as { runId: string };
  await expect.poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { run: { status: string } }).run.status, { timeout: 60_000 }).toBe("ended");
  await page.goto(`/runs/${runId}`);
  await expect(page.locator('[data-testid="node-trial"]').first()).toBeVisible();

  // The transcript tab: trials as headed sections; Details on trial 1's reflection selects it.
  await tabTo(page, page.getByTestId("run-view-graph"), "the Graph tab");
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("run-view-transcript")).toBeFocused();
  await expect(page.getByTestId("run-transcript-panel")).toBeVisible();
  await expect(page.getByRole("heading", { level: 3, name: /^Trial 1:/ })).toBeVisible();
  await expectAccessible(page, "the run page, Transcript tab");
  const reflectionEntry = page.locator('[data-testid="transcript-entry"][data-kind="reflection"][data-trial="1"]');
  const reflectionId = (await reflectionEntry.getAttribute("data-transcript-node")) ?? "";
  expect(reflectionId).not.toBe("");
  await tabTo(page, reflectionEntry.getByTestId("transcript-select"), "Details of trial 1's reflection in the transcript");
  await page.keyboard.press("Enter");
  await expect(reflectionEntry).toHaveAttribute("aria-current", "true");
  await expect(page.getByTestId("inspector")).toHaveAttribute("data-kind", "reflection");

  // Back to the graph: focus lands on the same node, selected there too.
  await tabTo(page, page.getByTestId("run-view-transcript"), "the Transcript tab", { back: true });
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByTestId("run-view-graph")).toBeFocused();
  await page.keyboard.press("Enter");
  const graphNode = page.locator(`.react-flow__node[data-id="${reflectionId}"]`);
  await expect(graphNode).toBeFocused();
  await expectVisibleFocus(page, "the reflection's node in the graph");
  await expect(page.locator(`[data-node-id="${reflectionId}"][data-testid="node-reflection"]`)).toHaveAttribute("data-selected", "true");
  // Enter on a focused node selects it (Escape closes the inspector, Enter opens it again).
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("inspector")).toHaveCount(0);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("inspector")).toHaveAttribute("data-kind", "reflection");

  // Fork here, from the inspector; the dialog takes focus, Tab reaches its submit button.
  await tabTo(page, page.getByTestId("fork-here"), "Fork here");
  await page.keyboard.press("Enter");
  const dialog = page.getByTestId("fork-dialog");
  await expect(dialog).toBeVisible();
  expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  await expectAccessible(page, "the fork dialog");
  await tabTo(page, dialog.getByTestId("fork-submit"), "the fork dialog's submit button");
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\?branch=/);
  const forkId = new URL(page.url()).searchParams.get("branch") ?? "";
  await expect(page.getByTestId("run-workspace")).toHaveAttribute("data-branch-id", forkId);
  await expect(page.locator('[data-testid="node-trial"]').first()).toBeVisible();
});
