import { expect, expectAccessible, test } from "./fixtures";

/**
 * In-app help: the header's `?` opens the guide section for the page (lib/help/help-map.ts),
 * rendered from docs/guides at build time; the empty list's "How to …" link opens the same
 * section. The help page has one h1 and passes axe in the light and the dark theme.
 */
test("the ? on the experiments page opens the comparing-methods guide at its experiments section", async ({ page }) => {
  await page.goto("/experiments");
  const help = page.getByRole("link", { name: "Help: Comparing methods" });
  await expect(help).toBeVisible();

  // Keyboard: the link is a Tab stop in the header, and Enter follows it.
  for (let presses = 0; presses < 40 && !(await help.evaluate((element) => element === document.activeElement)); presses += 1) await page.keyboard.press("Tab");
  await expect(help).toBeFocused();
  await page.keyboard.press("Enter");

  await expect(page).toHaveURL(/\/help\/comparing-methods#1-an-experiment-tasks--arms--trials$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Comparing methods");
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
  // An attribute selector: a CSS #id cannot start with a digit, GitHub's anchors can.
  const section = page.locator('[id="1-an-experiment-tasks--arms--trials"]');
  await expect(section).toHaveText("1. An experiment: tasks × arms × trials");
  await expect(section).toBeInViewport();
  // A link to another guide stays in the app; a reference page is named by its path in the project.
  await expect(page.getByRole("link", { name: "running-a-lab.md" })).toHaveAttribute("href", "/help/running-a-lab");
  await expect(page.getByTestId("help-guide").getByText("docs/statistics.md").first()).toBeVisible();
  await expectAccessible(page, "help: comparing methods, light");

  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await expectAccessible(page, "help: comparing methods, dark");
});

test("the empty experiments list links to how to run one; the help index lists every guide; an unknown guide is a 404", async ({ page }) => {
  // The specs share one server and database, so whether the list is empty depends on which ran
  // before: the list's API answers with no experiment here, which is what a fresh install shows.
  await page.route(/\/api\/experiments(\?.*)?$/, (route) => route.fulfill({ json: { experiments: [] } }));
  await page.goto("/experiments");
  const howTo = page.getByRole("link", { name: "How to run an experiment" });
  await expect(howTo).toBeVisible();
  await howTo.click();
  await expect(page).toHaveURL(/\/help\/comparing-methods#1-an-experiment-tasks--arms--trials$/);

  await page.goto("/help");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Help");
  await expect(page.getByTestId("help-guides").getByRole("link")).toHaveText(["Teaching with the playground", "Tuning prompt templates", "Comparing methods", "Running a lab", "Contributing"]);
  await page.getByRole("link", { name: "Tuning prompt templates" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tuning prompt templates");

  const response = await page.goto("/help/no-such-guide");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("Page not found")).toBeVisible();
});

test("a guide's screenshots load from docs/ in the app; the image route serves nothing else", async ({ page }) => {
  await page.goto("/help/teaching");
  const screenshot = page.getByTestId("help-guide").getByRole("img", { name: /^Presenter mode: the QA lesson at step 4 of 10/ });
  await expect(screenshot).toHaveAttribute("src", "/help/images/images/presenter-mode.png");
  await expect(screenshot).toHaveAttribute("loading", "lazy");
  // Lazy: the image is fetched once it nears the viewport, so bring it there before reading its size.
  await screenshot.scrollIntoViewIfNeeded();
  await expect.poll(() => screenshot.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(0);
  await expect(page.getByTestId("help-guide").getByText("[Screenshot:")).toHaveCount(0);
  await expectAccessible(page, "help: teaching, with its screenshots");

  const png = await page.request.get("/help/images/images/presenter-mode.png");
  expect(png.status()).toBe(200);
  expect(png.headers()["content-type"]).toBe("image/png");
  expect(png.headers()["x-content-type-options"]).toBe("nosniff");
  const svg = await page.request.get("/help/images/images/experiment-bands.svg");
  expect(svg.headers()["content-type"]).toBe("image/svg+xml");
  // The image policy replaces the app-wide one (next.config.js), whose inline scripts an SVG opened on its own must not get.
  expect(svg.headers()["content-security-policy"]).toContain("sandbox");
  expect(svg.headers()["content-security-policy"]).not.toContain("script-src");
  for (const refused of ["/help/images/guides/teaching.md", "/help/images/%2e%2e/package.json", "/help/images/images/..%2f..%2fpackage.json", "/help/images/images/no-such-screenshot.png"]) {
    expect((await page.request.get(refused)).status(), refused).toBe(404);
  }
});
