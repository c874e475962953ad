import fs from "node:fs";
import { parse } from "csv-parse/sync";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ExperimentsPage } from "./pages/experiments-page";

const BUILTIN_QA_TASKS = 12;

/** Reviews every item of the open queue as `reviewer` with the keys: `labelKey(position)` is the digit pressed on each item. */
async function reviewAll(page: Page, reviewer: string, labelKey: (position: number) => string): Promise<void> {
  await page.getByTestId(`review-as-${reviewer}`).click();
  const position = page.getByTestId("review-position");
  for (let index = 0; index < BUILTIN_QA_TASKS; index += 1) {
    await expect(position).toHaveText(`${index + 1} / ${BUILTIN_QA_TASKS}`);
    // The arms stay hidden until this reviewer has reviewed the item.
    await expect(page.getByTestId("review-left-arm")).toHaveCount(0);
    await page.keyboard.press(labelKey(index));
    if (index < BUILTIN_QA_TASKS - 1) await expect(position).toHaveText(`${index + 2} / ${BUILTIN_QA_TASKS}`);
  }
  await expect(page.getByRole("heading", { name: `Reviewing as ${reviewer} · ${BUILTIN_QA_TASKS}/${BUILTIN_QA_TASKS} done` })).toBeVisible();
}

test("review queue: a pairwise review of two arms' reflections on the QA built-ins by two reviewers ends with κ and a CSV of preferences", async ({ page, browser }) => {
  test.setTimeout(240_000);
  const experiments = new ExperimentsPage(page);
  await experiments.openListFromHeader();
  const experimentId = await experiments.startFromForm({ environment: "qa", arms: ["reflexion", "reflexion"], labels: ["A", "B"], model: "demo", trials: 3 });
  await experiments.waitUntilFinished(BUILTIN_QA_TASKS * 2);

  // Build the pairwise queue on the Reviews page.
  await page.getByTestId("nav-reviews").click();
  await page.waitForURL(/\/reviews$/);
  await page.getByTestId("review-experiment").selectOption(experimentId);
  await page.getByTestId("review-kind").selectOption("pairwise");
  await page.getByTestId("review-arm-A").check();
  await page.getByTestId("review-arm-B").check();
  await page.getByTestId("review-reviewers").fill("ann, bob");
  await page.getByTestId("review-name").fill("A vs B on QA");
  await page.getByTestId("review-create").click();
  await page.waitForURL(/\/reviews\/rq-[0-9a-f-]+$/);
  const queueUrl = page.url();
  await expect(page.getByRole("heading", { name: "A vs B on QA" })).toBeVisible();
  // The query box starts from the queue's experiment, and typing in it does not drive the review keys.
  await expect(page.getByTestId("query-box-input")).toHaveValue(/^experiment:/u);

  // ann, in this browser context, always prefers the left reflection.
  await reviewAll(page, "ann", () => "1");

  // bob, in a browser context of his own: left on even items, right on odd ones, with a comment typed via the keys on the first.
  const bobContext = await browser.newContext();
  const bob = await bobContext.newPage();
  await bob.goto(queueUrl);
  await bob.getByTestId("review-as-bob").click();
  // bob's own view of the queue (blind to ann's reviews) loads before his keys work.
  await expect(bob.getByRole("heading", { name: /^Reviewing as bob · 0\/\d+ done$/u })).toBeVisible();
  await bob.keyboard.press("?");
  await expect(bob.getByTestId("review-keys")).toContainText("choose the rubric's label");
  await bob.keyboard.press("c");
  await bob.keyboard.type("names the wrong entity");
  await bob.keyboard.press("Escape");
  await bob.keyboard.press("t");
  await bob.keyboard.type("loop");
  await bob.keyboard.press("Escape");
  await expect(bob.getByTestId("review-position")).toHaveText(`1 / ${BUILTIN_QA_TASKS}`);
  // The typed fields are kept while the reviewer stays on the item; a label key saves them with the review.
  await expect(bob.getByTestId("review-comment")).toHaveValue("names the wrong entity");
  await bob.keyboard.press("1");
  await expect(bob.getByTestId("review-position")).toHaveText(`2 / ${BUILTIN_QA_TASKS}`);
  // k goes back: the reviewed item now shows its arms; j goes forward again.
  await bob.keyboard.press("k");
  await expect(bob.getByTestId("review-position")).toHaveText(`1 / ${BUILTIN_QA_TASKS}`);
  await expect(bob.getByTestId("review-left-arm")).toHaveText(/arm [AB]/);
  await bob.keyboard.press("j");
  for (let index = 1; index < BUILTIN_QA_TASKS; index += 1) {
    await expect(bob.getByTestId("review-position")).toHaveText(`${index + 1} / ${BUILTIN_QA_TASKS}`);
    await bob.keyboard.press(index % 2 === 0 ? "1" : "2");
  }
  await expect(bob.getByRole("heading", { name: `Reviewing as bob · ${BUILTIN_QA_TASKS}/${BUILTIN_QA_TASKS} done` })).toBeVisible();
  await bobContext.close();

  // Back as ann: both have reviewed every item; the agreement table shows n, percent and κ (or why κ is undefined).
  await page.reload();
  await expect(page.getByTestId("review-progress-complete")).toContainText(`${BUILTIN_QA_TASKS}/${BUILTIN_QA_TASKS}`);
  const row = page.getByTestId("review-agreement-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("review-agreement-n")).toHaveText(String(BUILTIN_QA_TASKS));
  await expect(row.getByTestId("review-agreement-kappa")).toHaveText(/^(-?\d\.\d\d|undefined \(.+\))$/);

  // The CSV: one row per review, preferences stored by arm.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("review-export-csv").click()]);
  expect(download.suggestedFilename()).toMatch(/^review-rq-.+\.csv$/);
  const rows = parse(fs.readFileSync(await download.path(), "utf8"), { columns: true }) as Array<Record<string, string>>;
  expect(rows).toHaveLength(BUILTIN_QA_TASKS * 2);
  for (const entry of rows) {
    expect(entry.arms).toBe("A|B");
    expect(new Set([entry.left_arm, entry.right_arm])).toEqual(new Set(["A", "B"]));
    expect(entry.preferred_arm).toBe(entry.label === "left" ? entry.left_arm : entry.right_arm);
    expect(entry.task_id).toMatch(/^qa-builtin-\d\d$/);
  }
  const byReviewer = (name: string) => rows.filter((entry) => entry.reviewer === name).sort((a, b) => Number(a.item) - Number(b.item));
  // `item` is the number the page shows ("Item 1" … "Item 12").
  expect(byReviewer("ann").map((entry) => entry.item)).toEqual(Array.from({ length: BUILTIN_QA_TASKS }, (_, index) => String(index + 1)));
  expect(byReviewer("ann").map((entry) => entry.label)).toEqual(Array.from({ length: BUILTIN_QA_TASKS }, () => "left"));
  expect(byReviewer("bob").map((entry) => entry.label)).toEqual(Array.from({ length: BUILTIN_QA_TASKS }, (_, index) => (index % 2 === 0 ? "left" : "right")));
  expect(byReviewer("bob")[0]).toMatchObject({ comment: "names the wrong entity", tags: "loop" });
  // The table's percent agreement is the share of items where both preferred the same arm in the CSV.
  const same = byReviewer("ann").filter((entry, index) => entry.preferred_arm === byReviewer("bob")[index]!.preferred_arm).length;
  await expect(row.getByTestId("review-agreement-percent")).toHaveText(`${((same / BUILTIN_QA_TASKS) * 100).toFixed(0)}%`);
});
