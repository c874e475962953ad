import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { expect, test } from "./fixtures";

/**
 * Sharing a run: a run recorded on "another machine" (a fresh database the CLI writes
 * to, with a test key in its environment) is exported as a bundle, dropped onto the app's home
 * page, opens read-only at /shared/<hash> with its provenance, replays recorded with zero model
 * calls, and exports again from the UI; a tampered bundle is refused and imports nothing.
 * With DOCS_SCREENSHOTS=1 it writes the docs' picture of a bundle being opened.
 */

const screenshots = process.env.DOCS_SCREENSHOTS === "1";
let bundlePath = "";
let runId = "";

test.beforeAll(() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bundle-e2e-"));
  const env = { ...process.env, REFLEXION_DB_PATH: path.join(dir, "other-machine.sqlite"), OPENAI_API_KEY: "sk-test-e2e-bundle-key-123" };
  const cli = (...args: string[]) => execFileSync("node_modules/.bin/tsx", ["bin/cli.ts", ...args], { env, encoding: "utf8" });
  cli("run", "--tasks", "builtin", "--task-id", "qa-builtin-01", "--strategy", "reflexion", "--model", "demo");
  runId = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(cli("runs"))?.[0] ?? "";
  bundlePath = path.join(dir, "lecture-run.reflexion.json.gz");
  cli("export", "--run", runId, "--out", bundlePath);
  expect(gunzipSync(fs.readFileSync(bundlePath)).toString("utf8")).not.toContain("sk-test-e2e-bundle-key-123");
});

/** Drops `bytes` as a file named `name` onto the home page's drop zone, as a person dragging it from their desktop would. */
async function dropFile(page: import("@playwright/test").Page, bytes: Buffer, name: string) {
  const dataTransfer = await page.evaluateHandle(
    ({ base64, fileName }) => {
      const transfer = new DataTransfer();
      const binary = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      transfer.items.add(new File([binary], fileName, { type: "application/gzip" }));
      return transfer;
    },
    { base64: bytes.toString("base64"), fileName: name },
  );
  await page.dispatchEvent('[data-testid="bundle-drop-zone"]', "dragover", { dataTransfer });
  await page.dispatchEvent('[data-testid="bundle-drop-zone"]', "drop", { dataTransfer });
}

test("a tampered bundle dropped on the home page is refused with the reason, and nothing is imported", async ({ page }) => {
  // Format 2 (gzip'd JSON Lines): the run's title changed in its header line, the trailer's hash left as it was.
  const lines = gunzipSync(fs.readFileSync(bundlePath)).toString("utf8").split("\n");
  const at = lines.findIndex((line) => line.startsWith('{"type":"run"'));
  const header = JSON.parse(lines[at] ?? "{}");
  header.run.title = `${header.run.title}!`;
  lines[at] = JSON.stringify(header);
  const { gzipSync } = await import("node:zlib");
  // The new user's window: the home page is taller than 900 px, so an inline message at the page's foot would be out of sight.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/");
  await dropFile(page, gzipSync(Buffer.from(lines.join("\n"))), "tampered.reflexion.json.gz");
  await expect(page.getByTestId("bundle-import-error")).toContainText("changed after it was exported");
  await expect(page.getByTestId("bundle-import-error")).toHaveAttribute("role", "alert");
  await expect(page.getByTestId("bundle-import-error")).toBeInViewport();
  await page.getByTestId("bundle-import-dismiss").click();
  await expect(page.getByTestId("bundle-import-error")).toHaveCount(0);
  expect((await (await page.request.get("/api/bundles")).json()).bundles).toEqual([]);
});

test("a bundle dropped on the home page opens read-only, replays with zero model calls, and exports again", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Open a shared run" })).toBeVisible();
  await dropFile(page, fs.readFileSync(bundlePath), "lecture-run.reflexion.json.gz");

  await expect(page).toHaveURL(/\/shared\/[0-9a-f]{64}$/);
  await expect(page.getByTestId("shared-bundle")).toContainText("Imported bundle · read-only");
  const run = page.getByTestId("shared-run");
  await expect(run).toHaveCount(1);
  await expect(run).toHaveAttribute("data-run-id", runId);
  await expect(run).toContainText("success after 2 trials");
  if (screenshots) await page.screenshot({ path: "docs/screenshot-bundle.png" });
  const sharedUrl = page.url();

  await run.getByTestId("shared-run-link").click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}`));
  await expect(page.getByTestId("recorded-badge")).toContainText("Imported bundle");
  await expect(page.getByTestId("read-only-note")).toContainText("Imported bundle, read-only");
  if (screenshots) await page.screenshot({ path: "docs/screenshot-bundle-run.png" });

  await page.getByTestId("replay-recorded").click();
  await expect(page).toHaveURL(/branch=/);
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "ended", { timeout: 60_000 });
  await expect(page.getByTestId("branch-origin")).toContainText("recorded replay");
  const calls = page.getByTestId("total-calls");
  await expect(calls).toHaveAttribute("data-live", "0");
  await expect(calls).not.toHaveAttribute("data-cached", "0");

  const download = page.waitForEvent("download");
  await page.getByTestId("share-menu").click();
  await page.getByTestId("export-bundle").click();
  const file = await (await download).path();
  const exported = gunzipSync(fs.readFileSync(file)).toString("utf8").trim().split("\n").map((line) => JSON.parse(line));
  expect(exported[0]).toMatchObject({ type: "manifest", format: "reflexion-playground.bundle", formatVersion: 2, subject: { kind: "run", id: runId } });
  expect(exported.at(-1).counts.branches).toBe(2);

  // A link to a moment of the shared run (the run page's deep links) opens that moment.
  const rootBranch = exported.find((line) => line.type === "run").run.rootBranchId;
  await page.goto(`${sharedUrl}?branch=${rootBranch}&cursor=5`);
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}\\?branch=${rootBranch}&cursor=5`));
});
