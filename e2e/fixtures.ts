import AxeBuilder from "@axe-core/playwright";
import { expect, test as base, type Page } from "@playwright/test";
import type { Result } from "axe-core";

/** The axe-core rule tags checked: WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] as const;

/** One line per failing element: rule, impact, the element's selector and axe's summary of what fails. */
function describeViolations(violations: Result[]): string[] {
  return violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id} (${violation.impact ?? "?"}) ${node.target.join(" ")}: ${node.failureSummary?.replace(/\s+/g, " ").trim() ?? violation.help}`),
  );
}

/**
 * The axe-core violations (WCAG 2.1 A and AA rules) of the page as it is now.
 * React Flow's off-screen attribution link and the mini map's SVG are checked
 * like the rest: nothing is excluded.
 */
export async function axeViolations(page: Page): Promise<Result[]> {
  const results = await new AxeBuilder({ page }).withTags([...WCAG_TAGS]).analyze();
  return results.violations;
}

/**
 * Fails the test when axe finds any WCAG 2.1 A/AA violation on the page as it
 * is now (at the end: the journey carries on to its next check); the message
 * lists each failing element. `where` names the moment
 * (`home, dark, 390×844`).
 */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  const violations = await axeViolations(page);
  // Soft: the journey goes on, so one run lists every page's violations; the test still fails.
  expect.soft(describeViolations(violations), `axe (WCAG 2.1 A/AA) violations on ${where}`).toEqual([]);
}

/**
 * `test` with automatic checks: every request the page makes stays on this
 * machine (no CDN, no web fonts, no telemetry): the app must work offline.
 */
export const test = base.extend<{ offsiteRequests: string[]; cspViolations: string[]; accessibleAtEnd: void }>({
  offsiteRequests: [
    async ({ page }, use) => {
      const offsite: string[] = [];
      page.on("request", (request) => {
        const url = new URL(request.url());
        const local = ["127.0.0.1", "localhost"].includes(url.hostname) || url.protocol === "data:" || url.protocol === "blob:";
        if (!local) offsite.push(request.url());
      });
      await use(offsite);
      expect(offsite, "requests that left 127.0.0.1").toEqual([]);
    },
    { auto: true },
  ],
  /**
   * And that nothing the app does is refused by its own Content-Security-Policy
   * (lib/security/content-security-policy.js): every journey checks the policy
   * against the real pages, Monaco's worker and React Flow included.
   */
  cspViolations: [
    async ({ page }, use) => {
      const violations: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" && /Content Security Policy|Refused to (load|execute|connect|create|apply|frame)/i.test(message.text())) violations.push(message.text());
      });
      await use(violations);
      expect(violations, "Content-Security-Policy violations").toEqual([]);
    },
    { auto: true },
  ],
  /**
   * And that the page each journey ends on has no axe-core violation of WCAG
   * 2.1 A/AA (journeys call {@link expectAccessible} at the moments in between
   * they want checked). A test that never opened a page is not checked. A
   * failed test is not checked again: its own failure is the one to read.
   */
  accessibleAtEnd: [
    async ({ page }, use, testInfo) => {
      await use();
      if (testInfo.status !== testInfo.expectedStatus || page.isClosed() || !page.url().startsWith("http")) return;
      await page.waitForLoadState("domcontentloaded");
      await expectAccessible(page, `the journey's last page (${new URL(page.url()).pathname})`);
    },
    { auto: true },
  ],
});

export { expect };
