/**
 * Bench: the run graph at scale (DESIGN.md §8). Run from the repo root:
 * `npm run bench:graph` (also the last step of `npm run bench`), after `npm run build`.
 *
 * Starts `next start` on a free port against the production build, opens the stress page
 * (`/stress`, synthetic runs through the real fold, graph deriver and RunGraph; no server
 * data) in the system Chromium, and for a small (2-trial) and a ~1,000-node (24-trial
 * household) run — one run graph; two run graphs side by side; the compare view's trial lanes
 * (components/compare) of two runs — prints:
 *
 * - time to first node (ms after navigation start, the first animation frame in which every
 *   graph on the page shows a node), over fresh page loads;
 * - DOM elements inside the graph containers once the page has settled;
 * - pan/zoom frame time p95 (ms): requestAnimationFrame timestamps recorded in the page (as
 *   xyflow's Stress example does) while Playwright zooms with the mouse wheel and pans by
 *   dragging, the same script for every case (the compare view's lanes are scrolled instead).
 *
 * Targets (printed with the ratios): first node ≤ 1.5× the small run's; frame p95 ≤ 1.25×
 * the small run's and ≤ 34 ms. It prints figures and always exits 0: it is not a test.
 *
 * A third comparison opens the large run with every trial expanded (`collapse=off`), to show
 * what rendering only the visible elements does alone (`--no-expanded` skips it).
 *
 * Two more measure the LATS search tree view (`/stress?tree=N`, components/tree-search): a 30-node
 * tree against 300 and 1,000 nodes, the same pan/zoom script and targets (`--no-tree` skips them,
 * `--tree-only` runs only them).
 *
 * `--nodes N` (e.g. 25000) adds two cases at that size (decision 0042): one household run of ~N
 * graph nodes (`/stress?nodes=N`) against the 2-trial run, and an N-node search tree against the
 * 30-node one; `--nodes-only` runs just those. Every case also prints the tab's JS heap in use
 * (CDP `Runtime.getHeapUsage`, the largest of after settling and after the pan/zoom; MB) against
 * the 300 MB target, and the machine's load average is printed at the start and the end.
 *
 * Each case is loaded `--repeats` times (default 3), small and large alternately; first node
 * and DOM elements are medians, frame p95 is over every recorded frame of every load.
 * Other options: `--trials N` (large case, default 24), `--port N`. The figures move with
 * whatever else the machine is doing: compare runs made at the same time.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import { freePort, median, percentile, waitForServer } from "./graph-bench-support";
// The figures the stress page publishes on `window.__stressGraph` (declared there).
import type { StressFigures } from "@/app/stress/stress-view";

/** What INIT_SCRIPT keeps on `window.__graphBench`. */
interface BenchState {
  firstNode: number | null;
  recording: boolean;
  frames: number[];
}

declare global {
  interface Window {
    __graphBench?: BenchState;
  }
}

const ROOT = process.cwd();
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"];
const VIEWPORT = { width: 1440, height: 900 };

function argument(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
}

interface Case {
  label: string;
  /** The stress page's query string. */
  query: string;
}

interface Figures {
  firstNodeMs: number;
  domElements: number;
  frameP95Ms: number;
  frameMeanMs: number;
  frames: number;
  nodes: number;
  events: number;
  graphMs: number;
  eventsMs: number;
  /** The tab's JS heap in use (MB, CDP Runtime.getHeapUsage): the larger of after settling and after the interaction. */
  heapMB: number;
}

/** The 1, 5 and 15 minute load averages, as printed beside the figures. */
const loadAverage = () => os.loadavg().map((value) => value.toFixed(2)).join(" / ");
/** The tab's JS heap target (MB) for the large cases. */
const HEAP_TARGET_MB = 300;

/**
 * Runs before any page script: records the first animation frame in which every graph on the
 * page shows a (non-lane) node, and keeps a requestAnimationFrame timestamp recorder that the
 * bench switches on around the pan/zoom script.
 */
const INIT_SCRIPT = `(() => {
  const state = { firstNode: null, recording: false, frames: [] };
  window.__graphBench = state;
  const shown = () => {
    const lanes = document.querySelector('[data-testid="trial-lanes"]');
    if (lanes) return lanes.querySelector('[data-testid="lane"]') !== null;
    const graphs = document.querySelectorAll('[data-testid="run-graph"] .react-flow, [data-testid="search-tree"] .react-flow');
    if (graphs.length === 0) return false;
    for (const graph of graphs) {
      const node = graph.querySelector('.react-flow__node:not(.react-flow__node-lane)');
      if (!node || node.style.visibility === 'hidden') return false;
    }
    return true;
  };
  const tick = (timestamp) => {
    if (state.firstNode === null && shown()) state.firstNode = performance.now();
    if (state.recording) state.frames.push(timestamp);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

/** The compare view's lanes scroll like a page: the mouse wheel down the lanes and back up. */
async function scrollLanes(page: Page, box: { x: number; y: number; width: number; height: number }): Promise<void> {
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (const direction of [1, -1]) {
    for (let tick = 0; tick < 15; tick += 1) {
      await page.mouse.wheel(0, direction * 400);
      await page.waitForTimeout(30);
    }
  }
}

/** The same interaction for every graph case: wheel zoom out and in over the graph, then drag-pan around. */
async function panAndZoom(page: Page, box: { x: number; y: number; width: number; height: number }): Promise<void> {
  const centreX = box.x + box.width / 2;
  const centreY = box.y + box.height / 2;
  await page.mouse.move(centreX, centreY);
  for (let tick = 0; tick < 8; tick += 1) {
    await page.mouse.wheel(0, 100);
    await page.waitForTimeout(30);
  }
  for (let tick = 0; tick < 8; tick += 1) {
    await page.mouse.wheel(0, -100);
    await page.waitForTimeout(30);
  }
  const span = Math.min(360, box.width / 3);
  const moves: Array<[number, number]> = [
    [-span, 0],
    [0, -span],
    [span, 0],
    [0, span],
  ];
  for (const [dx, dy] of moves) {
    await page.mouse.move(centreX, centreY);
    await page.mouse.down();
    await page.mouse.move(centreX + dx, centreY + dy, { steps: 30 });
    await page.mouse.up();
  }
}

async function measure(browser: Browser, baseUrl: string, query: string): Promise<Figures & { frameTimes: number[] }> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const heapMB = async () => {
      const usage = (await cdp.send("Runtime.getHeapUsage")) as { usedSize: number };
      return usage.usedSize / 1024 / 1024;
    };
    await page.addInitScript(INIT_SCRIPT);
    await page.goto(`${baseUrl}/stress?${query}`, { waitUntil: "load" });
    await page.waitForFunction(() => (window.__graphBench?.firstNode ?? null) !== null, null, { timeout: 60_000 });
    const firstNodeMs = await page.evaluate(() => window.__graphBench?.firstNode ?? Number.NaN);
    // Let the initial viewport, measuring and any deferred work settle.
    await page.waitForTimeout(800);
    const domElements = await page.evaluate(() => {
      let count = 0;
      for (const graph of document.querySelectorAll('[data-testid="run-graph"], [data-testid="trial-lanes"], [data-testid="search-tree"]')) count += graph.querySelectorAll("*").length;
      return count;
    });
    const stress: StressFigures | undefined = await page.evaluate(() => window.__stressGraph);
    const settledHeap = await heapMB();

    const lanes = page.locator('[data-testid="stress-scroll"]');
    const scrolling = (await lanes.count()) > 0;
    const panes = scrolling ? lanes : page.locator('[data-testid="run-graph"] .react-flow__pane, [data-testid="search-tree"] .react-flow__pane');
    const frames: number[] = [];
    for (let index = 0; index < (await panes.count()); index += 1) {
      const box = await panes.nth(index).boundingBox();
      if (!box) continue;
      await page.evaluate(() => {
        const state = window.__graphBench;
        if (!state) return;
        state.frames = [];
        state.recording = true;
      });
      await (scrolling ? scrollLanes(page, box) : panAndZoom(page, box));
      const timestamps = await page.evaluate(() => {
        const state = window.__graphBench;
        if (!state) return [];
        state.recording = false;
        return state.frames;
      });
      for (let at = 1; at < timestamps.length; at += 1) frames.push(timestamps[at]! - timestamps[at - 1]!);
    }
    const heap = Math.max(settledHeap, await heapMB());
    return {
      firstNodeMs,
      domElements,
      heapMB: heap,
      frameP95Ms: percentile(frames, 95),
      frameMeanMs: frames.reduce((sum, frame) => sum + frame, 0) / Math.max(1, frames.length),
      frames: frames.length,
      frameTimes: frames,
      nodes: stress?.runs.reduce((sum, run) => sum + run.nodes, 0) ?? 0,
      events: stress?.runs.reduce((sum, run) => sum + run.events, 0) ?? 0,
      graphMs: stress?.graphMs ?? Number.NaN,
      eventsMs: stress?.eventsMs ?? Number.NaN,
    };
  } finally {
    await context.close();
  }
}

/** A case's figures over all its page loads: medians, except frame p95, taken over every frame of every load. */
function summarize(runs: Array<Figures & { frameTimes: number[] }>): Figures {
  const pick = (key: keyof Figures) => median(runs.map((run) => run[key]));
  const frameTimes = runs.flatMap((run) => run.frameTimes);
  return {
    firstNodeMs: pick("firstNodeMs"),
    domElements: pick("domElements"),
    frameP95Ms: percentile(frameTimes, 95),
    frameMeanMs: frameTimes.reduce((sum, frame) => sum + frame, 0) / Math.max(1, frameTimes.length),
    frames: frameTimes.length,
    nodes: pick("nodes"),
    events: pick("events"),
    graphMs: pick("graphMs"),
    eventsMs: pick("eventsMs"),
    heapMB: pick("heapMB"),
  };
}

/** Measures the small and the large case alternately (so a busy moment of the machine hits both alike). */
async function measurePair(browser: Browser, baseUrl: string, small: Case, large: Case, repeats: number): Promise<{ small: Figures; large: Figures }> {
  const smallRuns: Array<Figures & { frameTimes: number[] }> = [];
  const largeRuns: Array<Figures & { frameTimes: number[] }> = [];
  for (let repeat = 0; repeat < repeats; repeat += 1) {
    smallRuns.push(await measure(browser, baseUrl, small.query));
    largeRuns.push(await measure(browser, baseUrl, large.query));
  }
  return { small: summarize(smallRuns), large: summarize(largeRuns) };
}

const fmt = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "–");
const verdict = (ok: boolean) => (ok ? "✓" : "✗");

function printComparison(title: string, small: Figures, large: Figures, interaction = "pan/zoom"): void {
  const firstRatio = large.firstNodeMs / small.firstNodeMs;
  const frameRatio = large.frameP95Ms / small.frameP95Ms;
  const rows: string[][] = [
    ["", "small", "large", "ratio", "target"],
    interaction === "scroll"
      ? ["events in the logs", fmt(small.events), fmt(large.events), fmt(large.events / small.events, 1) + "×", ""]
      : ["graph nodes (lib/graph)", fmt(small.nodes), fmt(large.nodes), fmt(large.nodes / small.nodes, 1) + "×", ""],
    [interaction === "scroll" ? "time to first lane (ms)" : "time to first node (ms)", fmt(small.firstNodeMs), fmt(large.firstNodeMs), fmt(firstRatio, 2) + "×", `≤ 1.5× ${verdict(firstRatio <= 1.5)}`],
    ["  first node less building the synthetic logs (ms)", fmt(small.firstNodeMs - small.eventsMs), fmt(large.firstNodeMs - large.eventsMs), fmt((large.firstNodeMs - large.eventsMs) / (small.firstNodeMs - small.eventsMs), 2) + "×", ""],
    ["DOM elements in the graph", fmt(small.domElements), fmt(large.domElements), fmt(large.domElements / small.domElements, 1) + "×", ""],
    ["JS heap in use (MB)", fmt(small.heapMB, 1), fmt(large.heapMB, 1), fmt(large.heapMB / small.heapMB, 1) + "×", `≤ ${HEAP_TARGET_MB} MB ${verdict(large.heapMB <= HEAP_TARGET_MB)}`],
    [`${interaction} frame p95 (ms)`, fmt(small.frameP95Ms, 1), fmt(large.frameP95Ms, 1), fmt(frameRatio, 2) + "×", `≤ 1.25× ${verdict(frameRatio <= 1.25)}, ≤ 34 ms ${verdict(large.frameP95Ms <= 34)}`],
    ["  mean frame (ms)", fmt(small.frameMeanMs, 1), fmt(large.frameMeanMs, 1), fmt(large.frameMeanMs / small.frameMeanMs, 2) + "×", ""],
    ["  frames recorded", fmt(small.frames), fmt(large.frames), "", ""],
    ["  synthetic logs built (ms, not graph)", fmt(small.eventsMs), fmt(large.eventsMs), "", ""],
    [interaction === "scroll" ? "  fold (ms)" : "  fold + derive graph (ms)", fmt(small.graphMs), fmt(large.graphMs), "", ""],
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  console.log(`\n${title}`);
  for (const row of rows) console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  "));
}

async function main(): Promise<void> {
  const buildId = path.join(ROOT, ".next", "BUILD_ID");
  if (!existsSync(buildId)) {
    console.log("bench:graph — no production build in .next: run `npm run build` first. Skipped.");
    return;
  }
  const routes = path.join(ROOT, ".next", "app-path-routes-manifest.json");
  if (existsSync(routes) && !readFileSync(routes, "utf8").includes('"/stress"')) {
    console.log("bench:graph — the production build has no /stress page (it predates it): run `npm run build` again. Skipped.");
    return;
  }
  if (!existsSync(CHROMIUM)) {
    console.log(`bench:graph — no Chromium at ${CHROMIUM} (set CHROMIUM_PATH). Skipped.`);
    return;
  }
  const repeats = Math.max(1, Number(argument("repeats", "3")));
  const largeTrials = Math.max(2, Number(argument("trials", "24")));
  const port = Number(argument("port", String(await freePort())));
  const dataDir = mkdtempSync(path.join(tmpdir(), "graph-bench-"));
  const server = spawn(path.join(ROOT, "node_modules", ".bin", "next"), ["start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", REFLEXION_DB_PATH: path.join(dataDir, "bench.sqlite") },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let serverErrors = "";
  server.stderr?.on("data", (chunk: Buffer) => (serverErrors += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  let browser: Browser | null = null;
  try {
    await waitForServer(`${baseUrl}/stress?trials=1`, server, 60_000);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    const small: Case = { label: "small", query: "trials=2&family=household" };
    const large: Case = { label: "large", query: `trials=${largeTrials}&family=household` };
    // Warm the server's and the browser's caches once; not measured.
    await measure(browser, baseUrl, small.query);
    console.log(
      `bench:graph — next start on :${port}, ${CHROMIUM}, viewport ${VIEWPORT.width}×${VIEWPORT.height}; ${repeats} page loads per case, small and large alternately (medians; frame p95 over all their frames); load average ${loadAverage()} (1 / 5 / 15 min), ${os.cpus().length} cores`,
    );

    const comparisons: Array<{ title: string; small: Case; large: Case; interaction?: string }> = [
      { title: `One run: 2 trials vs ${largeTrials} trials (household)`, small, large },
      {
        title: `Two run graphs side by side: 2 + 2 trials vs ${largeTrials} + ${largeTrials} trials`,
        small: { label: "graphs small", query: `${small.query}&view=graphs` },
        large: { label: "graphs large", query: `${large.query}&view=graphs` },
      },
      {
        title: `Compare view (components/compare trial lanes, two runs): 2 + 2 trials vs ${largeTrials} + ${largeTrials} trials`,
        small: { label: "compare small", query: `${small.query}&view=compare` },
        large: { label: "compare large", query: `${large.query}&view=compare` },
        interaction: "scroll",
      },
    ];
    if (!process.argv.includes("--no-tree")) {
      // The LATS search tree view (components/tree-search) on synthetic trees (lib/graph/stress-tree.ts).
      for (const size of [300, 1000]) {
        comparisons.push({
          title: `Search tree (LATS): 30 vs ${size} nodes`,
          small: { label: "tree small", query: "tree=30" },
          large: { label: `tree ${size}`, query: `tree=${size}` },
        });
      }
    }
    if (!process.argv.includes("--no-expanded")) {
      comparisons.push({
        title: `One run, every trial expanded (collapse=off; old trials do not start collapsed): 2 vs ${largeTrials} trials`,
        small,
        large: { label: "large, all expanded", query: `${large.query}&collapse=off` },
      });
    }
    const largeNodes = Number(argument("nodes", "0"));
    const nodesOnly = process.argv.includes("--nodes-only");
    if (largeNodes > 0) {
      const nodeCases: typeof comparisons = [
        { title: `One run: 2 trials vs ~${largeNodes} graph nodes (household, nodes=${largeNodes})`, small, large: { label: `nodes ${largeNodes}`, query: `nodes=${largeNodes}&family=household` } },
        { title: `Search tree (LATS): 30 vs ${largeNodes} nodes`, small: { label: "tree small", query: "tree=30" }, large: { label: `tree ${largeNodes}`, query: `tree=${largeNodes}` } },
      ];
      if (nodesOnly) comparisons.splice(0, comparisons.length);
      comparisons.push(...nodeCases);
    }
    const treeOnly = process.argv.includes("--tree-only");
    for (const comparison of comparisons.filter((candidate) => !treeOnly || candidate.small.query.startsWith("tree="))) {
      try {
        const figures = await measurePair(browser, baseUrl, comparison.small, comparison.large, repeats);
        printComparison(comparison.title, figures.small, figures.large, comparison.interaction);
      } catch (error) {
        // One case that cannot be measured (e.g. an older build without that view) does not stop the others.
        console.log(`\n${comparison.title}\n  not measured: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
      }
    }
  } catch (error) {
    console.log(`bench:graph — could not finish: ${error instanceof Error ? error.message : String(error)}`);
    if (serverErrors.trim()) console.log(serverErrors.trim().split("\n").slice(-10).join("\n"));
  } finally {
    console.log(`\nload average ${loadAverage()} at the end`);
    await browser?.close();
    server.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.log(`bench:graph — ${error instanceof Error ? error.message : String(error)}`);
    process.exit(0);
  },
);
