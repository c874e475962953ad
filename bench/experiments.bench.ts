// Over 400 lines: one bench prints small vs large on both databases, the streamed CSV (first export, stored stats, a million rows) and the page in one run, as the figures must come from one run.
/**
 * Bench: experiments ten times bigger (decision 0042, docs/benchmarks.md "5,000-run experiments").
 * Run from the repo root: `npm run bench:experiments` (the page part needs `npx next build` first).
 *
 * Seeds a small and a large finished experiment (default 10 and 250 tasks × 4 arms × 5 repeats,
 * 5 trials: 200 and 5,000 runs) through the stores' real bulk write path (tests/helpers/seed-experiment.ts)
 * into SQLite and into PostgreSQL (the machine's own server, tests/helpers/postgres-server.ts; PGlite
 * when there is none), then prints, small beside large:
 *
 * - the summary: the cells' aggregate fingerprint query alone, the full cells join (what a running
 *   experiment's summary reads), the summary's first computation (cold: cells read, bootstrap
 *   intervals, paired tests, then stored) and the maintained summary's reads (warm: fingerprint,
 *   stored row, parse), as medians and p95 over `--reads` reads (target: warm ≤ 100 ms at 5,000 runs);
 * - the streamed CSV export of the large experiment, twice: the first export reads the logs and
 *   stores the runs' trial stats, the second reads those (lib/server/run-trial-stats.ts): rows,
 *   rows/s, peak RSS and peak heap growth sampled every 20 ms and at every chunk while the stream is
 *   read (target at 1,000,000 rows: ≤ 15 s, bounded memory);
 * - the results page on SQLite (`next start` on `--port`, default 4120, /usr/bin/chromium, 1440×900):
 *   first paint (ms from navigation to the first animation frame showing a row of the task grid;
 *   the large experiment's first load after its maintained summary is dropped is printed apart as
 *   "cold"), and the grid's scroll frame p95 (requestAnimationFrame deltas while the wheel scrolls
 *   the grid down and up). Targets: first paint ≤ 1.5 s, frame p95 ≤ 34 ms.
 *
 * The machine's load average is printed before and after. It prints figures and always exits 0.
 * Options: `--tasks N` (large, default 250), `--small-tasks N` (10), `--arms N` (4), `--repeats N` (5),
 * `--trials N` (5), `--reads N` (10), `--loads N` (page loads per case, 3), `--port N`,
 * `--no-page`, `--no-pg`, `--no-csv`, `--in-memory` (also time the in-memory CSV export, after the streamed one),
 * `--million` (also a 200,000-run, 1,000,000-row experiment bulk-copied into a fresh SQLite file and
 * into PostgreSQL, its summary computed once, then its CSV streamed from stored trial stats).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import { PgRunStore } from "@/lib/db/pg/pg-store";
import { openNodePostgres } from "@/lib/db/pg/database";
import { openPglite } from "@/lib/db/pg/pglite";
import type { RunStore } from "@/lib/db/store";
import { createServerContext } from "@/lib/server/app-context";
import { findPostgresBin, startPostgresServer, type PostgresServer } from "@/tests/helpers/postgres-server";
import { seedExperiment, type SeededExperiment } from "@/tests/helpers/seed-experiment";
import { seedLargeExport, type SeedLocation } from "@/tests/helpers/seed-large-export";

/** What INIT_SCRIPT keeps on `window.__experimentBench`. */
interface BenchState {
  firstRow: number | null;
  recording: boolean;
  frames: number[];
}

declare global {
  interface Window {
    __experimentBench?: BenchState;
  }
}

const ROOT = process.cwd();
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"];
const VIEWPORT = { width: 1440, height: 900 };

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;
}
const flag = (name: string) => process.argv.includes(`--${name}`);

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" / ");

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
}

async function repeated(times: number, work: () => Promise<unknown>): Promise<{ median: number; p95: number }> {
  const samples: number[] = [];
  for (let i = 0; i < times; i += 1) samples.push((await timed(work))[1]);
  return { median: percentile(samples, 50), p95: percentile(samples, 95) };
}

interface Sizes {
  small: { tasks: number };
  large: { tasks: number };
  arms: string[];
  repeats: number;
  trials: number;
}

async function seedBoth(store: RunStore, sizes: Sizes): Promise<{ small: SeededExperiment; large: SeededExperiment }> {
  const common = { arms: sizes.arms, repeats: sizes.repeats, maxTrials: sizes.trials };
  const small = await seedExperiment(store, { ...common, tasks: sizes.small.tasks, seed: 1, name: "bench small" });
  const large = await seedExperiment(store, { ...common, tasks: sizes.large.tasks, seed: 2, name: "bench large" });
  for (const seeded of [small, large]) console.log(`  seeded ${seeded.runs} runs, ${seeded.events} events in ${(seeded.writeMs / 1000).toFixed(1)} s`);
  return { small, large };
}

/** Summary figures of one experiment on one store. */
async function summaryFigures(store: RunStore, id: string, reads: number): Promise<string[]> {
  const context = createServerContext({ store, startWorkers: false });
  // The first computation: nothing maintained yet (a stale row forces it).
  await store.experiments.saveMaintainedSummary(id, "bench:stale", {});
  const [summary, coldMs] = await timed(() => context.experiments.summary(id));
  const fingerprint = await repeated(reads, () => store.experiments.cellsFingerprint(id));
  const cells = await repeated(reads, () => store.experiments.listExperimentCells(id));
  const warm = await repeated(reads, () => context.experiments.summary(id));
  return [
    `${summary.cells.length} runs (${summary.status})`,
    `fingerprint query ${ms(fingerprint.median)} (p95 ${ms(fingerprint.p95)})`,
    `full cells join ${ms(cells.median)} (p95 ${ms(cells.p95)})`,
    `summary cold ${ms(coldMs)}`,
    `summary warm ${ms(warm.median)} (p95 ${ms(warm.p95)})`,
  ];
}

async function printSummaries(label: string, store: RunStore, seeded: { small: SeededExperiment; large: SeededExperiment }, reads: number): Promise<void> {
  const small = await summaryFigures(store, seeded.small.experiment.id, reads);
  const large = await summaryFigures(store, seeded.large.experiment.id, reads);
  console.log(`  ${label} summary, small → large:`);
  small.forEach((line, i) => console.log(`    ${line.padEnd(44)} → ${large[i]}`));
}

/** Reads the streamed CSV of `id`, sampling memory; returns rows, seconds, peaks. */
async function csvFigures(store: RunStore, id: string): Promise<string> {
  const context = createServerContext({ store, startWorkers: false });
  global.gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed;
  const sample = () => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  };
  // SQLite reads are synchronous, so the timer alone would miss the pulls: every chunk is sampled too.
  const sampler = setInterval(sample, 20);
  let newlines = 0;
  let bytes = 0;
  const started = performance.now();
  const stream = await context.experimentExport.csvStream(id);
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const chunk = read.value;
    sample();
    bytes += chunk.byteLength;
    for (const byte of chunk) if (byte === 10) newlines += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const rows = newlines - 1;
  const mb = (value: number) => `${(value / 1e6).toFixed(0)} MB`;
  return `${rows.toLocaleString("en")} rows (${mb(bytes)}) in ${seconds.toFixed(1)} s = ${Math.round(rows / seconds).toLocaleString("en")} rows/s; peak RSS ${mb(peakRss)} (start ${mb(base.rss)}), peak heap +${mb(peakHeap - base.heapUsed)}; 1,000,000 rows at this rate: ${(1e6 / (rows / seconds)).toFixed(0)} s`;
}

/** The in-memory export of `id` for comparison (`--in-memory`): time and peak RSS while the whole text is built. */
async function inMemoryCsvFigures(store: RunStore, id: string): Promise<string> {
  const context = createServerContext({ store, startWorkers: false });
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const [text, took] = await timed(() => context.experimentExport.csv(id));
  peak = Math.max(peak, process.memoryUsage().rss);
  clearInterval(sampler);
  return `${(took / 1000).toFixed(1)} s, ${(text.length / 1e6).toFixed(0)} MB of text; peak RSS ${(peak / 1e6).toFixed(0)} MB (start ${(base / 1e6).toFixed(0)} MB)`;
}

async function openPostgres(): Promise<{ store: RunStore; label: string; url: string | null; stop: () => Promise<void> }> {
  if (findPostgresBin()) {
    const server: PostgresServer = await startPostgresServer();
    const url = await server.createDatabase("bench_experiments");
    const store = new PgRunStore(openNodePostgres(url, { max: 4 }), { migrate: "apply" });
    return { store, label: "PostgreSQL (server)", url, stop: async () => (await store.close(), await server.stop()) };
  }
  const store = new PgRunStore(openPglite(), { migrate: "apply" });
  return { store, label: "PostgreSQL (PGlite, no server binaries here)", url: null, stop: () => store.close() };
}

/**
 * Marks the first animation frame in which the task grid shows a row, and keeps a
 * requestAnimationFrame recorder the bench switches on around the scroll.
 */
const INIT_SCRIPT = `(() => {
  const state = { firstRow: null, recording: false, frames: [] };
  window.__experimentBench = state;
  const tick = (timestamp) => {
    if (state.firstRow === null && document.querySelector('[data-testid="task-grid-body"] [data-testid="task-row"]')) state.firstRow = performance.now();
    if (state.recording) state.frames.push(timestamp);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

interface PageFigures {
  firstRowMs: number;
  frames: number[];
}

async function pageLoad(browser: Browser, url: string): Promise<PageFigures> {
  const page = await browser.newPage({ viewport: VIEWPORT });
  try {
    await page.addInitScript(INIT_SCRIPT);
    await page.goto(url);
    await page.waitForFunction(() => (window.__experimentBench?.firstRow ?? null) !== null, null, { timeout: 60_000 });
    const firstRowMs = await page.evaluate(() => window.__experimentBench?.firstRow ?? Number.NaN);
    const body = page.getByTestId("task-grid-body");
    await body.scrollIntoViewIfNeeded();
    const box = await body.boundingBox();
    const frames: number[] = [];
    if (box) {
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.evaluate(() => {
        const state = window.__experimentBench;
        if (!state) return;
        state.frames = [];
        state.recording = true;
      });
      for (const direction of [1, -1]) {
        for (let tick = 0; tick < 20; tick += 1) {
          await page.mouse.wheel(0, direction * 600);
          await page.waitForTimeout(30);
        }
      }
      const stamps = await page.evaluate(() => {
        const state = window.__experimentBench;
        if (!state) return [];
        state.recording = false;
        return state.frames;
      });
      for (let at = 1; at < stamps.length; at += 1) frames.push(stamps[at]! - stamps[at - 1]!);
    }
    return { firstRowMs, frames };
  } finally {
    await page.close();
  }
}

async function waitForServer(url: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`next start exited with code ${server.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`next start did not answer ${url} within ${timeoutMs / 1000} s`);
}

async function pageFigures(file: string, store: RunStore, seeded: { small: SeededExperiment; large: SeededExperiment }, port: number, loads: number): Promise<void> {
  if (!existsSync(path.join(ROOT, ".next", "BUILD_ID"))) return console.log("  page: no production build (.next): run `npx next build` first. Skipped.");
  if (!existsSync(CHROMIUM)) return console.log(`  page: no Chromium at ${CHROMIUM} (set CHROMIUM_PATH). Skipped.`);
  const server = spawn(path.join(ROOT, "node_modules", ".bin", "next"), ["start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", REFLEXION_DB_PATH: file, REFLEXION_CONCURRENCY: "1" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let browser: Browser | null = null;
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForServer(`${base}/experiments`, server, 90_000);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    const url = (seededExperiment: SeededExperiment) => `${base}/experiments/${seededExperiment.experiment.id}`;
    // Warm the server and the browser once on the small experiment; not measured.
    await pageLoad(browser, url(seeded.small));
    // The large experiment's first load after its maintained summary is dropped: the summary is computed in the request.
    await store.experiments.saveMaintainedSummary(seeded.large.experiment.id, "bench:stale", {});
    const cold = await pageLoad(browser, url(seeded.large));
    const results = { small: [] as PageFigures[], large: [] as PageFigures[] };
    for (let i = 0; i < loads; i += 1) {
      results.small.push(await pageLoad(browser, url(seeded.small)));
      results.large.push(await pageLoad(browser, url(seeded.large)));
    }
    const first = (list: PageFigures[]) => percentile(list.map((figures) => figures.firstRowMs), 50);
    const p95 = (list: PageFigures[]) => percentile(list.flatMap((figures) => figures.frames), 95);
    const count = (list: PageFigures[]) => list.reduce((n, figures) => n + figures.frames.length, 0);
    console.log(`  results page on SQLite (next start :${port}, ${loads} loads per case, medians; frame p95 over every frame):`);
    console.log(`    first paint of the grid  ${ms(first(results.small))} → ${ms(first(results.large))} (large, first load computing its summary: ${ms(cold.firstRowMs)})   target ≤ 1,500 ms`);
    console.log(`    grid scroll frame p95    ${ms(p95(results.small))} (${count(results.small)} frames) → ${ms(p95(results.large))} (${count(results.large)} frames)   target ≤ 34 ms`);
  } finally {
    await browser?.close();
    server.kill("SIGTERM");
  }
}

/** Where a child process finds the database: `sqlite:<file>` or `pg:<url>`. */
function openAt(location: string): RunStore {
  if (location.startsWith("sqlite:")) return new SqliteRunStore(location.slice("sqlite:".length));
  if (location.startsWith("pg:")) return new PgRunStore(openNodePostgres(location.slice("pg:".length), { max: 2 }), { migrate: "check" });
  throw new Error(`--csv-child takes sqlite:<file> or pg:<url>, not ${location}`);
}

/**
 * The streamed CSV measured in a fresh process (`--csv-child <location> --id <experiment>`), so its
 * memory figures are the export's and not the seeding's (which holds every log it wrote).
 */
async function csvInChild(location: string, id: string, inMemory = false): Promise<string> {
  const args = ["--expose-gc", path.join(ROOT, "bench", "experiments.bench.ts"), "--csv-child", location, "--id", id, ...(inMemory ? ["--in-memory"] : [])];
  const child = spawn(path.join(ROOT, "node_modules", ".bin", "tsx"), args, {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let errors = "";
  child.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return code === 0 ? out.trim() : `failed (exit ${code}): ${errors.trim().split("\n").slice(-3).join(" ")}`;
}

/** `--million`: 2,000 tasks × 5 arms × 20 repeats, 5 trials (1,000,000 rows) bulk-copied (tests/helpers/seed-large-export.ts), its CSV streamed in a fresh process. */
async function millionRows(store: RunStore, location: SeedLocation, at: string, sizes: Sizes): Promise<void> {
  try {
    const arms = Array.from({ length: 5 }, (_, i) => `arm-${String.fromCharCode(65 + i)}`);
    const seeded = await seedLargeExport(store, location, { tasks: 2_000, arms, repeats: 20, maxTrials: sizes.trials });
    console.log(`  seeded ${seeded.runs.toLocaleString("en")} runs: rows copied in ${(seeded.copyMs / 1000).toFixed(1)} s, summary computed and stored in ${(seeded.summaryMs / 1000).toFixed(1)} s`);
    console.log(`  streamed CSV from stored trial stats (a fresh process): ${await csvInChild(at, seeded.experiment.id)}`);
  } finally {
    if (location.kind === "sqlite") await store.close();
  }
}

async function main(): Promise<void> {
  const childAt = process.argv.indexOf("--csv-child");
  if (childAt >= 0) {
    const idAt = process.argv.indexOf("--id");
    const store = openAt(process.argv[childAt + 1] ?? "");
    try {
      const id = process.argv[idAt + 1] ?? "";
      console.log(flag("in-memory") ? await inMemoryCsvFigures(store, id) : await csvFigures(store, id));
    } finally {
      await store.close();
    }
    return;
  }
  const sizes: Sizes = {
    small: { tasks: argument("small-tasks", 10) },
    large: { tasks: argument("tasks", 250) },
    arms: Array.from({ length: argument("arms", 4) }, (_, i) => `arm-${String.fromCharCode(65 + i)}`),
    repeats: argument("repeats", 5),
    trials: argument("trials", 5),
  };
  const reads = argument("reads", 10);
  console.log(`bench:experiments — load average ${load()} (1 / 5 / 15 min) at the start; Node ${process.version}`);
  console.log(`  ${sizes.small.tasks} vs ${sizes.large.tasks} tasks × ${sizes.arms.length} arms × ${sizes.repeats} repeats, trial budget ${sizes.trials}`);
  const dir = mkdtempSync(path.join(tmpdir(), "experiments-bench-"));
  const file = path.join(dir, "bench.sqlite");
  try {
    console.log("SQLite:");
    const sqlite = new SqliteRunStore(file);
    const seeded = await seedBoth(sqlite, sizes);
    await printSummaries("SQLite", sqlite, seeded, reads);
    if (!flag("no-csv")) {
      console.log("  SQLite streamed CSV, each in a fresh process:");
      console.log(`    small: ${await csvInChild(`sqlite:${file}`, seeded.small.experiment.id)}`);
      console.log(`    large, first export (reads the logs, stores the trial stats): ${await csvInChild(`sqlite:${file}`, seeded.large.experiment.id)}`);
      console.log(`    large, from stored trial stats: ${await csvInChild(`sqlite:${file}`, seeded.large.experiment.id)}`);
    }
    if (flag("in-memory")) console.log(`    large, in-memory export (before streaming): ${await csvInChild(`sqlite:${file}`, seeded.large.experiment.id, true)}`);
    if (!flag("no-page")) await pageFigures(file, sqlite, seeded, argument("port", 4120), argument("loads", 3));
    await sqlite.close();
    if (flag("million")) {
      const millionFile = path.join(dir, "million.sqlite");
      console.log("SQLite, 1,000,000 rows:");
      await millionRows(new SqliteRunStore(millionFile), { kind: "sqlite", file: millionFile }, `sqlite:${millionFile}`, sizes);
    }
    if (!flag("no-pg")) {
      const pg = await openPostgres();
      try {
        console.log(`${pg.label}:`);
        const pgSeeded = await seedBoth(pg.store, sizes);
        await printSummaries("PostgreSQL", pg.store, pgSeeded, reads);
        if (!flag("no-csv")) {
          const csv = () => (pg.url ? csvInChild(`pg:${pg.url}`, pgSeeded.large.experiment.id) : csvFigures(pg.store, pgSeeded.large.experiment.id));
          console.log(`  PostgreSQL streamed CSV, large${pg.url ? " (a fresh process)" : ""}, first export (reads the logs): ${await csv()}`);
          console.log(`  PostgreSQL streamed CSV, large, from stored trial stats: ${await csv()}`);
        }
        if (flag("million") && pg.url) await millionRows(pg.store, { kind: "pg", url: pg.url }, `pg:${pg.url}`, sizes);
      } finally {
        await pg.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    console.log(`bench:experiments — load average ${load()} at the end`);
  }
}

await main();
