import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { RunDetailResponse } from "@/lib/domain/api";
import type { Provenance } from "@/lib/domain/provenance";
import { RunUiStoreProvider } from "@/lib/store";
import { EventLog, makeRunConfig } from "../graph/fixtures";

/** Fixtures of the paper-runs UI tests: an imported HotpotQA run's provenance, log and run detail. */

/** The provenance of an imported ReAct + Reflexion HotpotQA log, with `notes`. */
export function paperProvenance(notes: string[] = []): Provenance {
  return {
    kind: "paper-log",
    label: "ReAct + Reflexion",
    source: "reflexion/hotpotqa_runs/root/ReAct/reflexion/100_questions_5_trials.txt",
    recordedBy: "authors",
    year: 2023,
    model: "text-davinci-003",
    notes,
    logSummary: null,
  };
}

/** An imported run's log: trial 1 answers `answer`, fails and is reflected on; optionally forked after the reflection. */
export function importedLog(provenance: Provenance, forked: boolean, answer = "First for Women"): EventLog {
  const log = new EventLog();
  log.add("run-start", { config: makeRunConfig({ provenance }) });
  log.add("trial-start", { trial: 1, memory: [], evicted: [] });
  log.add("step-thought", { trial: 1, step: 1, text: "I need to search.", callId: null });
  log.add("step-action", { trial: 1, step: 1, text: `Finish[${answer}]`, action: { type: "Finish", argument: answer }, parseError: null, callId: null });
  log.add("step-observation", { trial: 1, step: 1, text: "Episode finished", done: true, answer });
  log.add("evaluation-end", { trial: 1, verdict: "fail", score: 0, feedback: "Answer is INCORRECT", evaluatorKind: "exact-match", oracle: true, details: {} });
  log.add("trial-end", { trial: 1, outcome: "failure", reason: "wrong answer" });
  log.add("reflection-end", { trial: 1, text: "Compare the founding years.", callId: "paper-log:1" });
  if (forked) log.add("branch-start", { parentBranchId: "branch-1", forkSeq: 9, reason: "edit", replayMode: "live", edits: [] });
  return log;
}

/** The run detail the header reads for that run. */
export const importedRunDetail: RunDetailResponse["run"] = {
  id: "run-1",
  rootBranchId: "branch-1",
  experiment: null,
  createdAt: "2023-05-18T12:00:00.000Z",
  environment: "qa",
  taskId: "hp-1",
  title: "Which magazine was started first?",
  strategy: "reflexion",
  modelId: "text-davinci-003",
  status: "ended",
  activeCall: null,
  setting: null,
  trials: 1,
  outcome: null,
};

/** Server-rendered markup of `element` inside the query client and run UI store providers. */
export function renderWithProviders(element: ReactElement, client = new QueryClient()): string {
  return renderToStaticMarkup(createElement(QueryClientProvider, { client }, createElement(RunUiStoreProvider, null, element)));
}
