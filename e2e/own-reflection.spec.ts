import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { RunPage } from "./pages/run-page";

/**
 * "Write your own reflection": at trial 1's failed
 * evaluation the learner writes a reflection, compares it with the model's
 * (word diff, rubric, would it help the demo model), and forks trial 2 with
 * it: a correct paraphrase makes trial 2 succeed, an unhelpful one does not.
 * And selecting a node far off-screen brings it into view.
 */

async function endedRun(request: APIRequestContext, data: Record<string, unknown>): Promise<string> {
  const created = await request.post("/api/runs", { data: { taskSet: "builtin", modelId: "demo", ...data } });
  expect(created.status()).toBe(201);
  const { runId } = (await created.json()) as { runId: string };
  await expect
    .poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { run: { status: string } }).run.status, { timeout: 60_000 })
    .toBe("ended");
  return runId;
}

async function forkWithMine(page: Page, runId: string, text: string): Promise<{ helps: string | null }> {
  const run = new RunPage(page);
  await page.goto(`/runs/${runId}`);
  await run.open(run.evaluation(1, "fail"));
  await page.getByTestId("practice-open").click();
  const practice = page.getByTestId("reflection-practice");
  // The model's reflection stays hidden until the learner has written theirs.
  await expect(practice.getByTestId("practice-model")).toHaveCount(0);
  await practice.getByTestId("practice-text").fill(text);
  await practice.getByTestId("practice-compare").click();
  await expect(practice.getByTestId("practice-mine")).toHaveText(text);
  await expect(practice.getByTestId("practice-model")).toContainText("Dunmere");
  await expect(practice.getByTestId("practice-word-diff")).toBeVisible();
  await expect(practice.getByTestId("practice-rubric")).toBeVisible();
  const helps = practice.getByTestId("practice-helps");
  await expect(helps).toContainText("scripted stand-in");
  const verdict = await helps.locator("[data-helps]").getAttribute("data-helps");
  await practice.getByTestId("practice-fork").click();
  await expect(page).toHaveURL(/\?branch=/);
  const branchId = new URL(page.url()).searchParams.get("branch") ?? "";
  await expect(page.getByTestId("run-workspace")).toHaveAttribute("data-branch-id", branchId);
  return { helps: verdict };
}

test("a correct paraphrase forked into trial 2 makes it succeed; an unhelpful reflection does not", async ({ page, request }) => {
  const runId = await endedRun(request, { environment: "qa", taskId: "qa-builtin-01", strategy: "reflexion", maxTrials: 3 });
  const run = new RunPage(page);

  const good = await forkWithMine(page, runId, "I gave a town's name when a waterway was asked for. Next time I'll look up Dunmere's page and reply with the stream that flows through it.");
  expect(good.helps).toBe("true");
  await expect(run.evaluation(2, "pass")).toBeVisible({ timeout: 60_000 });

  const bad = await forkWithMine(page, runId, "I should be more careful and think harder next time.");
  expect(bad.helps).toBe("false");
  await expect(run.evaluation(2, "fail")).toBeVisible({ timeout: 60_000 });
});

test("selecting a node far off-screen (a ?node= link) pans it into view", async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const runId = await endedRun(request, { environment: "household", taskId: "household-builtin-01", strategy: "none", maxTrials: 4 });
  const events = ((await (await request.get(`/api/runs/${runId}/events?after=0`)).json()) as { events: Array<{ id: string; type: string; data: { trial?: number } }> }).events;
  const last = events.filter((event) => event.type === "evaluation-end").at(-1);
  expect(last?.data.trial).toBe(4);

  await page.goto(`/runs/${runId}?node=${last!.id}`);
  await expect(page.getByTestId("inspector")).toBeVisible();
  const viewport = await page.getByTestId("run-graph-viewport").boundingBox();
  const node = page.locator('[data-testid="node-evaluation"][data-trial="4"]');
  await expect
    .poll(async () => {
      const box = await node.boundingBox();
      if (!box || !viewport) return false;
      return box.x >= viewport.x && box.y >= viewport.y && box.x + box.width <= viewport.x + viewport.width && box.y + box.height <= viewport.y + viewport.height;
    })
    .toBe(true);
});
