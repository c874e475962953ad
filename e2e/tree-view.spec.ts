import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./fixtures";

/**
 * The LATS search tree view (components/tree-search) on the stress page's tree mode
 * (`/stress?tree=N`: a synthetic tree from lib/graph/stress-tree.ts, no server data).
 */

const tree = (page: Page) => page.getByTestId("search-tree");
const drawnNodes = (page: Page) => tree(page).locator(".react-flow__node");

/** A point (page px) over the tree's empty pane, not over a node, the legend or the controls. */
async function emptyPanePoint(page: Page): Promise<{ x: number; y: number }> {
  const point = await page.evaluate(() => {
    const pane = document.querySelector('[data-testid="search-tree"] .react-flow__pane');
    if (!pane) return null;
    const box = pane.getBoundingClientRect();
    for (let y = box.top + box.height * 0.3; y < box.bottom - 140; y += 17) {
      for (let x = box.left + box.width * 0.3; x < box.right - 170; x += 23) {
        if (document.elementFromPoint(x, y) === pane) return { x, y };
      }
    }
    return null;
  });
  if (!point) throw new Error("no empty spot on the pane to drag from");
  return point;
}

/** A drawn node (not the root) whose collapse toggle is fully in view (clear of the legend, the controls and the mini map). */
async function toggleInView(page: Page): Promise<{ id: string; descendants: number }> {
  const found = await page.evaluate(() => {
    const pane = document.querySelector('[data-testid="search-tree"] .react-flow__pane')!.getBoundingClientRect();
    const legend = document.querySelector('[data-testid="tree-legend"]')?.getBoundingClientRect();
    for (const node of document.querySelectorAll<HTMLElement>('[data-testid="search-tree"] [data-testid="tree-node"]')) {
      if (node.dataset.depth === "0") continue;
      const toggle = node.querySelector<HTMLElement>('[data-testid="tree-collapse"]');
      if (!toggle) continue;
      const box = toggle.getBoundingClientRect();
      const clear = box.left >= pane.left + 10 && box.right <= pane.right - 170 && box.top >= pane.top + 10 && box.bottom <= pane.bottom - 130;
      const underLegend = legend && box.left < legend.right && box.top < legend.bottom;
      if (clear && !underLegend) return { id: node.dataset.nodeId!, descendants: Number(toggle.dataset.descendants) };
    }
    return null;
  });
  if (!found) throw new Error("no collapsible node in view");
  return found;
}

/**
 * With every node drawn (the whole tree in view): a node below the root with at least two nodes
 * under it, and the ids of all of them, read from the drawn nodes' `data-parent`.
 */
async function subtreeFromPage(page: Page): Promise<{ id: string; children: string[]; descendants: string[] }> {
  const found = await page.evaluate(() => {
    const childrenOf = new Map<string, string[]>();
    const nodes = [...document.querySelectorAll<HTMLElement>('[data-testid="search-tree"] [data-testid="tree-node"]')];
    for (const node of nodes) {
      const parent = node.dataset.parent;
      if (parent) childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), node.dataset.nodeId!]);
    }
    const under = (id: string): string[] => (childrenOf.get(id) ?? []).flatMap((child) => [child, ...under(child)]);
    for (const node of nodes) {
      const id = node.dataset.nodeId!;
      if (node.dataset.depth === "0") continue;
      const descendants = under(id);
      if (descendants.length >= 2) return { id, children: childrenOf.get(id)!, descendants };
    }
    return null;
  });
  if (!found) throw new Error("no node with a subtree of two or more");
  return found;
}

/** Fits the whole tree in view (the controls' fit-view button): with it all in view, every node is drawn. */
async function showWholeTree(page: Page, total: number): Promise<void> {
  await tree(page).locator(".react-flow__controls-fitview").click();
  await expect(drawnNodes(page)).toHaveCount(total);
}

test.describe("the search tree view (stress page, tree mode)", () => {
  test("a 300-node tree renders its nodes and pans and zooms", async ({ page }) => {
    await page.goto("/stress?tree=300");
    const status = page.getByTestId("tree-status");
    await expect(status).toHaveAttribute("data-total", "300");
    await expect(status).toHaveAttribute("data-shown", "300");
    await expect(drawnNodes(page).first()).toBeVisible();
    // Only what is in view is rendered (over 250 nodes), but the view is not empty.
    const rendered = await drawnNodes(page).count();
    expect(rendered).toBeGreaterThan(3);
    expect(rendered).toBeLessThan(300);
    await expect(tree(page).locator('[data-testid="tree-node"][data-node-id="root"]')).toBeVisible();
    // The legend is folded (it would cover a small tree's root) and opens on demand.
    await expect(page.getByTestId("tree-legend")).toBeHidden();
    await page.getByTestId("tree-legend-toggle").locator("summary").click();
    await expect(page.getByTestId("tree-legend")).toBeVisible();
    await page.getByTestId("tree-legend-toggle").locator("summary").click();

    const viewport = tree(page).locator(".react-flow__viewport");
    const before = await viewport.getAttribute("style");
    const start = await emptyPanePoint(page);
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(start.x + 250, start.y - 150, { steps: 12 });
    await page.mouse.up();
    await expect(viewport).not.toHaveAttribute("style", before ?? "");
    const panned = await viewport.getAttribute("style");
    // Panning moves, it does not zoom; then the wheel zooms out.
    expect(panned?.match(/scale\(([^)]+)\)/)?.[1]).toBe(before?.match(/scale\(([^)]+)\)/)?.[1]);
    const over = await emptyPanePoint(page);
    await page.mouse.move(over.x, over.y);
    await page.mouse.wheel(0, 400);
    await expect(viewport).not.toHaveAttribute("style", panned ?? "");
    await expectAccessible(page, "/stress?tree=300");
  });

  test("collapsing a node hides its subtree and shows how many nodes it hides; expanding brings them back", async ({ page }) => {
    await page.goto("/stress?tree=300");
    await expect(drawnNodes(page).first()).toBeVisible();
    const status = page.getByTestId("tree-status");

    // With the mouse, at the opening zoom: the node says what it hides, the bar counts it, the node stays in view.
    const clicked = await toggleInView(page);
    const node = tree(page).locator(`[data-testid="tree-node"][data-node-id="${clicked.id}"]`);
    await node.getByTestId("tree-collapse").click();
    await expect(node.getByTestId("tree-hidden-count")).toHaveText(`+${clicked.descendants} hidden`);
    await expect(node.getByTestId("tree-hidden-count")).toBeVisible();
    await expect(node).toHaveAttribute("data-collapsed", "true");
    await expect(status).toHaveAttribute("data-shown", String(300 - clicked.descendants));
    await expect(status).toContainText(`${clicked.descendants} hidden in 1 collapsed subtree`);
    await expect(node).toBeInViewport();
    await node.getByTestId("tree-collapse").click();
    await expect(status).toHaveAttribute("data-shown", "300");

    // With the keyboard, the whole tree in view (every node drawn): exactly the subtree leaves the page.
    await showWholeTree(page, 300);
    const target = await subtreeFromPage(page);
    await tree(page).locator(`.react-flow__node[data-id="${target.id}"]`).focus();
    await page.keyboard.press("ArrowLeft");
    await expect(status).toHaveAttribute("data-shown", String(300 - target.descendants.length));
    await expect(drawnNodes(page)).toHaveCount(300 - target.descendants.length);
    for (const id of target.descendants) await expect(tree(page).locator(`.react-flow__node[data-id="${id}"]`)).toHaveCount(0);
    await expect(tree(page).locator(`[data-testid="tree-node"][data-node-id="${target.id}"] [data-testid="tree-hidden-count"]`)).toHaveText(`+${target.descendants.length} hidden`);
    await page.keyboard.press("ArrowRight");
    await expect(status).toHaveAttribute("data-shown", "300");
    for (const id of target.children) await expect(tree(page).locator(`.react-flow__node[data-id="${id}"]`)).toHaveCount(1);
  });

  test("a node focused with the keyboard and selected with Enter or Space shows its details", async ({ page }) => {
    await page.goto("/stress?tree=300");
    await expect(drawnNodes(page).first()).toBeVisible();
    await expect(page.getByTestId("tree-node-details")).toContainText("Select a node");

    await showWholeTree(page, 300);
    const target = await subtreeFromPage(page);
    const element = tree(page).locator(`.react-flow__node[data-id="${target.id}"]`);
    const action = await element.locator("p.font-mono").textContent();
    await element.focus();
    await page.keyboard.press("Enter");
    const details = page.getByTestId("tree-node-details");
    await expect(details).toHaveAttribute("data-node-id", target.id);
    await expect(details.getByTestId("tree-detail-action")).toHaveText(`Action${action}`);
    for (const field of ["thought", "observation", "estimate", "value", "visits", "terminal", "reflection"]) await expect(details.getByTestId(`tree-detail-${field}`)).toBeVisible();
    // The selected node's path is highlighted, the node itself outlined.
    await expect(tree(page).locator(`[data-testid="tree-node"][data-node-id="${target.id}"]`)).toHaveAttribute("data-selected", "true");
    await expect(tree(page).locator('[data-testid="tree-node"][data-node-id="root"]')).toHaveAttribute("data-highlighted", "true");
    await expect(tree(page).locator(".react-flow__edge.tree-edge-path").first()).toBeAttached();
    // A path has one node per depth, down to the selected node.
    const depths = await tree(page).locator('[data-testid="tree-node"][data-highlighted="true"]').evaluateAll((nodes) => nodes.map((node) => Number((node as HTMLElement).dataset.depth)));
    expect([...depths].sort((a, b) => a - b)).toEqual(depths.map((_, at) => at).slice(0, depths.length));

    const child = tree(page).locator(`.react-flow__node[data-id="${target.children[0]}"]`);
    await child.focus();
    await page.keyboard.press(" ");
    await expect(details).toHaveAttribute("data-node-id", target.children[0]!);
    await expect(details.getByTestId("tree-detail-value")).toContainText(/\d\.\d\d|–/);
  });

  test("a tree with only the root says the search has not expanded it yet", async ({ page }) => {
    await page.goto("/stress?tree=1");
    await expect(page.getByTestId("tree-empty")).toHaveText("The search has not expanded the root yet.");
    await expect(tree(page).locator(".react-flow__node")).toHaveCount(0);
  });
});

test("a LATS run's page opens on its search tree, with the nodes the run recorded", async ({ page, request }) => {
  const created = await request.post("/api/runs", {
    data: { environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "lats", modelId: "demo", maxTrials: 3, lats: { children: 3 } },
  });
  expect(created.status()).toBe(201);
  const { runId } = (await created.json()) as { runId: string };
  await expect
    .poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { run: { status: string } }).run.status, { timeout: 60_000 })
    .toBe("ended");
  const events = ((await (await request.get(`/api/runs/${runId}/events`)).json()) as { events: Array<{ type: string }> }).events;
  const recorded = events.filter((event) => event.type === "tree-node" || event.type === "step-observation").length;

  await page.goto(`/runs/${runId}`);
  await expect(page.getByRole("tab", { name: "Search tree" })).toHaveAttribute("aria-selected", "true");
  // The tree fills its tab's pane below the node count (a collapsed canvas once left it a 43 px strip).
  await expect
    .poll(async () => {
      const panel = await page.getByTestId("run-tree-panel").boundingBox();
      const canvas = await page.getByTestId("search-tree").boundingBox();
      return panel && canvas ? canvas.height / panel.height : 0;
    })
    .toBeGreaterThan(0.85);
  // Every expansion child and rollout step is a node, plus the root.
  await expect(drawnNodes(page)).toHaveCount(recorded + 1);
  await drawnNodes(page).first().focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("tree-node-details")).toBeVisible();
  // The lanes are one tab away.
  await page.getByRole("tab", { name: "Graph" }).click();
  await expect(page.getByTestId("run-graph-viewport")).toBeVisible();
});

test("the compare view puts a LATS run's search tree beside a Reflexion run on the same task", async ({ page, request }) => {
  const start = async (strategy: string) => {
    const created = await request.post("/api/runs", { data: { environment: "qa", taskSet: "builtin", taskId: "qa-builtin-03", strategy, modelId: "demo", maxTrials: 3 } });
    expect(created.status()).toBe(201);
    const { runId } = (await created.json()) as { runId: string };
    await expect
      .poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { run: { status: string } }).run.status, { timeout: 60_000 })
      .toBe("ended");
    return runId;
  };
  const lats = await start("lats");
  const reflexion = await start("reflexion");
  await page.goto(`/compare?runs=${lats},${reflexion}`);
  const tree = page.locator(`[data-testid="compare-tree"][data-run-id="${lats}"]`);
  await expect(tree.locator(".react-flow__node").first()).toBeVisible();
  await expect(page.getByTestId("compare-trees")).toContainText("is not a tree search");
});
