/**
 * Bench: the replay cursor on a 100,000-event log (decision 0042). Run from the repo root:
 * `npm run bench:replay` (Node only, no browser, no server).
 *
 * Builds a synthetic household run of ~100,000 events (lib/graph/stress-run.ts, ~1,750 trials,
 * schema-checked), then prints, beside the machine's load average:
 *
 * - a fold from zero of the whole log (what every cursor move cost before checkpoints), ms;
 * - building the checkpoints (the first move to the end: one forward pass), ms;
 * - moving the cursor to the start, the middle and the end (and just before the end, the worst
 *   tail after a checkpoint), each the median and the maximum of `--repeats` moves (default 15), ms;
 * - random moves anywhere: median and p95 over 200, ms;
 * - the same moves with the first read of `calls` and `requestCounts` (what a view reading every call pays);
 * - 20 random moves followed by deriving the run graph with one memoising deriver, as the run page
 *   does (lib/graph createRunGraphDeriver): the page's cost of a move, beyond the fold.
 *
 * Target: a cursor move ≤ 16 ms at any position (one frame). It prints figures and always exits 0.
 * Options: `--trials N` (default 1,750), `--every N` (events between checkpoints, default
 * REPLAY_CHECKPOINT_EVERY), `--repeats N`.
 *
 * `--page` instead measures the move on a page in headless Chromium, to the painted frame
 * (bench/replay-page.ts; needs `npx next build`): `--port N` (default 4105), `--moves N` (default 100).
 */
import os from "node:os";
import { foldRun } from "@/lib/domain/fold-run";
import { createReplayFolder, REPLAY_CHECKPOINT_EVERY } from "@/lib/domain/replay-fold";
import { createRunGraphDeriver } from "@/lib/graph";
import { stressRunEvents } from "@/lib/graph/stress-run";
import { replayPageBench } from "./replay-page";

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const load = () => os.loadavg().map((value) => value.toFixed(2)).join(" / ");
const fmt = (ms: number) => ms.toFixed(2);
const TARGET_MS = 16;

function main(): void {
  const trials = argument("trials", 1750);
  const every = argument("every", REPLAY_CHECKPOINT_EVERY);
  const repeats = argument("repeats", 15);
  console.log(`bench:replay — load average (1/5/15 min) ${load()} at the start; ${os.cpus().length} cores; Node ${process.version}`);
  let started = performance.now();
  const events = stressRunEvents({ trials, family: "household", seed: 1 });
  console.log(`a synthetic household run: ${trials} trials, ${events.length.toLocaleString("en")} events (built and schema-checked in ${Math.round(performance.now() - started)} ms)`);

  const fromZero: number[] = [];
  for (let repeat = 0; repeat < 3; repeat += 1) {
    started = performance.now();
    foldRun(events);
    fromZero.push(performance.now() - started);
  }
  const folder = createReplayFolder(events, { every });
  started = performance.now();
  folder.stateAt(events.length);
  const build = performance.now() - started;

  const positions: Array<[string, number]> = [
    ["start (0)", 0],
    ["middle", Math.floor(events.length / 2)],
    ["end", events.length],
    [`just before the end (${every - 1} events after a checkpoint)`, Math.floor((events.length - 1) / every) * every - 1],
  ];
  const rows: string[][] = [["move the cursor to", "median (ms)", "max (ms)", `≤ ${TARGET_MS} ms`]];
  rows.push(["a fold from zero of the whole log (before)", fmt(percentile(fromZero, 50)), fmt(Math.max(...fromZero)), percentile(fromZero, 50) <= TARGET_MS ? "✓" : "✗"]);
  rows.push([`building ${folder.checkpoints} checkpoints (first move to the end, once)`, fmt(build), "", "—"]);
  let worst = 0;
  for (const [label, at] of positions) {
    const times: number[] = [];
    for (let repeat = 0; repeat < repeats; repeat += 1) {
      // Alternate with another position so no move is a repeat of the last one.
      folder.stateAt(repeat % 2 === 0 ? 1 : events.length - 1);
      started = performance.now();
      folder.stateAt(at);
      times.push(performance.now() - started);
    }
    worst = Math.max(worst, percentile(times, 50));
    rows.push([label, fmt(percentile(times, 50)), fmt(Math.max(...times)), percentile(times, 50) <= TARGET_MS ? "✓" : "✗"]);
  }
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const moves: number[] = [];
  const withReads: number[] = [];
  for (let move = 0; move < 200; move += 1) {
    const at = Math.floor(random() * (events.length + 1));
    started = performance.now();
    const state = folder.stateAt(at);
    moves.push(performance.now() - started);
    started = performance.now();
    const state2 = folder.stateAt(at);
    void Object.keys(state2.requestCounts).length;
    void Object.keys(state2.calls).length;
    withReads.push(performance.now() - started);
    void state;
  }
  rows.push(["200 random positions: median / p95", fmt(percentile(moves, 50)), fmt(percentile(moves, 95)) + " (p95)", percentile(moves, 95) <= TARGET_MS ? "✓" : "✗"]);
  rows.push(["  the same, then reading every call and request count", fmt(percentile(withReads, 50)), fmt(percentile(withReads, 95)) + " (p95)", ""]);
  const derive = createRunGraphDeriver();
  derive(folder.stateAt(events.length));
  const derived: number[] = [];
  let nodes = 0;
  for (let move = 0; move < 20; move += 1) {
    const at = Math.floor(random() * (events.length + 1));
    started = performance.now();
    nodes = derive(folder.stateAt(at)).nodes.length;
    derived.push(performance.now() - started);
  }
  rows.push([`  20 random positions, then the run graph derived (the page; last had ${nodes.toLocaleString("en")} nodes)`, fmt(percentile(derived, 50)), fmt(percentile(derived, 95)) + " (p95)", ""]);
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  console.log("");
  for (const row of rows) console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  "));
  console.log(`\ncheckpoints every ${every} events; worst median move ${fmt(worst)} ms (target ≤ ${TARGET_MS} ms: ${worst <= TARGET_MS ? "met" : "not met"}); load average ${load()} at the end`);
}

if (process.argv.includes("--page")) {
  replayPageBench({ trials: argument("trials", 1750), port: argument("port", 4105), repeats: argument("repeats", 15), moves: argument("moves", 100) }).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
} else main();
