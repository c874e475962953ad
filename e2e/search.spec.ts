import { expect, test } from "./fixtures";

test("a query that does not parse: the API answers 400 with the offset, and the search page shows the message under the box", async ({ page }) => {
  const response = await page.request.get("/api/search?q=" + encodeURIComponent("family:qa colour:red"));
  expect(response.status()).toBe(400);
  const body = (await response.json()) as { error: { code: string; message: string; offset: number } };
  expect(body.error).toMatchObject({ code: "invalid-query", offset: 10 });

  await page.goto("/search?q=" + encodeURIComponent("colour:red"));
  await expect(page.getByTestId("query-box-error")).toContainText('unknown field "colour"');
  await expect(page.getByText("Unexpected server error")).toHaveCount(0);
});
