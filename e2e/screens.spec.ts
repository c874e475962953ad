import { copyFileSync, mkdirSync } from "node:fs";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures";
import { clippingScrollers, headerRows, nodesUnderMinimap, smallestText } from "./presenter-checks";

/**
 * Every screen: the run page and the other pages at a phone
 * (390×844), a projector (1280×720) and a laptop (1440×900), in the light and
 * the dark theme (the system setting, emulated): no horizontal scroll, and the
 * Branches panel never covers a trial lane's header. Screenshots go to
 * test-results/screens/ (docs/images/phone-layout.png and dark-theme.png are
 * copies of two of them, written with DOCS_SCREENSHOTS=1). On every page, in
 * both themes and at the three sizes, axe-core finds no WCAG 2.1 A/AA violation
 * (the run page in its Graph and Transcript views, a lesson, the phone panes).
 */

const VIEWPORTS = [
  { name: "phone", width: 390, height: 844 },
  { name: "projector", width: 1280, height: 720 },
  { name: "laptop", width: 1440, height: 900 },
] as const;
const THEMES = ["light", "dark"] as const;
const SHOTS = "test-results/screens";
const screenshots = process.env.DOCS_SCREENSHOTS === "1";
/** The docs' copies: the run page (the forked run) on a phone in the light theme, on a projector in the dark one. */
const DOCS_COPIES: Record<string, string> = { "run-phone-light": "docs/images/phone-layout.png", "run-projector-dark": "docs/images/dark-theme.png" };

/** Creates a demo run through the API and waits until it has ended. */
async function endedRun(request: APIRequestContext, taskId: string, environment = "qa", strategy = "reflexion", maxTrials?: number): Promise<string> {
  const created = await request.post("/api/runs", { data: { environment, taskSet: "builtin", taskId, strategy, modelId: "demo", ...(maxTrials ? { maxTrials } : {}) } });
  expect(created.status()).toBe(201);
  const { runId } = (await created.json()) as { runId: string };
  await expect
    .poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { run: { status: string } }).run.status, { timeout: 60_000 })
    .toBe("ended");
  return runId;
}

async function noHorizontalScroll(page: Page, where: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth, `${where}: page wider than the window`).toBeLessThanOrEqual(innerWidth);
}

/** No lane header (the trial nodes) intersects the Branches panel. */
async function branchesCoverNoLane(page: Page) {
  const panel = await page.getByTestId("branch-tree-card").boundingBox();
  expect(panel).not.toBeNull();
  const headers = page.locator('[data-testid="node-trial"]');
  const count = await headers.count();
  expect(count).toBeGreaterThan(0);
  for (let index = 0; index < count; index += 1) {
    const box = await headers.nth(index).boundingBox();
    if (!box || !panel) continue;
    const overlaps = box.x < panel.x + panel.width && panel.x < box.x + box.width && box.y < panel.y + panel.height && panel.y < box.y + box.height;
    expect(overlaps, `lane header ${index + 1} is covered by the Branches panel`).toBe(false);
  }
}

let runId = "";
let forkedRunId = "";

test.beforeAll(async ({ request }) => {
  runId = await endedRun(request, "qa-builtin-02");
  // A run with a fork: the Branches panel lists two branches.
  forkedRunId = await endedRun(request, "qa-builtin-05");
  const events = ((await (await request.get(`/api/runs/${forkedRunId}/events?after=0`)).json()) as { events: Array<{ type: string; seq: number }> }).events;
  const checkpoint = events.find((event) => event.type === "checkpoint" && event.seq > 1);
  expect(checkpoint).toBeDefined();
  const fork = await request.post(`/api/runs/${forkedRunId}/fork`, { data: { atSeq: checkpoint!.seq, replay: "recorded" } });
  expect(fork.status()).toBe(201);
});

for (const viewport of VIEWPORTS) {
  for (const theme of THEMES) {
    test(`${viewport.name} ${viewport.width}×${viewport.height}, ${theme}: run page and home fit, Branches cover no lane, every page passes axe`, async ({ page }) => {
      test.setTimeout(300_000);
      mkdirSync(SHOTS, { recursive: true });
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.emulateMedia({ colorScheme: theme });

      await page.goto("/");
      await expect(page.getByTestId("start-run")).toBeVisible();
      await expect(page.locator("html")).toHaveClass(theme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
      await noHorizontalScroll(page, "home");
      const at = `${theme}, ${viewport.width}×${viewport.height}`;
      await expectAccessible(page, `home, ${at}`);
      await page.screenshot({ path: `${SHOTS}/home-${viewport.name}-${theme}.png` });

      for (const id of [runId, forkedRunId]) {
        await page.goto(`/runs/${id}`);
        await expect(page.locator('[data-testid="node-trial"]').first()).toBeVisible();
        await expect(page.getByTestId("branch-tree-card")).toBeVisible();
        await noHorizontalScroll(page, `run ${id}`);
        await branchesCoverNoLane(page);
        if (viewport.width < 1024) {
          // Phone: one pane at a time; the tabs switch them.
          await expect(page.getByTestId("mobile-pane-tabs")).toBeVisible();
          await expect(page.getByTestId("run-side-panel")).toBeHidden();
        } else {
          await expect(page.getByTestId("mobile-pane-tabs")).toBeHidden();
          await expect(page.getByTestId("run-side-panel")).toBeVisible();
        }
        await expectAccessible(page, `run page (graph), ${at}`);
      }
      // The same run as a transcript: trials as headed sections, no horizontal scroll.
      await page.getByTestId("run-view-transcript").click();
      await expect(page.getByTestId("run-transcript-panel").getByRole("heading", { level: 3 }).first()).toBeVisible();
      await noHorizontalScroll(page, "run page, transcript");
      await expectAccessible(page, `run page (transcript), ${at}`);
      await page.getByTestId("run-view-graph").click();
      await page.screenshot({ path: `${SHOTS}/run-${viewport.name}-${theme}.png` });
      const docsCopy = DOCS_COPIES[`run-${viewport.name}-${theme}`];
      if (screenshots && docsCopy) copyFileSync(`${SHOTS}/run-${viewport.name}-${theme}.png`, docsCopy);

      if (viewport.width < 1024) {
        // A tap on a node opens its details in the Details pane; Graph comes back.
        await page.locator('[data-testid="node-evaluation"][data-trial="1"]').click();
        await expect(page.getByTestId("run-panes")).toHaveAttribute("data-pane", "details");
        await expect(page.getByTestId("inspector")).toBeVisible();
        await noHorizontalScroll(page, "run page, details pane");
        await expectAccessible(page, `run page, details pane, ${at}`);
        await page.screenshot({ path: `${SHOTS}/run-${viewport.name}-${theme}-details.png` });
        await page.getByTestId("mobile-pane-memory").click();
        await expect(page.getByTestId("side-tab-memory")).toBeVisible();
        await noHorizontalScroll(page, "run page, memory pane");
        await expectAccessible(page, `run page, memory pane, ${at}`);
        await page.getByTestId("mobile-pane-graph").click();
        await expect(page.getByTestId("run-graph-viewport")).toBeVisible();
      }

      // A lesson, at its first step.
      await page.goto("/lessons/why-reflexion-qa");
      await expect(page.getByTestId("lesson-step-counter")).toHaveText(/^Step 1 of/, { timeout: 60_000 });
      await expect(page.locator("[data-spotlight]").first()).toBeVisible();
      await expectAccessible(page, `lesson, ${at}`);

      // The other pages fit too, and pass axe.
      const compare = `/compare?runs=${runId},${forkedRunId}`;
      for (const path of ["/experiments", "/experiments/new", "/templates", "/imports", "/traces", "/reflections", "/lessons", "/settings", compare, "/jobs", "/judge", "/search?q=outcome%3Afailure", "/reviews", "/bundles", "/stress", "/no-such-page"]) {
        const response = await page.goto(path);
        if (response?.status() === 404 && path !== "/no-such-page") continue;
        await page.waitForLoadState("networkidle");
        await noHorizontalScroll(page, path);
        await expectAccessible(page, `${path}, ${at}`);
      }
    });
  }
}

test("the theme toggle overrides the system setting, persists across a reload, and 'system' follows it again", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/");
  await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
  await page.getByTestId("theme-dark").click();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await expect(page.getByTestId("theme-dark")).toHaveAttribute("aria-checked", "true");
  await page.getByTestId("theme-system").click();
  await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
});

test("the tour: the Tour button starts it, the arrow key steps it, Esc skips it", async ({ page }) => {
  await page.goto("/");
  await page.getByTestId("tour-button").click();
  const popover = page.locator(".driver-popover");
  await expect(popover).toBeVisible();
  await expect(popover).toContainText("in one minute");
  // driver.js ignores keys while a step animates in: retry the arrow key until the next step shows.
  await expect(async () => {
    await page.keyboard.press("ArrowRight");
    await expect(popover).toContainText("Where things are", { timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
  await page.keyboard.press("Escape");
  await expect(popover).toBeHidden();
  expect(await page.evaluate(() => window.localStorage.getItem("reflexion-tour-seen"))).not.toBeNull();
});

/**
 * Presenter mode at the three sizes, both themes: the lesson's tallest prediction (the curve, six
 * choices) is never clipped by an inner scroll, the minimap covers no lane (there is none in
 * presenter mode), node text and the inspector read at least 16 px on screen, Esc drops
 * `present=1` from the URL, and the site header is one row at 1440 px.
 */
for (const viewport of VIEWPORTS) {
  for (const theme of THEMES) {
    test(`presenter mode ${viewport.name} ${viewport.width}×${viewport.height}, ${theme}: no clipped card, no covered lane, text ≥ 16 px, Esc drops present=1`, async ({ page }) => {
      test.setTimeout(180_000);
      mkdirSync(SHOTS, { recursive: true });
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.emulateMedia({ colorScheme: theme });
      const lesson = await page.request.post("/api/lessons/why-reflexion-qa/run");
      expect(lesson.ok()).toBe(true);
      const at = `${theme}, ${viewport.width}×${viewport.height}`;

      for (const step of [3, 8]) {
        await page.goto(`/lessons/why-reflexion-qa?step=${step}&present=1`);
        await expect(page.getByTestId("lesson-player")).toHaveAttribute("data-presenter", "true", { timeout: 60_000 });
        const card = page.getByTestId("prediction");
        await expect(card).toBeVisible({ timeout: 60_000 });
        await expect(page.locator('[data-testid="node-trial"]').first()).toBeVisible();
        expect(await clippingScrollers(page, '[data-testid="prediction"]'), `step ${step}, ${at}: the card sits in an inner scroll`).toEqual([]);
        await card.scrollIntoViewIfNeeded();
        const box = await card.boundingBox();
        expect(box, "the card has a box").not.toBeNull();
        expect(box!.y, `step ${step}, ${at}: card top on screen`).toBeGreaterThanOrEqual(0);
        expect(box!.y + box!.height, `step ${step}, ${at}: card bottom on screen`).toBeLessThanOrEqual(viewport.height + 1);
        expect(await nodesUnderMinimap(page), `step ${step}, ${at}: the minimap covers nodes`).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/presenter-${viewport.name}-${theme}-step${step}.png` });
      }

      // Node text on screen (font size × zoom) and the inspector: at least 16 px.
      await page.getByTestId("run-graph").scrollIntoViewIfNeeded();
      const nodeText = await smallestText(page, ".run-graph .react-flow__node", true);
      expect(nodeText, "nodes have text").not.toBeNull();
      expect(nodeText!.px, `${at}: node text "${nodeText!.sample}"`).toBeGreaterThanOrEqual(16);
      if (viewport.width < 1024) await page.getByTestId("mobile-pane-details").click();
      await expect(page.getByTestId("inspector")).toBeVisible();
      const inspectorText = await smallestText(page, '[data-testid="inspector"]', false);
      expect(inspectorText, "the inspector has text").not.toBeNull();
      expect(inspectorText!.px, `${at}: inspector text "${inspectorText!.sample}"`).toBeGreaterThanOrEqual(16);
      await expectAccessible(page, `presenter mode, ${at}`);

      // Esc leaves presenter mode and drops present=1 from the URL; `l` comes back with it.
      await page.keyboard.press("Escape");
      await expect(page.getByTestId("lesson-rail")).toBeVisible();
      await expect(page).not.toHaveURL(/present=1/);
      if (viewport.width === 1440) expect(await headerRows(page), "the site header is one row at 1440 px").toBe(1);
      await page.keyboard.press("l");
      await expect(page.getByTestId("lesson-player")).toHaveAttribute("data-presenter", "true");
      await expect(page).toHaveURL(/present=1/);
    });
  }
}
