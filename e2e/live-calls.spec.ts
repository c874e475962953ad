import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { HomePage } from "./pages/home-page";
import { RunPage } from "./pages/run-page";

/**
 * Model calls as they happen: a slow model's text streams into the
 * running node, Pause from another tab takes effect, and Cancel stops a call
 * that never answers. The fake model servers are started by
 * playwright.config.ts: `compatible:fake-model` answers one word every 150 ms,
 * every `openai:*` model hangs.
 */

const SLOW_MODEL = "compatible:fake-model";
const HANGING_MODEL = "openai:gpt-4o-mini";

/** Cancels a run left live by a test, so it does not hold a worker slot for the next one. */
async function cancelIfLive(request: APIRequestContext, runId: string): Promise<void> {
  const response = await request.get(`/api/runs/${runId}`);
  if (!response.ok()) return;
  const { run } = (await response.json()) as { run: { status: string } };
  if (run.status !== "ended" && run.status !== "error") await request.post(`/api/runs/${runId}/cancel`, { data: {} });
}

test("a slow model's text streams into the running node before the step's events land", async ({ page, request }) => {
  const home = new HomePage(page);
  await home.open();
  const runId = await home.startRun({ taskId: "qa-builtin-01", strategy: "reflexion", model: SLOW_MODEL });
  const run = new RunPage(page);
  try {
    // The first Actor call: its node appears with the call, then fills word by word.
    const live = run.liveCall(1).first();
    await expect(live).toBeVisible();
    const step = Number(await live.getAttribute("data-step"));
    const node = run.liveCall(1, step);
    const thought = page.locator(`[data-testid="node-thought"][data-trial="1"][data-step="${step}"]`);
    await expect(node.getByTestId("live-call-text")).not.toHaveText(/^\s*$/);
    const first = await run.liveText(node);
    // Longer, same beginning, and the step's own nodes not there yet (checked together, at one moment).
    await expect
      .poll(async () => {
        const [now, landed] = await Promise.all([run.liveText(node), thought.count()]);
        return landed === 0 && now.length > first.length && now.startsWith(first);
      })
      .toBe(true);
    await expect(run.callInFlight()).toContainText(`Actor call · trial 1 step ${step}`);
    await page.screenshot({ path: test.info().outputPath("live-node-streaming.png") });

    // When the call's events land, the step's nodes replace the live one.
    await expect(thought).toBeVisible();
    await expect(node).toHaveCount(0);
  } finally {
    await cancelIfLive(request, runId);
  }
});

test("Pause from a second tab takes effect in the first; Cancel from it too", async ({ page, context, request }) => {
  const home = new HomePage(page);
  await home.open();
  const runId = await home.startRun({ taskId: "qa-builtin-02", strategy: "reflexion", model: SLOW_MODEL });
  const first = new RunPage(page);
  try {
    await first.recordStatuses();
    const secondTab = await context.newPage();
    await secondTab.goto(`/runs/${runId}`);
    const second = new RunPage(secondTab);
    // Pause while a call is in flight (it has just begun streaming): the pause waits for it.
    await expect(second.liveCall(1).getByTestId("live-call-text")).not.toHaveText(/^\s*$/);
    await second.pauseButton().click();
    // "Pausing…" at once — unless, on a loaded machine, the call already returned and the run is paused.
    await expect(second.pauseButton()).toHaveText(/^(Pausing…|Pause)$/);
    await expect(second.pauseButton()).toBeDisabled();
    await expect(second.status()).toHaveAttribute("data-status", /pausing|paused/);

    // The first tab follows the server: pausing while the call finishes (when it lasts long enough to be seen), then paused.
    await expect(first.status()).toHaveAttribute("data-status", "paused");
    const seen = await first.statusesSeen();
    expect([["running", "pausing", "paused"], ["running", "paused"]]).toContainEqual(seen.slice(seen.indexOf("running")));
    await expect(page.getByTestId("paused-banner")).toContainText("Paused by the user.");
    await expect(page.getByTestId("resume-run")).toBeEnabled();
    await expect(first.pauseButton()).toHaveText("Pause");
    await expect(first.callInFlight()).toHaveCount(0);
    await expect(second.status()).toHaveAttribute("data-status", "paused");

    // Resume here, cancel there: both tabs end as cancelled.
    await page.getByTestId("resume-run").click();
    await expect(second.status()).toHaveAttribute("data-status", /queued|running/);
    await second.cancel();
    await expect(first.status()).toHaveAttribute("data-status", "ended");
    await expect(page.getByTestId("ended-banner")).toHaveText("The run was cancelled.");
    await expect(second.status()).toHaveAttribute("data-status", "ended");
    await secondTab.close();
  } finally {
    await cancelIfLive(request, runId);
  }
});

test("Cancel stops a model call that never answers, even while a pause waits for it", async ({ page, request }) => {
  const home = new HomePage(page);
  await home.open();
  const runId = await home.startRun({ taskId: "qa-builtin-03", strategy: "reflexion", model: HANGING_MODEL });
  const run = new RunPage(page);
  try {
    // The call is in flight and the header counts its seconds.
    await expect(run.callInFlight()).toContainText("Actor call · trial 1 step 1");
    await expect.poll(() => run.callSeconds()).toBeGreaterThanOrEqual(2);
    await expect(run.liveCall(1, 1).getByTestId("live-call-state")).toHaveText("waiting…");

    // A pause can only wait for the call to return, which it never does …
    await run.pauseButton().click();
    await expect(run.pauseButton()).toHaveText("Pausing…");
    await expect(run.pauseButton()).toBeDisabled();
    await expect(run.status()).toHaveAttribute("data-status", "pausing");
    // … but Cancel is never disabled while the run is live: it aborts the call.
    await expect(run.cancelButton()).toBeEnabled();
    await page.screenshot({ path: test.info().outputPath("hanging-call-pausing.png") });
    await run.cancel();
    await expect(run.status()).toHaveAttribute("data-status", "ended", { timeout: 10_000 });
    await expect(page.getByTestId("ended-banner")).toHaveText("The run was cancelled.");
    await expect(run.callInFlight()).toHaveCount(0);
    await expect(run.liveCall(1)).toHaveCount(0);
    await expect(run.cancelButton()).toBeDisabled();
  } finally {
    await cancelIfLive(request, runId);
  }
});
