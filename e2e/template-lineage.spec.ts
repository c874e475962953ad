import type { APIRequestContext, Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures";

/**
 * The lineage view: a template edited from the built-in QA Self-Reflection
 * template, with three versions made through the API (v1 from the built-in,
 * v2 and v3 both edited from v1), drawn as a tree; the keyboard opens a
 * version's diff against its parent, a click does too, leaving the Diff tab
 * raises no error, and "Accept" labels a version. A template with one version
 * shows the empty state.
 */

const path = (templateId: string) => `/api/templates/${encodeURIComponent(templateId)}`;

async function saveText(request: APIRequestContext, templateId: string, body: Record<string, unknown>) {
  const response = await request.post(`${path(templateId)}/versions`, { data: body });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as { template: { id: string }; version: { id: string; number: number; parentId: string | null } };
}

/** Uncaught page errors and console errors from Monaco's model bookkeeping, collected from now on. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" && /TextModel|DiffEditorWidget/.test(message.text())) errors.push(message.text());
  });
  return errors;
}

test("template lineage: three versions as a tree, diff against the parent by keyboard and by click, accept sets a label", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1400, height: 1000 });
  const errors = collectErrors(page);

  const builtIn = (await (await page.request.get(path("qa/reflect"))).json()) as { versions: Array<{ id: string; text: string }> };
  const base = builtIn.versions.at(-1)!;
  const marked = (line: string) => base.text.replace("Reflection:", `${line}\nReflection:`);
  // Saved onto the built-in: a new template whose v1's parent is the built-in version.
  const first = await saveText(page.request, "qa/reflect", { text: marked("Name the failing step."), message: "name the failing step", name: "Lineage journey" });
  expect(first.version).toMatchObject({ number: 1, parentId: base.id });
  const templateId = first.template.id;
  const second = await saveText(page.request, templateId, { text: marked("Name the failing step and the next action."), message: "and the next action", parentId: first.version.id });
  const third = await saveText(page.request, templateId, { text: marked("Name the failing step, briefly."), message: "briefly", parentId: first.version.id });
  expect([second.version.parentId, third.version.parentId]).toEqual([first.version.id, first.version.id]);

  await page.goto(`/templates/${encodeURIComponent(templateId)}`);
  await expect(page.getByTestId("template-workbench")).toHaveAttribute("data-template-id", templateId);
  await page.getByTestId("template-tab-lineage").click();
  const lineage = page.getByTestId("template-lineage");
  await expect(lineage).toHaveAttribute("data-versions", "3");
  await expect(lineage.getByTestId("lineage-node")).toHaveCount(3);
  // The built-in it was edited from stands above v1; edges: built-in → v1, v1 → v2, v1 → v3.
  await expect(lineage.getByTestId("lineage-external")).toHaveAttribute("data-version-id", base.id);
  await expect(lineage.locator(".react-flow__edge")).toHaveCount(3);
  await expect(lineage.locator(`.react-flow__edge[data-id="${first.version.id}->${second.version.id}"]`)).toBeAttached();
  await expect(lineage.locator(`.react-flow__edge[data-id="${first.version.id}->${third.version.id}"]`)).toBeAttached();
  const node = (versionId: string) => lineage.locator(`[data-testid="lineage-node"][data-version-id="${versionId}"]`);
  await expect(node(second.version.id)).toContainText("v2");
  await expect(node(second.version.id)).toContainText("and the next action");
  await expect(node(second.version.id).getByTestId("lineage-score")).toHaveText("not measured");
  await expectAccessible(page, "the lineage tab");

  // Keyboard: a focused node opens its diff against its parent with Enter.
  await lineage.locator(`.react-flow__node[data-id="${second.version.id}"]`).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("template-tab-diff")).toHaveAttribute("aria-selected", "true");
  const diff = page.getByTestId("template-diff");
  await expect(diff).toHaveAttribute("data-left", first.version.id);
  await expect(diff).toHaveAttribute("data-right", second.version.id);
  await expect(diff.locator(".editor.modified .view-lines")).toContainText("and the next action");
  await expect(diff.locator(".editor.original .view-lines")).not.toContainText("and the next action");

  // Leaving the Diff tab disposes Monaco's diff editor without an error.
  await page.getByTestId("template-tab-lineage").click();
  await expect(lineage.getByTestId("lineage-node")).toHaveCount(3);
  await page.waitForTimeout(500);
  expect(errors, "page errors after leaving the Diff tab").toEqual([]);

  // One click: v3 against v1.
  await node(third.version.id).getByTestId("lineage-diff").click();
  await expect(diff).toHaveAttribute("data-left", first.version.id);
  await expect(diff).toHaveAttribute("data-right", third.version.id);
  await expect(diff.locator(".editor.modified .view-lines")).toContainText("briefly");
  await page.getByTestId("template-tab-lineage").click();

  // Accept = point the label "accepted" at the version.
  await node(third.version.id).getByTestId("lineage-accept").click();
  await expect(node(third.version.id).getByTestId("lineage-label")).toHaveText("accepted");
  await expect(node(third.version.id).getByTestId("lineage-accept")).toBeDisabled();
  const detail = (await (await page.request.get(path(templateId))).json()) as { template: { labels: Record<string, string> } };
  expect(detail.template.labels).toEqual({ accepted: third.version.id });

  // Keyboard: A on a focused node accepts it; the node is one Tab stop (its buttons are for the pointer).
  await lineage.locator(`.react-flow__node[data-id="${second.version.id}"]`).focus();
  await page.keyboard.press("a");
  await expect(node(second.version.id).getByTestId("lineage-label")).toHaveText("accepted");
  await expect(node(third.version.id).getByTestId("lineage-label")).toHaveCount(0);
  await expect(node(second.version.id).getByTestId("lineage-diff")).toHaveAttribute("tabindex", "-1");
  await page.waitForTimeout(300);
  expect(errors, "page errors").toEqual([]);
});

test("template lineage: one version shows how the tree grows", async ({ page }) => {
  const created = await page.request.post("/api/templates", {
    data: { name: "Lonely", family: "qa", role: "reflector", strategy: "reflexion", text: "Reflect on {question}{scratchpad} given {feedback}.", allowUnknown: true },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { template } = (await created.json()) as { template: { id: string } };
  await page.goto(`/templates/${encodeURIComponent(template.id)}`);
  await page.getByTestId("template-tab-lineage").click();
  await expect(page.getByTestId("template-lineage")).toHaveAttribute("data-versions", "1");
  await expect(page.getByTestId("template-lineage")).toContainText("Only one version — save an edit or run the optimiser to grow the tree");
});
