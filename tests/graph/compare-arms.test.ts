import { describe, expect, it } from "vitest";
import { experimentSummarySchema, type ExperimentCell, type ExperimentSummary } from "@/lib/domain/experiment";
import {
  armRates,
  cellView,
  curveKey,
  differsCounts,
  endLabelRanks,
  filterGridRows,
  gridRows,
  percentOf,
  progressText,
  successCurveRows,
} from "@/lib/graph/compare-arms";
import { compareHref, MAX_COMPARED_RUNS, parseCompareRuns } from "@/lib/query/compare-params";

const arm = (label: string, strategy: "none" | "reflexion", successByTrial: number[], tasks = 4) => ({
  label,
  strategy,
  modelId: "demo",
  tasks,
  trials: successByTrial.length,
  successByTrial,
  finished: tasks,
  calls: { live: 10, cached: 4 },
  tokens: { input: 1000, output: 100 },
  costUsd: 0,
  costByRole: { acting: 0, evaluating: 0, reflecting: 0 },
  costToFirstSuccessUsd: null,
  falsePositives: 0,
  halts: 0,
});

const cell = (taskId: string, armLabel: string, solvedAtTrial: number | null, extra: Partial<ExperimentCell> = {}): ExperimentCell => ({
  taskId,
  arm: armLabel,
  runId: `${taskId}-${armLabel}`,
  status: "ended",
  solvedAtTrial,
  outcome: solvedAtTrial === null ? "failure" : "success",
  trials: solvedAtTrial ?? 3,
  falsePositive: false,
  halts: 0,
  ...extra,
});

/** Four tasks × {none, reflexion}: reflexion solves t1, t2 (trial 2) and t3 (trial 3); none solves only t4 at trial 1. */
function summary(): ExperimentSummary {
  return experimentSummarySchema.parse({
    experiment: {
      id: "x1",
      createdAt: "2026-12-01T09:00:00.000Z",
      taskSetName: "Built-in",
      definition: {
        name: "none vs reflexion",
        environment: "qa",
        taskSet: "builtin",
        taskIds: ["t1", "t2", "t3", "t4"],
        arms: [
          { label: "none", strategy: "none", modelId: "demo" },
          { label: "reflexion", strategy: "reflexion", modelId: "demo" },
        ],
        maxTrials: 3,
        concurrency: 2,
      },
    },
    status: "ended",
    progress: { total: 8, done: 8, etaMs: null },
    arms: [arm("none", "none", [1, 1, 1]), arm("reflexion", "reflexion", [0, 2, 3])],
    cells: [
      cell("t1", "none", null),
      cell("t1", "reflexion", 2),
      cell("t2", "reflexion", 2),
      cell("t2", "none", null),
      cell("t3", "none", null),
      cell("t3", "reflexion", 3),
      cell("t4", "none", 1),
      // t4 × reflexion has no run yet
    ],
  });
}

describe("success curves", () => {
  it("one row per trial with each arm's cumulative percentage under its own key, counts beside it", () => {
    const rows = successCurveRows(summary().arms);
    expect(rows.map((row) => row.trial)).toEqual([1, 2, 3]);
    expect(rows.map((row) => row[curveKey(0)])).toEqual([25, 25, 25]);
    expect(rows.map((row) => row[curveKey(1)])).toEqual([0, 50, 75]);
    expect(rows[2]!.points[1]).toEqual({ solved: 3, tasks: 4, percent: 75 });
  });

  it("an arm with a smaller trial budget has no value past its last trial (its line ends)", () => {
    const rows = successCurveRows([arm("short", "none", [1, 2]), arm("long", "reflexion", [0, 1, 2, 4])]);
    expect(rows).toHaveLength(4);
    expect(rows[3]![curveKey(0)]).toBeUndefined();
    expect(rows[3]!.points[0]).toBeNull();
    expect(rows[3]![curveKey(1)]).toBe(100);
    expect(successCurveRows([])).toEqual([]);
  });

  it("percentages round to one decimal and are 0 without tasks", () => {
    expect(percentOf(1, 3)).toBe(33.3);
    expect(percentOf(2, 3)).toBe(66.7);
    expect(percentOf(0, 0)).toBe(0);
  });

  it("armRates: trial 1 and the last trial", () => {
    const rates = armRates(summary().arms[1]!);
    expect(rates.first).toEqual({ solved: 0, tasks: 4, percent: 0 });
    expect(rates.last).toEqual({ solved: 3, tasks: 4, percent: 75 });
    expect(rates.lastTrial).toBe(3);
  });
});

describe("grid", () => {
  it("rows in task order, cells in arm order, null where a cell has no run yet", () => {
    const rows = gridRows(summary());
    expect(rows.map((row) => row.taskId)).toEqual(["t1", "t2", "t3", "t4"]);
    expect(rows[0]!.cells.map((c) => c?.arm)).toEqual(["none", "reflexion"]);
    expect(rows[3]!.cells[1]).toBeNull();
  });

  it("differs filters: solved by A and not by B, and the reverse; a missing cell counts as not solved", () => {
    const rows = gridRows(summary());
    const reflexionNotNone = filterGridRows(rows, { kind: "differs", solvedBy: 1, notBy: 0 });
    expect(reflexionNotNone.map((row) => row.taskId)).toEqual(["t1", "t2", "t3"]);
    const noneNotReflexion = filterGridRows(rows, { kind: "differs", solvedBy: 0, notBy: 1 });
    expect(noneNotReflexion.map((row) => row.taskId)).toEqual(["t4"]);
    expect(differsCounts(rows, 0, 1)).toEqual({ aNotB: 1, bNotA: 3 });
    expect(filterGridRows(rows, { kind: "all" }, "T2").map((row) => row.taskId)).toEqual(["t2"]);
  });

  it("cell labels say the trial of first success, else the outcome or the status, in words", () => {
    expect(cellView(cell("t", "a", 2)).text).toBe("✓ t2");
    expect(cellView(cell("t", "a", null)).text).toBe("✗ failed");
    expect(cellView(cell("t", "a", null, { falsePositive: true })).description).toMatch(/false positive/);
    expect(cellView(cell("t", "a", null, { outcome: "cancelled" })).tone).toBe("cancelled");
    expect(cellView(cell("t", "a", null, { outcome: null, status: "running", trials: 1 })).text).toBe("running t2");
    expect(cellView(cell("t", "a", null, { outcome: null, status: "queued", trials: 0 })).text).toBe("queued");
    expect(cellView(cell("t", "a", null, { outcome: null, status: "paused" })).tone).toBe("paused");
    expect(cellView(cell("t", "a", null, { outcome: null, status: "error" })).text).toBe("error");
  });
});

describe("progress and links", () => {
  const eta = (ms: number) => `${Math.round(ms / 1000)} s`;
  it("k/n runs with an ETA, done, or cancelled", () => {
    expect(progressText({ total: 24, done: 6, etaMs: 12_000 }, "running", eta)).toBe("6/24 runs · ETA 12 s");
    expect(progressText({ total: 24, done: 0, etaMs: null }, "running", eta)).toBe("0/24 runs · ETA after the first run ends");
    expect(progressText({ total: 24, done: 24, etaMs: null }, "ended", eta)).toBe("24/24 runs · done");
    expect(progressText({ total: 24, done: 10, etaMs: null }, "cancelled", eta)).toBe("10/24 runs · cancelled");
  });

  it("compare links round-trip through the search parameter", () => {
    const href = compareHref(["a b", "c", "a b"]);
    expect(href).toBe("/compare?runs=a%20b,c");
    const value = new URL(href, "http://x").searchParams.get("runs");
    expect(parseCompareRuns(value)).toEqual(["a b", "c"]);
    expect(parseCompareRuns([" x ,y", "y", ""])).toEqual(["x", "y"]);
    expect(parseCompareRuns(undefined)).toEqual([]);
    expect(parseCompareRuns("1,2,3,4,5,6")).toHaveLength(MAX_COMPARED_RUNS);
  });
});

describe("end labels", () => {
  it("stack when lines end at the same value, in arm order", () => {
    const arms = [arm("a", "none", [0, 0]), arm("b", "reflexion", [0, 2]), arm("c", "none", [0, 0]), arm("d", "none", [0, 0])];
    expect(endLabelRanks(arms)).toEqual([0, 0, 1, 2]);
    // Same final count but different trial budgets end at different x: no stacking.
    expect(endLabelRanks([arm("a", "none", [1]), arm("b", "none", [1, 1])])).toEqual([0, 0]);
  });
});
