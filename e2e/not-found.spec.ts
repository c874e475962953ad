import { expect, test } from "./fixtures";

/**
 * An unknown id answers HTTP 404 (Next's notFound(), lib/server/page-lookup.ts), and the page
 * still says what to do. The run page has a loading.tsx: its check sits in the layout, above it.
 */
const cases = [
  { url: "/runs/00000000-0000-4000-8000-000000000000", title: "Run not found", link: "Back to all runs" },
  { url: "/lessons/no-such-lesson", title: "Lesson not found", link: "All lessons" },
  { url: "/experiments/no-such-experiment", title: "Experiment not found", link: "All experiments" },
  { url: "/templates/no%2Fsuch-template", title: "Template not found", link: "All templates" },
  { url: `/shared/${"0".repeat(64)}`, title: "This bundle is not in this app yet", link: "Go to the home page to import it" },
];

for (const { url, title, link } of cases) {
  test(`${url} answers 404 and says what to do`, async ({ page }) => {
    const response = await page.goto(url);
    expect(response?.status()).toBe(404);
    await expect(page.getByText(title)).toBeVisible();
    await expect(page.getByRole("link", { name: link })).toBeVisible();
  });
}
