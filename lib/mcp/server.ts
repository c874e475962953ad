import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z, ZodError } from "zod";
import type { RunSummary } from "@/lib/domain/api";
import { environmentIdSchema } from "@/lib/domain/config";
import { describeIssues } from "@/lib/domain/describe-issues";
import { AppError, isAppError } from "@/lib/domain/errors";
import { foldRun } from "@/lib/domain/fold-run";
import { DEFAULT_EXPORT_ENTRIES, MAX_EXPORT_ENTRIES } from "@/lib/domain/memory-export";
import { memoryStoreNameSchema } from "@/lib/domain/memory-store";
import { runStatusSchema } from "@/lib/domain/status";
import type { ServerContext } from "@/lib/server/app-context";
import { searchSteps, searchStepsIndexed } from "./search-steps";
import { trajectoryOf } from "./trajectory";

/**
 * The playground's MCP server (Model Context Protocol, official TypeScript SDK): read-only tools over
 * the app's services, so coding agents and assistants can query runs, experiments, trajectories and
 * reflections. Nothing here writes: no tool starts, edits or deletes anything. Transports: stdio
 * (`cli mcp`, lib/cli/mcp-command.ts) and Streamable HTTP (`/api/mcp`). docs/mcp.md lists the tools.
 *
 * Every tool answers its result as JSON text content and the same object as `structuredContent`;
 * a failure is an `isError` result whose message says what to do next.
 */

/** The services the tools read. */
/** What the tools read; with `search` (the search index), `search_steps` answers from it instead of folding logs. */
export type McpDeps = Pick<ServerContext, "store" | "service" | "experiments" | "memoryStores"> & Partial<Pick<ServerContext, "search">>;

/** The server's name and version as announced to clients. */
export const MCP_SERVER_INFO = { name: "reflexion-playground", version: "0.1.0" } as const;

/** The memory-store entries written from this run (lib/server/memory-store-service.ts `entriesFromRun`), as the tool shows them. */
async function storedLessonsOf(deps: McpDeps, run: { id: string; config: { environment: string; taskId: string } }) {
  const entries = await deps.memoryStores.entriesFromRun(run.id, run.config.environment, run.config.taskId);
  return entries.map((entry) => ({ store: entry.store, text: entry.text, trial: entry.source.trial, createdAt: entry.createdAt, reflectedOn: entry.reflectedOn ?? null }));
}

/** Runs `list_runs` reads at most (newest first) when it filters: there is no query by family or status. */
export const RUN_SCAN_LIMIT = 2000;

/** Default and largest number of runs `search_steps` scans. */
export const SEARCH_SCAN_DEFAULT = 200;
export const SEARCH_SCAN_MAX = 2000;

/** Default cut of one text field in `get_trajectory` (characters). */
export const DEFAULT_MAX_CHARS = 4000;

const HINT_RUNS = "Find run ids with list_runs (newest first, filter by family, status or outcome) or search_steps (by text).";
const HINT_EXPERIMENTS = "Find experiment ids with list_experiments.";
const HINT_STORES = "Memory store names are those of `cli memory list`.";

/** A tool's answer: the object as JSON text and as structured content. */
function ok(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }], structuredContent: value };
}

/** A failure the client (a model) can act on: the message, then `hint`. */
function failure(message: string, hint?: string): CallToolResult {
  return { content: [{ type: "text", text: hint ? `${message} ${hint}` : message }], isError: true };
}

/** Runs a tool body; app and validation errors become `isError` results with `hint` (not-found errors only) appended. */
async function answer(hint: string, body: () => Promise<Record<string, unknown>>): Promise<CallToolResult> {
  try {
    return ok(await body());
  } catch (error) {
    if (isAppError(error)) return failure(error.message, error.code === "not-found" ? hint : undefined);
    if (error instanceof ZodError) return failure(`Invalid input: ${describeIssues(error, "input")}.`);
    return failure(`The playground could not answer: ${error instanceof Error ? error.message : String(error)}.`);
  }
}

const runFields = (run: RunSummary) => ({
  id: run.id,
  createdAt: run.createdAt,
  family: run.environment,
  taskId: run.taskId,
  title: run.title,
  strategy: run.strategy,
  modelId: run.modelId,
  status: run.status,
  outcome: run.outcome,
  trials: run.trials,
});

/**
 * Runs newest first, filtered by family (on the run record), then by status and outcome (on each
 * run's summary, computed only until `offset + limit` runs matched), within the newest {@link RUN_SCAN_LIMIT}.
 */
async function listRuns(deps: McpDeps, input: { family?: string; status?: string; outcome?: string; limit: number; offset: number }) {
  const records = await deps.store.listRuns(RUN_SCAN_LIMIT);
  const wanted = input.offset + input.limit;
  const matched: RunSummary[] = [];
  for (const record of records) {
    if (input.family !== undefined && record.config.environment !== input.family) continue;
    const summary = await deps.service.summary(record);
    if (input.status !== undefined && summary.status !== input.status) continue;
    if (input.outcome !== undefined && (summary.outcome ?? "none") !== input.outcome) continue;
    matched.push(summary);
    if (matched.length > wanted) break;
  }
  const page = matched.slice(input.offset, wanted);
  return {
    runs: page.map(runFields),
    offset: input.offset,
    // One more than the page matched: there is a next page (within the scanned runs).
    hasMore: matched.length > wanted,
    scannedLimit: RUN_SCAN_LIMIT,
  };
}

/** The run's branch (root by default) folded; throws AppError("not-found") for an unknown run or branch. */
async function foldedBranch(deps: McpDeps, runId: string, branchId?: string) {
  const { run, branchId: branch, events } = await deps.service.events(runId, 0, branchId);
  return { run, branchId: branch, state: foldRun(events) };
}

/**
 * Builds the MCP server over `deps`. Tools: list_runs, list_experiments, get_experiment_summary,
 * get_trajectory, get_reflections, search_steps (all read-only). Connect it to a transport with
 * `server.connect(transport)`.
 */
export function createMcpServer(deps: McpDeps): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, {
    instructions:
      "Reflexion Playground: runs of Reflexion agents (trials of thought/action/observation steps, an Evaluator verdict per trial, a Self-Reflection after each failure) and experiments comparing strategies. Start with list_runs or list_experiments; read a run with get_trajectory; read lessons with get_reflections. All tools are read-only.",
  });
  const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

  server.registerTool(
    "list_runs",
    {
      title: "List runs",
      description:
        "Runs stored in the playground, newest first: id, family (task family: qa, household, code, …), task id, strategy, model, status, outcome and trials finished. Filter by family, status and outcome; page with limit and offset (hasMore says whether there is a next page). Filters look at the newest 2000 runs.",
      inputSchema: {
        family: environmentIdSchema.optional().describe("only runs of this task family, e.g. qa, household, code"),
        status: runStatusSchema.optional().describe("only runs whose root branch has this status (ended, running, paused, error, …)"),
        outcome: z.enum(["success", "failure", "cancelled", "none"]).optional().describe("only runs with this outcome; none: not ended yet"),
        limit: z.number().int().min(1).max(200).default(20).describe("runs per page (1–200, default 20)"),
        offset: z.number().int().min(0).max(RUN_SCAN_LIMIT).default(0).describe("runs to skip (for the next page)"),
      },
      annotations: readOnly,
    },
    async (input) => answer(HINT_RUNS, () => listRuns(deps, input)),
  );

  server.registerTool(
    "list_experiments",
    {
      title: "List experiments",
      description:
        "Experiments (tasks × arms, e.g. ReAct vs Reflexion), newest first: id, name, family, arm labels, task count, status and runs done/total. includeDerived also lists those an optimisation or a template check made.",
      inputSchema: {
        limit: z.number().int().min(1).max(200).default(20).describe("at most this many (default 20)"),
        includeDerived: z.boolean().default(false).describe("also list experiments made by optimisations and template checks"),
      },
      annotations: readOnly,
    },
    async ({ limit, includeDerived }) => answer(HINT_EXPERIMENTS, async () => ({ experiments: await deps.experiments.list(limit, { withDerived: includeDerived }) })),
  );

  server.registerTool(
    "get_experiment_summary",
    {
      title: "Get an experiment's summary",
      description:
        "An experiment's results, as its results page and `cli experiment show` give them: status, progress, per arm success by trial (with 95% intervals), calls, tokens and cost, and paired tests between arms. includeCells adds one row per (task, arm, repetition) run with its run id.",
      inputSchema: {
        experimentId: z.string().min(1).describe("the experiment's id (list_experiments)"),
        includeCells: z.boolean().default(false).describe("also return every cell (task, arm, run id, status, outcome)"),
      },
      annotations: readOnly,
    },
    async ({ experimentId, includeCells }) =>
      answer(HINT_EXPERIMENTS, async () => {
        const { cells, ...summary } = await deps.experiments.summary(experimentId);
        return includeCells ? { ...summary, cells } : { ...summary, cellCount: cells.length };
      }),
  );

  server.registerTool(
    "get_trajectory",
    {
      title: "Get a run's trajectory",
      description:
        "A run's trajectory: per trial the memory it started with (earlier reflections), its steps (thought, action, observation), the answer, the Evaluator's verdict, the outcome and the Self-Reflection written after it; plus reflections carried in from a memory store and the call totals. The root branch unless branchId names a fork; trial picks one trial. Texts longer than maxChars are cut.",
      inputSchema: {
        runId: z.string().min(1).describe("the run's id (list_runs)"),
        branchId: z.string().min(1).optional().describe("a branch (fork) of the run; default its root branch"),
        trial: z.number().int().min(1).optional().describe("only this trial (1-based)"),
        maxChars: z.number().int().min(100).max(100_000).default(DEFAULT_MAX_CHARS).describe("cut each text field to this many characters (default 4000)"),
      },
      annotations: readOnly,
    },
    async ({ runId, branchId, trial, maxChars }) =>
      answer(HINT_RUNS, async () => {
        const { run, branchId: branch, state } = await foldedBranch(deps, runId, branchId);
        const trajectory = trajectoryOf(state, { trial, maxChars });
        if (trial !== undefined && trajectory.trials.length === 0) {
          throw new AppError("invalid-input", `Run ${run.id} has no trial ${trial} on branch ${branch}; its trials are ${state.trials.map((view) => view.trial).join(", ") || "none yet"}.`);
        }
        return { run: runFields(await deps.service.summary(run)), branchId: branch, ...trajectory };
      }),
  );

  server.registerTool(
    "get_reflections",
    {
      title: "Get reflections",
      description:
        "Self-Reflections, either of one run (runId: each failed trial's reflection with the trial's outcome and whether the next trial succeeded, plus `stored`: the entries memory stores hold from this run, e.g. lessons written on an imported trace) or kept in a memory store (store, optionally task and family: the store's unexpired reflections and ExpeL insights, newest first, with their source and provenance — what `cli memory export` prints). Give runId or store, not both.",
      inputSchema: {
        runId: z.string().min(1).optional().describe("a run's id (list_runs)"),
        branchId: z.string().min(1).optional().describe("with runId: a branch (fork); default the root branch"),
        store: memoryStoreNameSchema.optional().describe("a memory store's name"),
        task: z.string().min(1).optional().describe("with store: only this task's reflections (with its family's insights)"),
        family: environmentIdSchema.optional().describe("with store: only this task family's entries"),
        limit: z.number().int().min(1).max(MAX_EXPORT_ENTRIES).default(DEFAULT_EXPORT_ENTRIES).describe("with store: at most this many entries (default 50)"),
      },
      annotations: readOnly,
    },
    async ({ runId, branchId, store, task, family, limit }) => {
      if ((runId === undefined) === (store === undefined)) return failure("Give either runId (a run's reflections) or store (a memory store's entries), not both and not neither.", `${HINT_RUNS} ${HINT_STORES}`);
      if (store !== undefined) return answer(HINT_STORES, async () => deps.memoryStores.exportEntries(store, { task, family, limit }));
      return answer(HINT_RUNS, async () => {
        const { run, branchId: branch, state } = await foldedBranch(deps, runId!, branchId);
        const reflections = state.trials
          .filter((view) => view.reflection !== null)
          .map((view) => {
            const next = state.trials.find((candidate) => candidate.trial === view.trial + 1);
            return {
              trial: view.trial,
              outcome: view.outcome,
              text: view.reflection!.text,
              edited: view.reflection!.edits > 0,
              warning: view.reflection!.warning,
              nextTrialOutcome: next?.outcome ?? null,
            };
          });
        return { runId: run.id, branchId: branch, family: run.config.environment, taskId: run.config.taskId, reflections, stored: await storedLessonsOf(deps, run) };
      });
    },
  );

  server.registerTool(
    "search_steps",
    {
      title: "Search steps",
      description:
        "Finds text in the thoughts, actions, observations and reflections of stored runs (case-insensitive), in the newest scanRuns runs (root branches only, default 200, at most 2000), newest first, and stops at limit matches; truncated says whether it stopped early or older runs were left out. It reads the full-text search index, so give text that starts and ends on whole words ('Dunmere' finds \"Dunmere's\", 'unmere' finds nothing). Each match names its run, trial, step and field with a snippet; read the whole run with get_trajectory. For filters by outcome, cost or repeated actions, see the query language of docs/search.md.",
      inputSchema: {
        query: z.string().trim().min(2).max(200).describe("the text to find (2–200 characters)"),
        family: environmentIdSchema.optional().describe("only runs of this task family"),
        limit: z.number().int().min(1).max(200).default(20).describe("at most this many matches (default 20)"),
        scanRuns: z.number().int().min(1).max(SEARCH_SCAN_MAX).default(SEARCH_SCAN_DEFAULT).describe("scan at most this many of the newest runs (default 200)"),
      },
      annotations: readOnly,
    },
    async (input) => answer(HINT_RUNS, async () => ({ ...(deps.search ? await searchStepsIndexed(deps.store, deps.search, input) : await searchSteps(deps.store, input)) })),
  );

  return server;
}
