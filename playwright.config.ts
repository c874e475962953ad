import { defineConfig } from "@playwright/test";

/**
 * The app's port; the two fake model servers take the next two. `E2E_PORT`
 * lets two checkouts on one machine run their journeys at the same time.
 */
const PORT = Number(process.env.E2E_PORT ?? 3123);
/** A slow OpenAI-compatible fake model (one word every 150 ms): `compatible:fake-model` in the app. */
export const SLOW_MODEL_PORT = PORT + 1;
/** A fake model server that accepts every request and never answers: the `openai:*` models in the app. */
export const HANGING_MODEL_PORT = PORT + 2;

const fakeModelServer = (port: number, flags: string) => ({
  command: `node_modules/.bin/tsx tests/helpers/fake-openai-server-main.ts --port ${port} ${flags}`,
  url: `http://127.0.0.1:${port}/v1/models`,
  reuseExistingServer: false,
  timeout: 60_000,
});

/**
 * End-to-end journeys against the production build, on the system Chromium
 * (no browser download), with a fresh database per run. The journeys use the
 * offline demo model (they pick it in the form); two fake model servers on
 * 127.0.0.1 stand in for a slow local model and for a model server that stopped
 * answering (e2e/live-calls.spec.ts).
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
  webServer: [
    fakeModelServer(SLOW_MODEL_PORT, "--chunk-delay-ms 150"),
    fakeModelServer(HANGING_MODEL_PORT, "--hang-requests 1000000"),
    {
      command: `rm -f .data/e2e.sqlite* && node_modules/.bin/next start -p ${PORT} -H 127.0.0.1`,
      url: `http://127.0.0.1:${PORT}/api/models`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        NEXT_TELEMETRY_DISABLED: "1",
        REFLEXION_DB_PATH: ".data/e2e.sqlite",
        // A developer's keys are never picked up: the only model servers are the fakes above.
        ANTHROPIC_API_KEY: "",
        OPENAI_COMPATIBLE_BASE_URL: `http://127.0.0.1:${SLOW_MODEL_PORT}/v1`,
        OPENAI_COMPATIBLE_MODEL: "fake-model",
        OPENAI_COMPATIBLE_API_KEY: "",
        OPENAI_API_KEY: "e2e-not-a-key",
        OPENAI_BASE_URL: `http://127.0.0.1:${HANGING_MODEL_PORT}/v1`,
      },
    },
  ],
});
