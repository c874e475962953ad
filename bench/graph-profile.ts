/**
 * Where a stress page's first node goes (decision 0042): `npm run bench:graph-profile -- --query
 * "nodes=25000&family=household"` (after `npm run build`). Starts `next start` on a free port
 * (or `--port N`), opens `/stress?<query>` in the system Chromium with the CDP profiler running
 * from navigation until the first node is drawn plus 500 ms, and prints the self time (ms) of the
 * 15 costliest functions with their script, and the total per script, beside the load average.
 * Prints figures and always exits 0.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { freePort, waitForServer } from "./graph-bench-support";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function argument(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
}

/** Self time (ms) by key, costliest first. */
function selfTimes(profile: Profile, keyOf: (node: ProfileNode) => string): Array<[string, number]> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    if (!node) return;
    const key = keyOf(node);
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}

const scriptOf = (node: ProfileNode) => (node.callFrame.url ? (node.callFrame.url.split("/").pop() ?? node.callFrame.url) : "(native / GC / idle)");

async function main(): Promise<void> {
  const query = argument("query", "nodes=25000&family=household");
  const port = Number(argument("port", String(await freePort())));
  const root = process.cwd();
  const dataDir = mkdtempSync(path.join(tmpdir(), "graph-profile-"));
  const server = spawn(path.join(root, "node_modules", ".bin", "next"), ["start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", REFLEXION_DB_PATH: path.join(dataDir, "profile.sqlite") },
    stdio: "ignore",
  });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"], headless: true });
  try {
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForServer(`${baseUrl}/stress?trials=1`, server, 60_000);
    console.log(`bench:graph-profile — /stress?${query}; load average ${os.loadavg().map((value) => value.toFixed(2)).join(" / ")}`);
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
    await page.goto(`${baseUrl}/stress?${query}`, { waitUntil: "load" });
    await page.waitForSelector(".react-flow__node:not(.react-flow__node-lane)", { timeout: 120_000 });
    const firstNodeMs = await page.evaluate(() => performance.now());
    await page.waitForTimeout(500);
    const { profile } = (await cdp.send("Profiler.stop")) as { profile: Profile };
    console.log(`first node seen at ~${Math.round(firstNodeMs)} ms after navigation start\n`);
    console.log("self time by function (ms):");
    for (const [key, ms] of selfTimes(profile, (node) => `${node.callFrame.functionName || "(anonymous)"}  ${scriptOf(node)}:${node.callFrame.lineNumber}`).slice(0, 15)) console.log(`  ${ms.toFixed(0).padStart(6)}  ${key}`);
    console.log("\nself time by script (ms):");
    for (const [key, ms] of selfTimes(profile, scriptOf).slice(0, 10)) console.log(`  ${ms.toFixed(0).padStart(6)}  ${key}`);
  } catch (error) {
    console.log(`bench:graph-profile — could not finish: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await browser.close();
    server.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  () => process.exit(0),
);
