import { defineConfig } from "@playwright/test";

const PORT = 3123;

/**
 * End-to-end journeys against the production build, on the system Chromium
 * (no browser download), with a fresh database per run and the offline demo model.
 */
export default defineConfig({
  testDir: "e2e",
  timeout: 90_000,
  expect: { timeout: 20_000 },
  retries: 0,
  workers: 1,
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
    },
  },
  webServer: {
    command: `rm -f .data/e2e.sqlite* && node_modules/.bin/next start -p ${PORT} -H 127.0.0.1`,
    url: `http://127.0.0.1:${PORT}/api/models`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      NEXT_TELEMETRY_DISABLED: "1",
      REFLEXION_DB_PATH: ".data/e2e.sqlite",
      // The journeys use the demo model; make sure a developer's keys are not picked up.
      OPENAI_API_KEY: "",
      ANTHROPIC_API_KEY: "",
      OPENAI_COMPATIBLE_BASE_URL: "",
    },
  },
});
