import type { Page } from "@playwright/test";

/**
 * Layout checks of presenter mode (a lesson on a projector or a phone), for e2e/screens.spec.ts:
 * the prediction card is never clipped by an inner scroll, the minimap covers no lane, node and
 * inspector text reads at least 16 px, and the site header is one row. Each returns what it found
 * (numbers, offenders) so the test's message says what is wrong.
 */

/** Containers between the card and the page that scroll (or hide overflow) and are shorter than their content: each clips the card. */
export async function clippingScrollers(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluate((card) => {
    const found: string[] = [];
    for (let element = card.parentElement; element && element !== document.body; element = element.parentElement) {
      const style = getComputedStyle(element);
      if (!/(auto|scroll|hidden)/.test(style.overflowY)) continue;
      // The presenter player itself scrolls as a page on a phone: that is not an inner scroll.
      if (element.dataset.testid === "lesson-player") continue;
      if (element.scrollHeight > element.clientHeight + 1) {
        found.push(`${element.dataset.testid ?? element.tagName.toLowerCase()} (${element.clientHeight} px showing ${element.scrollHeight} px)`);
      }
    }
    return found;
  });
}

/** Boxes of the trial lanes and nodes the minimap overlaps (none when there is no minimap). */
export async function nodesUnderMinimap(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const minimap = document.querySelector(".react-flow__minimap");
    if (!minimap) return [];
    const map = minimap.getBoundingClientRect();
    return [...document.querySelectorAll(".run-graph .react-flow__node")]
      .map((node) => ({ node, box: node.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && box.left < map.right && map.left < box.right && box.top < map.bottom && map.top < box.bottom)
      .map(({ node }) => node.getAttribute("data-id") ?? node.className.toString());
  });
}

/**
 * The smallest text size on screen (px) inside `selector`'s elements: the computed font size times
 * the graph's zoom for graph nodes (16 px text at zoom 0.7 reads 11 px). Monaco editors are left out
 * (they measure their own font). Null when there is no visible text.
 */
export async function smallestText(page: Page, selector: string, zoomed: boolean): Promise<{ px: number; sample: string } | null> {
  return page.evaluate(
    ({ selector, zoomed }) => {
      const viewport = document.querySelector(".run-graph .react-flow__viewport");
      const zoom = zoomed && viewport ? new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a : 1;
      let smallest: { px: number; sample: string } | null = null;
      for (const root of document.querySelectorAll(selector)) {
        for (const element of [root, ...root.querySelectorAll("*")]) {
          if (element.closest(".monaco-editor")) continue;
          const text = [...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent ?? "").join("").trim();
          if (text === "" || (element as HTMLElement).offsetParent === null) continue;
          const px = parseFloat(getComputedStyle(element).fontSize) * zoom;
          if (!smallest || px < smallest.px) smallest = { px, sample: text.slice(0, 40) };
        }
      }
      return smallest;
    },
    { selector, zoomed },
  );
}

/** The distinct rows (top offsets, rounded to 8 px) the site header's direct children sit on. */
export async function headerRows(page: Page): Promise<number> {
  return page.getByTestId("site-header").evaluate((header) => {
    const tops = [...header.children].filter((child) => (child as HTMLElement).offsetParent !== null).map((child) => {
      const box = child.getBoundingClientRect();
      return Math.round((box.top + box.height / 2) / 16);
    });
    return new Set(tops).size;
  });
}
