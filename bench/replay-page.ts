/**
 * Bench: the replay cursor on a page in headless Chromium (decision 0042), the `--page` case of
 * `npm run bench:replay` (needs `npx next build` first). Starts `next start` on `--port` (default
 * 4105), opens `/stress?trials=N&family=household&replay=1` (one synthetic run of ~100,000 events
 * behind a replay cursor: replay folder → graph deriver → RunGraph, as the run page draws a cursor)
 * and moves the cursor through `window.__stressReplay.move`, each move timed from its start to the
 * first frame painted after React committed it. Prints, beside the load average: start / middle /
 * end / just before the end (median and max of `--repeats` moves, alternating with another
 * position) and `--moves` random moves (median, p95, max), ms. Target: ≤ 16 ms at any position.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { median, percentile, waitForServer } from "./graph-bench-support";
import type { StressReplayMove } from "@/app/stress/stress-replay-view";

// Run from the repo root (npm run bench:replay), as bench/graph.bench.ts.
const ROOT = process.cwd();
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"];
const TARGET_MS = 16;

const load = () => os.loadavg().map((value) => value.toFixed(2)).join(" / ");
const fmt = (ms: number) => ms.toFixed(1);

/** Options of the page case: trials of the synthetic run, port, repeats per position, random moves, checkpoint spacing is the folder's default. */
export interface ReplayPageOptions {
  trials: number;
  port: number;
  repeats: number;
  moves: number;
}

/**
 * Runs the page case and prints its table. Never throws for a slow figure; throws only when the
 * build, the server or Chromium is missing or the page does not come up (the message says which).
 */
export async function replayPageBench(options: ReplayPageOptions): Promise<void> {
  if (!existsSync(path.join(ROOT, ".next", "BUILD_ID"))) throw new Error("No production build: run `npx next build` first, then `npm run bench:replay -- --page`.");
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: set CHROMIUM_PATH.`);
  const dataDir = mkdtempSync(path.join(tmpdir(), "replay-page-bench-"));
  const server = spawn(path.join(ROOT, "node_modules", ".bin", "next"), ["start", "-p", String(options.port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", REFLEXION_DB_PATH: path.join(dataDir, "bench.sqlite") },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const baseUrl = `http://127.0.0.1:${options.port}`;
  let browser: Browser | null = null;
  try {
    await waitForServer(`${baseUrl}/stress?trials=1`, server, 60_000);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await page.goto(`${baseUrl}/stress?trials=${options.trials}&family=household&replay=1`, { waitUntil: "load" });
    await page.waitForFunction(() => window.__stressReplay !== undefined, null, { timeout: 180_000 });
    await page.waitForTimeout(1000);
    const events = await page.evaluate(() => window.__stressReplay!.events);
    const move = (at: number): Promise<StressReplayMove> => page.evaluate((target) => window.__stressReplay!.move(target), at);
    console.log(`bench:replay --page — ${baseUrl}/stress?trials=${options.trials}&family=household&replay=1 in headless ${CHROMIUM}; ${events.toLocaleString("en")} events; load average ${load()} (1 / 5 / 15 min), ${os.cpus().length} cores`);
    // Checkpoints are built by the first move past them (once, as on the run page): not a figure of a move.
    await move(events);
    const first = await move(1);
    const rows: string[][] = [["move the cursor to", "median (ms)", "p95 (ms)", "max (ms)", "nodes", `≤ ${TARGET_MS} ms`]];
    const row = (label: string, times: number[], nodes: number) => {
      const p95 = percentile(times, 95);
      rows.push([label, fmt(median(times)), fmt(p95), fmt(Math.max(...times)), nodes.toLocaleString("en"), p95 <= TARGET_MS ? "met" : "not met"]);
    };
    const positions: Array<[string, number]> = [
      ["start (1)", 1],
      ["middle", Math.floor(events / 2)],
      ["end", events],
      ["just before the end (999 events after a checkpoint)", Math.floor((events - 1) / 1000) * 1000 - 1],
    ];
    for (const [label, at] of positions) {
      const times: number[] = [];
      let nodes = 0;
      for (let repeat = 0; repeat < options.repeats; repeat += 1) {
        await move(repeat % 2 === 0 ? Math.floor(events / 3) : events - 1);
        const result = await move(at);
        times.push(result.ms);
        nodes = result.nodes;
      }
      row(label, times, nodes);
    }
    let seed = 42;
    const times: number[] = [];
    let nodes = 0;
    for (let index = 0; index < options.moves; index += 1) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      const result = await move(seed % (events + 1));
      times.push(result.ms);
      nodes = Math.max(nodes, result.nodes);
    }
    row(`${options.moves} random positions (nodes: the largest)`, times, nodes);
    const widths = rows[0]!.map((_, column) => Math.max(...rows.map((cells) => cells[column]!.length)));
    console.log(`first move after the checkpoints were built: ${fmt(first.ms)} ms\n`);
    for (const cells of rows) console.log(cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  "));
    console.log(`\nload average ${load()} at the end`);
  } finally {
    await browser?.close();
    server.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  }
}
