import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * The Lessons page, presenting the QA lesson from a clicker
 * (keyboard only: PageDown, digits for predictions), the replay keys, and deep links
 * (`/runs/:id?cursor=&node=`) that open exactly that moment. `DOCS_SCREENSHOTS=1` also
 * writes docs/images/presenter-mode.png.
 */

const screenshots = process.env.DOCS_SCREENSHOTS === "1";

/** The QA lesson's run (made by the lesson API, idempotently), once it has ended, with its events. */
async function lessonRun(page: Page): Promise<{ runId: string; events: Array<{ id: string; type: string; data: Record<string, unknown> }> }> {
  const response = await page.request.post("/api/lessons/why-reflexion-qa/run");
  expect(response.ok()).toBe(true);
  const { runId } = (await response.json()) as { runId: string };
  await expect.poll(async () => ((await (await page.request.get(`/api/runs/${runId}`)).json()) as { run: { status: string } }).run.status, { timeout: 30_000 }).toBe("ended");
  const events = ((await (await page.request.get(`/api/runs/${runId}/events?after=0`)).json()) as { events: Array<{ id: string; type: string; data: Record<string, unknown> }> }).events;
  return { runId, events };
}

test.describe("lessons", () => {
  test("present the QA lesson end to end with the keyboard only: PageDown, predictions by digit, a score at the end", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto("/lessons");
    const item = page.locator("[data-testid=lesson-item][data-lesson-id=why-reflexion-qa]");
    await expect(item).toContainText("Why Reflexion: one QA failure becomes a lesson");
    expect(await page.getByTestId("lesson-item").count()).toBeGreaterThanOrEqual(3);
    // Keyboard only: focus "Present" and press Enter.
    await item.getByTestId("lesson-present").focus();
    await page.keyboard.press("Enter");

    await expect(page).toHaveURL(/\/lessons\/why-reflexion-qa\?.*present=1/);
    const player = page.getByTestId("lesson-player");
    await expect(player).toHaveAttribute("data-presenter", "true");
    const narration = page.getByTestId("lesson-narration");
    await expect(narration).toBeVisible();
    const counter = page.getByTestId("lesson-step-counter");
    await expect(counter).toHaveText("Step 1 of 10");
    // Presenter mode: the app's header and the run's controls are hidden; the narration is large.
    await expect(page.getByTestId("trial-strip")).toHaveCount(0);
    // The player covers the app's header (its top-left corner is the player's, not the header's).
    expect(await page.evaluate(() => document.elementFromPoint(8, 8)?.closest("[data-testid=lesson-player]") != null)).toBe(true);
    // The narration sits beside the graph, never over it.
    const graphBox = await page.getByTestId("run-graph").boundingBox();
    const narrationBox = await narration.boundingBox();
    expect(graphBox && narrationBox && narrationBox.x + narrationBox.width <= graphBox.x + 1).toBe(true);
    // Step 1 spotlights trial 1's header.
    await expect(page.locator("[data-testid=node-trial][data-spotlight]")).toHaveCount(1);

    const next = async (expected: number) => {
      await page.keyboard.press("PageDown");
      await expect(counter).toHaveText(`Step ${expected} of 10`);
    };
    await next(2);
    await expect(page.locator("[data-spotlight]")).toHaveCount(2);
    await next(3);

    // Step 3: which action comes next? The graph stops before the answer.
    const prediction = page.getByTestId("prediction");
    await expect(prediction).toHaveAttribute("data-kind", "next-action");
    await expect(prediction).toHaveAttribute("data-state", "pending");
    await expect(page.getByTestId("node-action")).toHaveCount(1);
    await page.keyboard.press("1");
    await expect(prediction).not.toHaveAttribute("data-state", "pending");
    const firstRight = (await prediction.getAttribute("data-state")) === "right" ? 1 : 0;
    // The answer comes from the log: the Actor's second action in trial 1.
    await expect(prediction.locator("[data-answer]")).toContainText("Finish[Dunmere]");
    await expect(page.getByTestId("node-action")).toHaveCount(2);
    await expect(page.getByTestId("prediction-reveal")).toBeVisible();

    // Step 4: will the Evaluator pass? "Fail" is choice 2, and right.
    await next(4);
    await expect(prediction).toHaveAttribute("data-kind", "evaluator-verdict");
    await expect(page.getByTestId("node-evaluation")).toHaveCount(0);
    await page.keyboard.press("2");
    await expect(prediction).toHaveAttribute("data-state", "right");
    await expect(page.getByTestId("node-evaluation")).toHaveCount(1);
    if (screenshots) await page.screenshot({ path: "docs/images/presenter-mode.png" });

    // Step 5: write-your-own — the model's reflection is not shown yet.
    await next(5);
    await expect(page.getByTestId("node-reflection")).toHaveCount(0);
    await next(6);
    await expect(page.locator("[data-testid=node-reflection][data-spotlight]")).toHaveCount(1);

    // Step 7: PageDown on an open question skips it (reveals), the next PageDown moves on.
    await next(7);
    await expect(prediction).toHaveAttribute("data-kind", "reflection-changes-first-action");
    await page.keyboard.press("PageDown");
    await expect(prediction).toHaveAttribute("data-state", "skipped");
    await expect(counter).toHaveText("Step 7 of 10");
    await expect(prediction.locator("[data-answer]")).toContainText("No: the same first action");

    // Step 8: the curve, asked before trial 2 submits its answer: trial 2 (choice 2).
    await next(8);
    await expect(prediction).toHaveAttribute("data-kind", "curve");
    await expect(page.locator('[data-testid="node-action"][data-trial="2"]')).toHaveCount(1);
    await page.keyboard.press("2");
    await expect(prediction).toHaveAttribute("data-state", "right");
    await next(9);
    // Going back works too.
    await page.keyboard.press("PageUp");
    await expect(counter).toHaveText("Step 8 of 10");
    await next(9);
    await next(10);
    await expect(page.getByTestId("lesson-score")).toContainText(`${2 + firstRight} of 4 right, 1 skipped`);
    await expect(page.getByTestId("replay-bar")).toHaveAttribute("data-cursor", await page.getByTestId("replay-bar").getAttribute("data-total") ?? "");

    // Esc leaves for free exploration at the same moment; `l` comes back.
    const cursor = await page.getByTestId("replay-bar").getAttribute("data-cursor");
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("lesson-rail")).toBeVisible();
    await expect(player).not.toHaveAttribute("data-presenter", "true");
    await expect(page.getByTestId("trial-strip")).toBeVisible();
    await expect(page.getByTestId("replay-bar")).toHaveAttribute("data-cursor", cursor ?? "");
    await expect(page.locator("[data-spotlight]")).toHaveCount(0);
    // Esc leaves presenter mode, and the URL says so (a reload or a copied link opens the ordinary view).
    await expect(page).not.toHaveURL(/present=1/);
    await page.keyboard.press("l");
    await expect(narration).toBeVisible();
    await expect(counter).toHaveText("Step 10 of 10");
    // Back in presenter mode: a teacher at a clicker never clicks Present again.
    await expect(player).toHaveAttribute("data-presenter", "true");
    await expect(page).toHaveURL(/present=1/);
    // A reload opens the same step (the URL holds it) with the answers kept in this browser.
    await page.reload();
    await expect(page.getByTestId("lesson-step-counter")).toHaveText("Step 10 of 10");
    await expect(page.getByTestId("lesson-score")).toContainText(`${2 + firstRight} of 4 right, 1 skipped`);
  });

  test("every lesson on the Lessons page opens on its run, and its last step resolves (the paper's lesson imports the authors' log)", async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto("/lessons");
    await expect(page.getByTestId("lesson-item").first()).toBeVisible();
    const ids = await page.getByTestId("lesson-item").evaluateAll((items) => items.map((item) => item.getAttribute("data-lesson-id") ?? ""));
    expect(ids).toEqual(expect.arrayContaining(["why-reflexion-qa", "household-loops", "evaluator-false-positive", "paper-hotpotqa-search-loop"]));
    for (const id of ids) {
      await page.goto(`/lessons/${id}`);
      const counter = page.getByTestId("lesson-step-counter");
      await expect(counter).toHaveText(/^Step 1 of \d+$/, { timeout: 90_000 });
      const total = Number(/of (\d+)/.exec((await counter.textContent()) ?? "")?.[1]);
      await expect(page.locator("[data-testid=node-trial][data-spotlight]")).toHaveCount(1);
      // Jump to the last step through the URL: it resolves on the run (no "does not fit" error).
      await page.goto(`/lessons/${id}?step=${total}`);
      await expect(counter).toHaveText(`Step ${total} of ${total}`);
      await expect(page.getByTestId("lesson-step-error")).toHaveCount(0);
      await expect(page.locator("[data-spotlight]").first()).toBeVisible();
    }
  });

  test("replay keys step the run by event, step and trial; the graph follows the cursor", async ({ page }) => {
    const { runId, events } = await lessonRun(page);
    await page.goto(`/runs/${runId}`);
    const bar = page.getByTestId("replay-bar");
    await expect(bar).toHaveAttribute("data-live", "true");
    await expect(page.getByTestId("node-evaluation")).toHaveCount(2);
    await page.locator("body").press("Home");
    await expect(bar).toHaveAttribute("data-cursor", "0");
    await page.keyboard.press("}");
    await page.keyboard.press("}");
    // Two trial steps: just before trial 2's start — all of trial 1 and its reflection shown.
    const trial2 = events.findIndex((event) => event.type === "trial-start" && event.data.trial === 2);
    await expect(bar).toHaveAttribute("data-cursor", String(trial2));
    await expect(page.getByTestId("node-evaluation")).toHaveCount(1);
    await expect(page.getByTestId("node-reflection")).toHaveCount(1);
    await expect(page).toHaveURL(new RegExp(`cursor=${trial2}`));
    await page.keyboard.press(",");
    await expect(bar).toHaveAttribute("data-cursor", String(trial2 - 1));
    await page.keyboard.press("[");
    await expect(page.getByTestId("replay-position")).toContainText("trial 1");
    await page.keyboard.press("End");
    await expect(bar).toHaveAttribute("data-live", "true");
    await expect(page.getByTestId("node-evaluation")).toHaveCount(2);
  });

  test("a finished run at a replay cursor says replaying (step k of n), never running, and forks a node on screen from the cursor", async ({ page }) => {
    const { runId, events } = await lessonRun(page);
    const evaluation = events.find((event) => event.type === "evaluation-end");
    if (!evaluation) throw new Error("the lesson run has no evaluation");
    // Just after trial 1's evaluation: its checkpoint is the next events, past the cursor.
    const cursor = events.indexOf(evaluation) + 1;
    await page.goto(`/runs/${runId}?cursor=${cursor}&node=${evaluation.id}`);
    await expect(page.getByTestId("replay-bar")).toHaveAttribute("data-cursor", String(cursor));
    const pill = page.getByTestId("run-status");
    await expect(pill).toHaveAttribute("data-status", "replaying");
    await expect(pill).toHaveText(/^Replaying \(step \d+ of \d+\)$/);
    await expect(page.getByTestId("trial-strip")).not.toContainText("running");
    await expect(page.getByTestId("trial-strip")).toContainText("Trial 1");
    await expect(page.getByTestId("branch-switcher")).toContainText(/main — replaying \(step \d+ of \d+\)/);
    await expect(page.getByTestId("branch-switcher")).not.toContainText("running");
    // Fork here forks from the checkpoint after the evaluation, though it lies past the cursor.
    await expect(page.getByTestId("inspector")).toHaveAttribute("data-kind", "evaluation");
    await expect(page.getByTestId("inspector")).not.toContainText("not in the log yet");
    await expect(page.getByTestId("fork-here")).toBeEnabled();
    await expect(page.getByTestId("fork-here")).toHaveAttribute("data-at-seq", /^\d+$/);
    // Back to live: the pill says the run ended.
    await page.locator("body").press("End");
    await expect(pill).toHaveAttribute("data-status", "ended");
  });

  test("after 'Run trial 2 with mine' the lesson follows the fork: the narration says what differs and the inspector selects the fork's nodes", async ({ page }) => {
    test.setTimeout(120_000);
    const { events } = await lessonRun(page);
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto("/lessons/why-reflexion-qa?step=5");
    await expect(page.getByTestId("lesson-practice")).toBeVisible();
    await page.getByTestId("practice-open").click();
    const practice = page.getByTestId("reflection-practice");
    const mine = "I gave a town's name when a waterway was asked for. Next time I'll look up Dunmere's page and reply with the stream that flows through it.";
    await practice.getByTestId("practice-text").fill(mine);
    await practice.getByTestId("practice-compare").click();
    await practice.getByTestId("practice-fork").click();
    await expect(page).toHaveURL(/[?&]branch=/);
    const branch = new URL(page.url()).searchParams.get("branch") ?? "";

    // The step says its narration is the model's run's, with the learner's reflection; the inspector shows that reflection.
    const note = page.getByTestId("lesson-fork-note");
    await expect(note).toContainText("This narration describes the model's own run; you are on your fork");
    await expect(note).toContainText("trial 1's reflection is yours");
    await expect(page.getByTestId("inspector")).toHaveAttribute("data-kind", "reflection");
    await expect(page.locator("[data-testid=node-reflection][data-selected]")).toContainText("I gave a town's name");
    // The next step has a fork-aware text in the lesson file.
    await page.keyboard.press("PageDown");
    await expect(page.getByTestId("lesson-fork-narration")).toContainText("your");
    await expect(note).toHaveCount(0);

    // "The second hop", on the fork once its trial 2 is recorded: the fork's own trial-2 thought is selected, not the model's.
    await page.goto(`/lessons/why-reflexion-qa?step=9&branch=${branch}`);
    await expect(page.getByTestId("lesson-fork-note")).toContainText("On your fork trial 2 succeeded", { timeout: 60_000 });
    const modelThought = events.find((event) => event.type === "step-thought" && event.data.trial === 2 && event.data.step === 2);
    const selected = page.locator("[data-testid=node-thought][data-trial='2'][data-selected]");
    await expect(selected).toHaveCount(1);
    expect(await selected.getAttribute("data-node-id")).not.toBe(modelThought?.id);
  });

  test("a deep link opens that moment with the node selected; selecting a node updates the URL; copy link round-trips", async ({ page, context }) => {
    const { runId, events } = await lessonRun(page);
    const reflection = events.find((event) => event.type === "reflection-end");
    const evaluation = events.find((event) => event.type === "evaluation-end");
    if (!reflection || !evaluation) throw new Error("the lesson run has no reflection");
    const cursor = events.indexOf(reflection) + 1;
    await page.goto(`/runs/${runId}?cursor=${cursor}&node=${reflection.id}`);
    const node = page.locator(`[data-node-id="${reflection.id}"]`);
    await expect(node).toHaveAttribute("data-selected", "true");
    await expect(node).toBeInViewport();
    await expect(page.getByTestId("inspector")).toHaveAttribute("data-kind", "reflection");
    await expect(page.getByTestId("replay-bar")).toHaveAttribute("data-cursor", String(cursor));
    // Trial 2 is not drawn yet at this cursor.
    await expect(page.getByTestId("node-evaluation")).toHaveCount(1);

    // Selecting another node rewrites the URL in place (no new history entry).
    const historyLength = await page.evaluate(() => window.history.length);
    await page.locator(`[data-node-id="${evaluation.id}"]`).click();
    await expect(page).toHaveURL(new RegExp(`node=${evaluation.id}`));
    expect(await page.evaluate(() => window.history.length)).toBe(historyLength);

    // Copy link → a second page opens the same moment.
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.locator(`[data-node-id="${evaluation.id}"]`).getByTestId("copy-node-link").click();
    await expect(page.getByTestId("copy-node-link")).toHaveText("Copied");
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain(`node=${evaluation.id}`);
    expect(copied).toContain(`cursor=${cursor}`);
    const second = await context.newPage();
    await second.goto(copied);
    await expect(second.locator(`[data-node-id="${evaluation.id}"]`)).toHaveAttribute("data-selected", "true");
    await expect(second.getByTestId("inspector")).toHaveAttribute("data-kind", "evaluation");
    await second.close();
  });
});
