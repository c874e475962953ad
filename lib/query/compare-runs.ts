"use client";

import { useQueries, useQuery } from "@tanstack/react-query";
import type { RunDetailResponse } from "@/lib/domain/api";
import type { EnvironmentId, Strategy } from "@/lib/domain/config";
import type { RunEvent } from "@/lib/domain/events";
import { foldRun, type RunState } from "@/lib/domain/fold-run";
import { experimentListQuery, experimentQuery } from "./experiment-queries";
import { runEventsQuery, runQuery } from "./queries";

export { compareHref, MAX_COMPARED_RUNS, parseCompareRuns } from "./compare-params";

/**
 * The compare view's data (`/compare?runs=<id>,<id>[,…]`): each run's summary
 * and folded log (root branch). Import this file directly (not through
 * lib/query/index.ts). Live runs are followed by mounting `useRunEvents` per
 * run (components/compare), which writes into the same caches read here.
 */

/** One compared run as loaded so far. */
export interface ComparedRun {
  runId: string;
  detail: RunDetailResponse["run"] | null;
  /** The folded root branch; null until its events have loaded. */
  state: RunState | null;
  isPending: boolean;
  error: Error | null;
}

const folded = new WeakMap<readonly RunEvent[], RunState>();

/**
 * The folded state of an event list, computed once per list: the events cache
 * keeps the array's identity until new events arrive (lib/query/merge-events.ts).
 */
export function foldOnce(events: readonly RunEvent[]): RunState {
  let state = folded.get(events);
  if (!state) {
    state = foldRun(events);
    folded.set(events, state);
  }
  return state;
}

/** Loads the summaries and event logs of the runs and folds each log (memoised per log). */
export function useCompareRuns(runIds: readonly string[]): ComparedRun[] {
  const details = useQueries({ queries: runIds.map((runId) => runQuery(runId)) });
  const logs = useQueries({ queries: runIds.map((runId) => runEventsQuery(runId)) });
  return runIds.map((runId, index) => {
    const detail = details[index];
    const log = logs[index];
    const events = log?.data?.events;
    return {
      runId,
      detail: detail?.data?.run ?? null,
      state: events ? foldOnce(events) : null,
      isPending: Boolean(detail?.isPending || log?.isPending),
      error: detail?.error ?? log?.error ?? null,
    };
  });
}

/** A run of a task found in an experiment: which experiment and arm it belongs to. */
export interface ExperimentRunOfTask {
  runId: string;
  experimentId: string;
  experimentName: string;
  arm: string;
  strategy: Strategy;
  modelId: string;
  solvedAtTrial: number | null;
  outcome: "success" | "failure" | "cancelled" | null;
}

/**
 * The runs of a task in the experiments of its family (newest experiments
 * first), so a run page can be compared with the other arms of its
 * experiment even when the run list's newest 50 runs no longer hold them.
 * Reads the experiments' summaries (cheap: built from run summaries).
 */
export function useExperimentRunsOfTask(task: { taskId: string; environment: EnvironmentId } | null): { runs: ExperimentRunOfTask[]; isPending: boolean } {
  const list = useQuery({ ...experimentListQuery(), enabled: task !== null });
  const candidates = task ? (list.data?.experiments ?? []).filter((item) => item.environment === task.environment) : [];
  const summaries = useQueries({ queries: candidates.map((item) => ({ ...experimentQuery(item.id), refetchInterval: false as const })) });
  const runs: ExperimentRunOfTask[] = [];
  for (const summary of summaries) {
    const data = summary.data;
    if (!data || !task) continue;
    for (const cell of data.cells) {
      if (cell.taskId !== task.taskId) continue;
      const arm = data.experiment.definition.arms.find((candidate) => candidate.label === cell.arm);
      if (!arm) continue;
      runs.push({
        runId: cell.runId,
        experimentId: data.experiment.id,
        experimentName: data.experiment.definition.name,
        arm: cell.arm,
        strategy: arm.strategy,
        modelId: arm.modelId,
        solvedAtTrial: cell.solvedAtTrial,
        outcome: cell.outcome,
      });
    }
  }
  return { runs, isPending: task !== null && (list.isPending || summaries.some((summary) => summary.isPending)) };
}
