import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import { foldRun, type RunState } from "@/lib/domain/fold-run";
import type { MemoryExportEntry } from "@/lib/domain/memory-export";
import type { StepMatch } from "@/lib/mcp/search-steps";
import { createMcpServer } from "@/lib/mcp/server";
import type { Trajectory, TrajectoryTrial } from "@/lib/mcp/trajectory";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";

/**
 * The MCP server through the SDK's own Client over a linked in-memory transport, against a SQLite
 * store holding runs made here with the demo model (a scripted stand-in that fails trial 1 of a
 * built-in QA task, reflects, and succeeds in trial 2 under Reflexion).
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-mcp-"));
let context: ServerContext;
let client: Client;
let first: { id: string; state: RunState };
let warm: { id: string; state: RunState };
let experimentId = "";

const qa = { environment: "qa", taskSet: "builtin", strategy: "reflexion", modelId: "demo" } as const;

async function settledRun(request: Parameters<ServerContext["service"]["createRun"]>[0]) {
  const run = await context.service.createRun(request);
  await context.workers.untilSettled(run.rootBranchId);
  return { id: run.id, state: foldRun((await context.service.events(run.id)).events) };
}

beforeAll(async () => {
  context = createServerContext({ store: new SqliteRunStore(path.join(dir, "mcp.sqlite")) });
  first = await settledRun({ ...qa, taskId: "qa-builtin-01", writeMemory: { store: "team" } });
  warm = await settledRun({ ...qa, taskId: "qa-builtin-01", warmStart: { store: "team", maxEntries: 3 } });
  const experiment = await context.experiments.start({
    name: "mcp experiment",
    environment: "qa",
    taskSet: "builtin",
    taskIds: ["qa-builtin-02"],
    arms: [
      { label: "ReAct", strategy: "none", modelId: "demo" },
      { label: "Reflexion", strategy: "reflexion", modelId: "demo" },
    ],
    maxTrials: 2,
  });
  experimentId = experiment.id;
  for (const link of await context.store.experiments.listExperimentRuns(experiment.id)) {
    await context.workers.untilSettled((await context.service.getRun(link.runId)).rootBranchId);
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(context).connect(serverSide);
  client = new Client({ name: "test-client", version: "1.0.0" });
  await client.connect(clientSide);
}, 120_000);

afterAll(async () => {
  await client?.close();
  await context?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The fields of the tools' answers these tests read (each answer has some of them). */
interface ToolJson {
  runs: Array<{ id: string; strategy: string }>;
  hasMore: boolean;
  run: Record<string, unknown>;
  trials: TrajectoryTrial[];
  memoryCarriedIn: Trajectory["memoryCarriedIn"];
  reflections: unknown[];
  store: string;
  entries: MemoryExportEntry[];
  matches: StepMatch[];
  scannedRuns: number;
  truncated: boolean;
  experiments: unknown[];
  status: string;
  cellCount: number;
  cells?: unknown[];
  arms: Array<{ label: string; successByTrial: number[] }>;
}

/** Calls a tool; returns its result and the JSON of its text content (null for an error's plain text). */
async function call(name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  return { result, text, json: result.isError ? null : (JSON.parse(text) as ToolJson) };
}

describe("MCP server (SDK client, in-memory transport)", () => {
  it("lists its six read-only tools, each with a description and an input schema", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["get_experiment_summary", "get_reflections", "get_trajectory", "list_experiments", "list_runs", "search_steps"]);
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
    const listRuns = tools.find((tool) => tool.name === "list_runs")!;
    expect(Object.keys(listRuns.inputSchema.properties ?? {}).sort()).toEqual(["family", "limit", "offset", "outcome", "status"]);
  });

  it("list_runs returns the runs newest first with their outcome, as JSON text and structured content, filtered and paged", async () => {
    const all = await call("list_runs", { limit: 50 });
    expect(all.result.isError).toBeFalsy();
    expect(all.result.structuredContent).toEqual(all.json);
    const ids = all.json!.runs.map((run) => run.id);
    expect(ids).toHaveLength(4);
    expect(ids.indexOf(warm.id)).toBeLessThan(ids.indexOf(first.id));
    expect(all.json!.runs.find((run: { id: string }) => run.id === first.id)).toMatchObject({ family: "qa", taskId: "qa-builtin-01", strategy: "reflexion", status: "ended", outcome: "success", trials: 2 });

    const household = await call("list_runs", { family: "household" });
    expect(household.json!.runs).toEqual([]);
    const page = await call("list_runs", { family: "qa", status: "ended", limit: 1, offset: 1 });
    expect(page.json!.runs.map((run: { id: string }) => run.id)).toEqual([ids[1]]);
    expect(page.json!.hasMore).toBe(true);
    const last = await call("list_runs", { limit: 2, offset: 2 });
    expect(last.json!.hasMore).toBe(false);
    // The ReAct arm fails the task and writes no reflection; every other run ends in success.
    const failed = await call("list_runs", { outcome: "failure" });
    expect(failed.json!.runs.map((run: { strategy: string }) => run.strategy)).toEqual(["none"]);
  });

  it("get_trajectory returns each trial's steps, verdict and reflection; trial 2 starts with trial 1's reflection in memory", async () => {
    const { json, result } = await call("get_trajectory", { runId: first.id });
    expect(result.isError).toBeFalsy();
    const reflection = first.state.trials[0]!.reflection!.text;
    expect(json!.run).toMatchObject({ id: first.id, outcome: "success" });
    expect(json!.trials).toHaveLength(2);
    const [one, two] = json!.trials;
    expect(one!.steps.length).toBe(first.state.trials[0]!.steps.length);
    expect(one!.steps[0]).toEqual({
      step: 1,
      thought: first.state.trials[0]!.steps[0]!.thought!.text,
      action: first.state.trials[0]!.steps[0]!.action!.text,
      actionError: null,
      observation: first.state.trials[0]!.steps[0]!.observation!.text,
    });
    expect(one).toMatchObject({ outcome: "failure", verdict: { verdict: "fail", score: 0, evaluator: "exact-match" }, reflection: { text: reflection, edited: false } });
    expect(two).toMatchObject({ outcome: "success", verdict: { verdict: "pass" }, memory: [reflection], reflection: null });
    expect(json!.memoryCarriedIn).toBeNull();

    const onlyTwo = await call("get_trajectory", { runId: first.id, trial: 2, maxChars: 100 });
    expect(onlyTwo.json!.trials.map((trial: { trial: number }) => trial.trial)).toEqual([2]);
    expect(onlyTwo.json!.trials[0]!.memory[0]).toBe(`${reflection.slice(0, 100)}… [${reflection.length - 100} more characters]`);
  });

  it("get_trajectory of a warm start shows the memory carried in from the store, with its source", async () => {
    const { json } = await call("get_trajectory", { runId: warm.id });
    expect(json!.memoryCarriedIn).toEqual({
      store: "team",
      entries: [{ text: first.state.trials[0]!.reflection!.text, source: { runId: first.id, branchId: expect.any(String), trial: 1 } }],
    });
    expect(json!.trials[0]!.memory).toEqual([first.state.trials[0]!.reflection!.text]);
  });

  it("get_reflections gives a run's reflections with the next trial's outcome, or a memory store's entries", async () => {
    const run = await call("get_reflections", { runId: first.id });
    expect(run.json).toMatchObject({ runId: first.id, family: "qa", taskId: "qa-builtin-01" });
    expect(run.json!.reflections).toEqual([{ trial: 1, outcome: "failure", text: first.state.trials[0]!.reflection!.text, edited: false, warning: null, nextTrialOutcome: "success" }]);

    const store = await call("get_reflections", { store: "team", task: "qa-builtin-01" });
    expect(store.json!.store).toBe("team");
    expect(store.json!.entries.map((entry) => [entry.text, entry.kind, entry.source.runId])).toEqual([
      [first.state.trials[0]!.reflection!.text, "reflection", first.id],
    ]);
    expect((await call("get_reflections", { store: "team", task: "qa-builtin-99" })).json!.entries).toEqual([]);

    const both = await call("get_reflections", { runId: first.id, store: "team" });
    expect(both.result.isError).toBe(true);
    expect(both.text).toMatch(/Give either runId .* or store/u);
    const missing = await call("get_reflections", { store: "nowhere" });
    expect(missing.result.isError).toBe(true);
    expect(missing.text).toMatch(/No memory store nowhere\. The stores are: team\./u);
  });

  it("search_steps finds text in steps and reflections case-insensitively and says how many runs it scanned", async () => {
    const word = "dUNMERE";
    const found = await call("search_steps", { query: word, limit: 50 });
    expect(found.json!.scannedRuns).toBe(4);
    expect(found.json!.truncated).toBe(false);
    const matches = found.json!.matches;
    expect(matches.length).toBeGreaterThan(1);
    for (const match of matches) expect(match.snippet.toLowerCase()).toContain("dunmere");
    expect(matches).toContainEqual(expect.objectContaining({ runId: first.id, trial: 1, step: null, field: "reflection" }));
    expect(matches.some((match) => match.field === "observation" || match.field === "thought")).toBe(true);

    const one = await call("search_steps", { query: word, limit: 1 });
    expect(one.json!.matches).toHaveLength(1);
    expect(one.json!.truncated).toBe(true);
    expect((await call("search_steps", { query: word, family: "household" })).json).toMatchObject({ matches: [], scannedRuns: 0 });
    expect((await call("search_steps", { query: "no such text anywhere" })).json!.matches).toEqual([]);
  });

  it("list_experiments and get_experiment_summary give the experiment and its per-arm results", async () => {
    const list = await call("list_experiments");
    expect(list.json!.experiments).toEqual([expect.objectContaining({ id: experimentId, name: "mcp experiment", arms: ["ReAct", "Reflexion"], status: "ended", done: 2, total: 2 })]);
    const summary = await call("get_experiment_summary", { experimentId });
    expect(summary.json!.status).toBe("ended");
    expect(summary.json!.cellCount).toBe(2);
    expect(summary.json!.cells).toBeUndefined();
    const arms = summary.json!.arms;
    expect(arms.map((arm) => [arm.label, arm.successByTrial])).toEqual([
      ["ReAct", [0, 0]],
      ["Reflexion", [0, 1]],
    ]);
    const withCells = await call("get_experiment_summary", { experimentId, includeCells: true });
    expect(withCells.json!.cells).toHaveLength(2);
  });

  it("answers an unknown id or a bad argument with isError and what to do", async () => {
    const run = await call("get_trajectory", { runId: "no-such-run" });
    expect(run.result.isError).toBe(true);
    expect(run.text).toMatch(/No run no-such-run\..*Find run ids with list_runs/u);
    const trial = await call("get_trajectory", { runId: first.id, trial: 7 });
    expect(trial.result.isError).toBe(true);
    expect(trial.text).toMatch(/has no trial 7 .*its trials are 1, 2\./u);
    const branch = await call("get_reflections", { runId: first.id, branchId: "no-such-branch" });
    expect(branch.text).toMatch(/has no branch no-such-branch\..*list_runs/u);
    const experiment = await call("get_experiment_summary", { experimentId: "no-such-experiment" });
    expect(experiment.result.isError).toBe(true);
    expect(experiment.text).toMatch(/No experiment no-such-experiment.*Find experiment ids with list_experiments\./u);
    const bad = await call("list_runs", { limit: 0 });
    expect(bad.result.isError).toBe(true);
    expect(bad.text).toMatch(/limit/u);
  });
});
