import { expect, test } from "./fixtures";

/**
 * Who did what, in the browser (embedded mode: sign-in is off, so the one user is `local`): an edit
 * of a paused run's reflection shows its author in the memory panel, and the audit page lists it by
 * that author, with a link to the run; filtering by action leaves only it.
 */
test("the audit lists an edit by its author, and the memory panel says who edited", async ({ page, request }) => {
  const created = await request.post("/api/runs", {
    data: { environment: "qa", taskSet: "builtin", taskId: "qa-builtin-02", strategy: "reflexion", modelId: "demo", breakpoints: { afterReflection: true } },
  });
  expect(created.status()).toBe(201);
  const { runId } = (await created.json()) as { runId: string };
  const read = async () => (await (await request.get(`/api/runs/${runId}/events`)).json()) as { status: string; events: Array<{ id: string; type: string }>; lastSeq: number };
  await expect.poll(async () => (await read()).status, { timeout: 60_000 }).toBe("paused");
  const { events, lastSeq } = await read();
  const reflection = events.find((event) => event.type === "reflection-end");
  expect(reflection).toBeTruthy();
  const edited = await request.post(`/api/runs/${runId}/edits`, { data: { kind: "reflection", reflectionEventId: reflection!.id, text: "Look up the founder, not the ship.", baseSeq: lastSeq } });
  expect(edited.status()).toBe(200);

  await page.goto(`/runs/${runId}`);
  await page.getByTestId("side-tab-memory").click();
  await expect(page.locator('[data-testid="memory-all"] [data-testid="edited-by"]').first()).toContainText(/^edited by local · \d\d:\d\d$/);

  await page.goto("/admin/audit");
  const rows = page.getByTestId("audit-row");
  await expect(rows.first()).toBeVisible();
  const edit = rows.filter({ hasText: "POST /api/runs/[runId]/edits" });
  await expect(edit).toHaveCount(1);
  await expect(edit).toContainText("local");
  await expect(edit).toContainText("200");
  await expect(edit.getByRole("link", { name: runId })).toHaveAttribute("href", `/runs/${runId}`);

  await page.getByTestId("audit-filter-action").fill("POST /api/runs/[runId]/edits");
  await page.getByTestId("audit-apply").click();
  await expect(rows).toHaveCount(1);
  await expect(page.getByTestId("audit-range")).toHaveText("1–1 of 1");
  await page.getByTestId("audit-filter-user").fill("nobody-here");
  await page.getByTestId("audit-apply").click();
  await expect(page.getByText("No entries match these filters")).toBeVisible();
});
