import { expect, test as base } from "@playwright/test";

/**
 * `test` with an automatic check that every request the page makes stays on this
 * machine (no CDN, no web fonts, no telemetry): the app must work offline.
 */
export const test = base.extend<{ offsiteRequests: string[] }>({
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
});

export { expect };
