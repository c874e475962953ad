import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { assertForkable, assertWritable } from "@/lib/bundles/read-only";
import { isTraceFormatError } from "@/lib/importers/external/formats";
import type { ServerContext } from "@/lib/server/app-context";
import { sqliteContext } from "../../bundles/helpers";

const FIXTURES = path.resolve(__dirname, "../../fixtures/traces");
const bytesOf = (name: string) => new Uint8Array(fs.readFileSync(path.join(FIXTURES, name)));

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

function context(): ServerContext {
  const { context } = sqliteContext();
  open.push(async () => {
    await context.workers.stop();
    await context.store.close();
  });
  return context;
}

describe("TraceImportService", () => {
  it("makes one experiment with one arm and one read-only run per trace, and returns it again for the same content", async () => {
    const ctx = context();
    const first = await ctx.traceImports.importFile({ name: "malformed.jsonl", bytes: bytesOf("malformed.jsonl") });
    expect(first).toMatchObject({ file: "malformed.jsonl", format: "otlp", traces: 1, reused: false });
    // Per-record problems come back with the result, not as an error.
    expect(first.problems.map((problem) => problem.where)).toEqual(["line 2", "line 3", "line 4"]);

    const experiment = await ctx.store.experiments.getExperiment(first.experimentId);
    expect(experiment?.definition).toMatchObject({ name: "Imported traces: malformed.jsonl", environment: "external", arms: [{ label: "Imported traces: malformed.jsonl" }] });
    expect(experiment?.provenance).toMatchObject({ kind: "external-trace", recordedBy: "agent", source: "malformed.jsonl", traceFormat: "otlp", contentSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });

    const run = await ctx.store.getRun(first.runIds[0] as never);
    expect(run?.title).toBe("rag-agent");
    const state = foldRun(await ctx.store.list(run!.id, run!.rootBranchId));
    expect(state.trials.map((trial) => trial.outcome)).toEqual(["failure"]);
    // The recorded times are kept by the store.
    expect((await ctx.store.list(run!.id, run!.rootBranchId))[0]!.occurredAt).toBe("2025-12-05T02:02:00.000Z");

    // Read-only, with the trace's own wording; never forkable.
    expect(() => assertWritable(run!, run!.rootBranchId, "resume")).toThrow(/imported trace of an agent that ran elsewhere.*Imported trace \(OTLP, file malformed\.jsonl\)/);
    expect(() => assertForkable(run!)).toThrow(/cannot be forked: it is an imported trace of an agent that ran elsewhere/);

    const again = await ctx.traceImports.importFile({ name: "renamed.jsonl", bytes: bytesOf("malformed.jsonl") });
    expect(again).toMatchObject({ experimentId: first.experimentId, runIds: first.runIds, reused: true });
    expect((await ctx.store.experiments.listExperiments(100)).filter((record) => record.provenance?.kind === "external-trace")).toHaveLength(1);
  });

  it("imports the golden files of both conventions as separate experiments", async () => {
    const ctx = context();
    const openInference = await ctx.traceImports.importFile({ name: "openinference-langgraph.json", bytes: bytesOf("openinference-langgraph.json"), format: "otlp" });
    const genAi = await ctx.traceImports.importFile({ name: "genai-openai-agents.jsonl", bytes: bytesOf("genai-openai-agents.jsonl") });
    expect(openInference.experimentId).not.toBe(genAi.experimentId);
    const summary = await ctx.experiments.summary(genAi.experimentId);
    expect(summary.arms[0]).toMatchObject({ label: "Imported traces: genai-openai-agents.jsonl", tasks: 1, successByTrial: [1] });
  });

  it("refuses a file in which nothing could be read, naming the file and line, and stores nothing", async () => {
    const ctx = context();
    const bytes = new TextEncoder().encode('{"resourceSpans": [{"scopeSpans": [{"spans": [{"name": "x"}]}]}]}\nnot json\n');
    await expect(ctx.traceImports.importFile({ name: "broken.jsonl", bytes, format: "otlp" })).rejects.toMatchObject({
      code: "invalid-dataset",
      message: expect.stringMatching(/^broken\.jsonl: no trace could be read \(line 1: span "x" has no traceId/),
    });
    await expect(ctx.traceImports.importFile({ name: "notes.txt", bytes: new TextEncoder().encode("hello") })).rejects.toMatchObject({ code: "invalid-input", message: expect.stringMatching(/notes\.txt: could not tell the trace format/) });
    await expect(ctx.traceImports.importFile({ name: "log.json", bytes: new TextEncoder().encode("{}"), format: "inspect" })).rejects.toMatchObject({
      code: "invalid-dataset",
      // The parser's file-level problem is the file itself: the file is named once, the format as people call it.
      message: "log.json: no trace could be read (not an Inspect eval log: expected an object with `eval` (the EvalSpec) and `samples`). Expected an Inspect AI eval log: the JSON log (an object with `eval` and `samples`) or the .eval zip; if the file is in another format, name it.",
    });
    await expect(ctx.traceImports.importFile({ name: "runs.json", bytes: new TextEncoder().encode("{}"), format: "langsmith" })).rejects.toMatchObject({ message: expect.stringMatching(/^runs\.json: no trace could be read \(line 1: .*\)\. Expected a LangSmith run export: /) });
    expect(await ctx.store.experiments.listExperiments(100)).toEqual([]);
  });

  it("says an empty file is empty, whatever the format asked for, and the unknown-format message names no CLI flag", async () => {
    const ctx = context();
    for (const format of ["auto", "otlp", "inspect"] as const) {
      await expect(ctx.traceImports.importFile({ name: "empty.jsonl", bytes: new Uint8Array(), format })).rejects.toMatchObject({ code: "invalid-input", message: expect.stringMatching(/^empty\.jsonl is empty: it holds no traces\. Export the traces again/) });
    }
    await expect(ctx.traceImports.importFile({ name: "blank.jsonl", bytes: new TextEncoder().encode("\n \r\n\t") })).rejects.toMatchObject({ message: expect.stringMatching(/^blank\.jsonl is empty \(only whitespace\)/) });
    const unknown = await ctx.traceImports.importFile({ name: "notes.txt", bytes: new TextEncoder().encode("hello") }).catch((error: unknown) => error);
    expect(isTraceFormatError(unknown)).toBe(true);
    expect(unknown).toMatchObject({ message: expect.stringMatching(/name the format it is in \(otlp, inspect, langsmith or langfuse\)\.$/) });
    expect(unknown).not.toMatchObject({ message: expect.stringMatching(/--format/) });
  });

  it("answers content imported before in the format it was imported in, with that import's problems, whatever format is asked now", async () => {
    const ctx = context();
    const first = await ctx.traceImports.importFile({ name: "malformed.jsonl", bytes: bytesOf("malformed.jsonl") });
    const again = await ctx.traceImports.importFile({ name: "malformed.jsonl", bytes: bytesOf("malformed.jsonl"), format: "inspect" });
    expect(again).toEqual({ ...first, reused: true });
    expect(again.format).toBe("otlp");
    expect(again.problems.map((problem) => problem.where)).toEqual(["line 2", "line 3", "line 4"]);
  });

  it("gives a second trace of the same task its own cell", async () => {
    const ctx = context();
    const line = fs.readFileSync(path.join(FIXTURES, "malformed.jsonl"), "utf8").split("\n")[0]!;
    const copy = line.replaceAll("5b8efff798038103d269b633813fc60c", "5b8efff798038103d269b633813fc60d");
    const result = await ctx.traceImports.importFile({ name: "two.jsonl", bytes: new TextEncoder().encode(`${line}\n${copy}\n`) });
    expect(result).toMatchObject({ traces: 2, problems: [] });
    const cells = await ctx.store.experiments.listExperimentRuns(result.experimentId);
    expect(cells.map((cell) => cell.taskId)).toEqual([expect.stringMatching(/^task-[0-9a-f]{12}$/), expect.stringMatching(/^task-[0-9a-f]{12}#2$/)]);
  });
});
