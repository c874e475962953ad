import type { FamilyDescriptor } from "../family-descriptor";

/** The id of the family of runs imported from an outside agent's traces. */
export const EXTERNAL_FAMILY_ID = "external";

/**
 * Runs of an agent that lives elsewhere (LangGraph, the OpenAI Agents SDK, an Inspect AI task, a
 * home-made loop), imported from its traces (lib/importers/external/). Pure data: see
 * FamilyDescriptor. Its runs are only ever imported: there is no world here for a fork or a new run
 * to act in, so the family offers no task loader and stays out of the new-run form.
 */
export const externalDescriptor: FamilyDescriptor = {
  id: EXTERNAL_FAMILY_ID,
  label: "Imported agent traces",
  shortLabel: "Imported agent traces",
  heading: "Imported agent traces",
  order: 10,
  metric: {
    name: "Score from the trace",
    explanation:
      "The verdict the trace itself records (an evaluation event, an Inspect scorer, a LangSmith feedback, a Langfuse score), as the source judged it — not an oracle checked here; a trace with no score counts as not passed.",
    oracle: false,
    reportsF1: false,
  },
  evaluationView: "goal",
  reportsHalts: false,
  hiddenTests: false,
  step: {
    actionSyntax: "command",
    thinkIsAction: false,
    alwaysShowsThought: false,
    actionIsCode: false,
    example: 'search({"query": "capital of Australia"})',
    toolPrefix: null,
    toolDescription: "A tool call of the outside agent, as its trace recorded it",
  },
  importFormats: "agent traces: OTLP JSON / JSON lines (OpenInference or gen_ai.* attributes), Inspect AI eval logs, LangSmith and Langfuse trace exports (cli import-traces, POST /api/imports/traces)",
  upload: { buttonLabel: "Import traces", accept: ".json,.jsonl,.eval,application/json" },
  strategyLabels: {},
  strategyHints: {},
  paperLogName: "Imported agent traces (no published log)",
  paperLogNotForkable: "it is an imported trace of an agent that ran elsewhere, and its world (tools, sandbox, web) is not here to continue in — reflect on it instead, or run the task in a family of this app",
  paperLogCurves: { inferredTrials: null, reportedPoints: [] },
  stressRun: null,
  templateSource: "ours (a Self-Reflection over an outside agent's recorded tool calls): lib/environments/external/prompts.ts",
  runsImportedOnly: true,
  texts: {
    runIntro:
      "An outside agent's recorded attempt: its turns as steps (reasoning as the thought, a tool call as the action, the tool's result as the observation), its LLM calls with their prompts, tokens and cost, and the trace's own score as the Evaluator's verdict.",
    referenceLabel: "Show the expected answer the trace records",
    settingTitle: "The task",
    noMemoryTrials: "each trace is one attempt",
    demoOnImported: "imported traces are never re-run here",
  },
};
