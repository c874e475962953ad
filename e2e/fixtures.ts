import { expect, test as base } from "@playwright/test";

/**
 * `test` with automatic checks: every request the page makes stays on this
 * machine (no CDN, no web fonts, no telemetry): the app must work offline.
 */
export const test = base.extend<{ offsiteRequests: string[]; cspViolations: string[] }>({
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
});

export { expect };
