import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import type { RunStore } from "@/lib/db/store";
import { createServerContext } from "@/lib/server/app-context";
import { CSV_CELLS_PER_CHUNK, trialRowsCsv } from "@/lib/server/experiment-csv-stream";
import { trialRowsOfCell, type ExperimentTrialRow } from "@/lib/domain/experiment-trial-rows";
import { EXPERIMENT_CSV_COLUMNS } from "@/lib/server/experiment-export";
import { seedExperiment } from "@/tests/helpers/seed-experiment";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "csv-stream-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function streamed(stream: ReadableStream<Uint8Array>): Promise<{ text: string; chunks: number }> {
  const decoder = new TextDecoder();
  let text = "";
  let chunks = 0;
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    chunks += 1;
    text += decoder.decode(read.value, { stream: true });
  }
  return { text: text + decoder.decode(), chunks };
}

const stores: Array<[string, () => RunStore]> = [
  ["memory", () => new MemoryRunStore()],
  ["SQLite", () => new SqliteRunStore(path.join(dir, `${Date.now()}.sqlite`))],
];

describe.each(stores)("the streamed CSV export (%s)", (_name, open) => {
  it("has the same bytes as the in-memory export, in several chunks, one row per task × arm × repetition × trial", async () => {
    const store = open();
    const context = createServerContext({ store, startWorkers: false });
    // More cells than one chunk holds, so the header must come once and the chunks join exactly.
    const seeded = await seedExperiment(store, { tasks: 9, arms: ["A", "B", "C"], repeats: 3, maxTrials: 3, seed: 7 });
    const cellsPerPage = 20;
    expect(seeded.runs).toBeGreaterThan(cellsPerPage);
    const whole = await context.experimentExport.csv(seeded.experiment.id);
    const { text, chunks } = await streamed(await context.experimentExport.csvStream(seeded.experiment.id, { cellsPerPage }));
    expect(chunks).toBe(Math.ceil(seeded.runs / cellsPerPage));
    // The default page: one chunk here; the second export serves the stored stats, with the same bytes.
    expect(seeded.runs).toBeLessThan(CSV_CELLS_PER_CHUNK);
    expect((await streamed(await context.experimentExport.csvStream(seeded.experiment.id))).text).toBe(whole);
    expect(text).toBe(whole);
    const rows = parse(text, { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0] ?? {})).toEqual([...EXPERIMENT_CSV_COLUMNS]);
    expect(rows).toHaveLength(seeded.runs * 3);
    // Solved and unsolved cells, and carried-forward rows, are all in the sample.
    expect(new Set(rows.map((row) => row.outcome))).toEqual(new Set(["success", "failure", ""]));
    expect(rows.some((row) => row.carried_forward === "true")).toBe(true);
    await context.close();
  });

  it("an unknown experiment fails before any byte, with a not-found error", async () => {
    const context = createServerContext({ store: open(), startWorkers: false });
    await expect(context.experimentExport.csvStream("no-such-experiment")).rejects.toMatchObject({ code: "not-found" });
    await context.close();
  });
});

describe("the CSV text of trial rows", () => {
  it("quotes what needs quoting and reads back to the same fields; a header-only page is the header line", async () => {
    const store = new MemoryRunStore();
    const context = createServerContext({ store, startWorkers: false });
    const seeded = await seedExperiment(store, { tasks: 1, arms: ["A"], repeats: 1, maxTrials: 2, seed: 3 });
    const summary = await context.experiments.summary(seeded.experiment.id);
    const [cell] = summary.cells;
    if (!cell) throw new Error("no cell");
    const awkward = [`a,b`, `say "hi"`, `two\nlines`, ` padded `, `crlf\r\n`];
    expect(trialRowsOfCell(summary, cell, [])).toEqual([]);
    const rows = awkward.map((text, index): ExperimentTrialRow => ({ ...baseRow(cell.runId), halt_reason: text, trial: index + 1 }));
    const text = trialRowsCsv(rows, true);
    expect(text.endsWith("\n")).toBe(true);
    const read = parse(text, { columns: true }) as Array<Record<string, string>>;
    expect(read.map((row) => row.halt_reason)).toEqual(awkward);
    expect(read.map((row) => row.solved_so_far)).toEqual(awkward.map(() => "true"));
    expect(read.map((row) => row.score)).toEqual(awkward.map(() => ""));
    expect(trialRowsCsv([], true)).toBe(`${EXPERIMENT_CSV_COLUMNS.join(",")}\n`);
    expect(trialRowsCsv([], false)).toBe("");
    await context.close();
  });
});

/** A complete row with fixed values (the fields under test are overridden). */
function baseRow(runId: string): ExperimentTrialRow {
  return {
    task_id: "t", arm: "A", repetition: 1, strategy: "reflexion", model: "demo", trial: 1, solved_so_far: true, carried_forward: false, outcome: "success", trial_outcome: "success",
    halt_reason: null, internal_verdict: "pass", hidden_verdict: null, false_positive: false, score: null, f1: null, steps: 2, cached: false, model_calls: 2, cached_calls: 0,
    tokens_in: 10, tokens_out: 5, cost_usd: 0.5, latency_ms: 12, actor_template: "x@1", actor_template_version_id: null, reflector_template: "y@1", reflector_template_version_id: null,
    actor_temperature: 0, reflector_temperature: 0, seed: null, memory_window: 3, dataset_hash: null, run_id: runId,
  };
}
