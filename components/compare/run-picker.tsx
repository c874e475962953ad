"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import type { EnvironmentId } from "@/lib/domain/config";
import { runListQuery } from "@/lib/query";
import { compareHref, MAX_COMPARED_RUNS } from "@/lib/query/compare-params";
import { useExperimentRunsOfTask } from "@/lib/query/compare-runs";
import { inputClass } from "@/components/home/form-field";
import { Button } from "@/components/ui/button";
import { formatShortTime } from "@/components/ui/format";
import { Spinner } from "@/components/ui/spinner";
import { StatusPill } from "@/components/ui/status-pill";
import { strategyLabel } from "@/components/ui/strategy-labels";
import { cn } from "@/lib/utils/cn";
import { isDemoModel } from "@/lib/domain/model-id";
import { ScriptedStandIn } from "@/components/ui/scripted-stand-in";

/**
 * Add a run to the comparison: the recent runs of the same task (any strategy
 * or model), or any run by its id. With no task given (nothing compared yet),
 * every recent run is offered.
 */
export function RunPicker({ current, task }: { current: readonly string[]; task: { taskId: string; environment: EnvironmentId } | null }) {
  const runs = useQuery(runListQuery());
  const fromExperiments = useExperimentRunsOfTask(task);
  const experimentRuns = fromExperiments.runs.filter((run) => !current.includes(run.runId));
  const router = useRouter();
  const [typed, setTyped] = useState("");
  const inputId = useId();
  const full = current.length >= MAX_COMPARED_RUNS;
  const candidates = (runs.data?.runs ?? []).filter(
    (run) =>
      !current.includes(run.id) &&
      !experimentRuns.some((other) => other.runId === run.id) &&
      (task === null || (run.taskId === task.taskId && run.environment === task.environment)),
  );
  return (
    <div className="space-y-2 text-sm" data-testid="run-picker">
      {task && experimentRuns.length > 0 ? (
        <div className="space-y-1" data-testid="run-picker-experiments">
          <p className="text-xs text-slate-600">
            Runs of <code className="font-mono">{task.taskId}</code> in experiments:
          </p>
          <ul className="max-h-64 divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200">
            {experimentRuns.map((run) => (
              <li key={run.runId} className="flex flex-wrap items-center gap-2 px-3 py-1.5 text-xs" data-testid="run-picker-option" data-run-id={run.runId}>
                <Link
                  href={compareHref([...current, run.runId])}
                  aria-disabled={full || undefined}
                  onClick={(event) => {
                    if (full) event.preventDefault();
                  }}
                  className={cn("font-medium text-sky-800 hover:underline focus-visible:outline-2 focus-visible:outline-sky-600", full && "pointer-events-none text-slate-500")}
                >
                  Add arm {run.arm}
                </Link>
                <span className="text-slate-700">{strategyLabel(run.strategy, task.environment)}</span>
                <code className="font-mono text-slate-700">{run.modelId}</code>
                {isDemoModel(run.modelId) ? <ScriptedStandIn /> : null}
                <span className="text-slate-600">{run.solvedAtTrial !== null ? `✓ solved at trial ${run.solvedAtTrial}` : (run.outcome ?? "not finished")}</span>
                <Link href={`/experiments/${encodeURIComponent(run.experimentId)}`} className="ml-auto truncate text-slate-500 hover:underline">
                  {run.experimentName}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <p className="text-xs text-slate-600">
        {task ? (
          <>
            Other recent runs of <code className="font-mono">{task.taskId}</code> (the 50 newest runs are searched):
          </>
        ) : (
          "Pick a run to start with; then add another run of the same task."
        )}
      </p>
      {runs.isPending ? (
        <p className="flex items-center gap-2 text-xs text-slate-500">
          <Spinner className="size-3" /> Loading runs…
        </p>
      ) : runs.error ? (
        <p role="alert" className="text-xs text-red-700">
          Could not load the runs: {runs.error.message} Paste a run id below instead.
        </p>
      ) : candidates.length === 0 ? (
        <p className="text-xs text-slate-500" data-testid="run-picker-empty">
          {task
            ? experimentRuns.length > 0
              ? "No other run of this task among the 50 newest runs outside the experiments below."
              : fromExperiments.isPending
                ? "No other run of this task among the 50 newest runs; looking in the experiments…"
                : "No other recent run of this task. Start one from the Runs page (e.g. with the other strategy), or paste a run id."
            : "No runs yet."}
        </p>
      ) : (
        <ul className="max-h-64 divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200">
          {candidates.map((run) => (
            <li key={run.id} className="flex flex-wrap items-center gap-2 px-3 py-1.5 text-xs" data-testid="run-picker-option" data-run-id={run.id}>
              <Link
                href={compareHref([...current, run.id])}
                aria-disabled={full || undefined}
                onClick={(event) => {
                  if (full) event.preventDefault();
                }}
                className={cn("font-medium text-sky-800 hover:underline focus-visible:outline-2 focus-visible:outline-sky-600", full && "pointer-events-none text-slate-500")}
              >
                {task ? "Add" : "Start with"} {strategyLabel(run.strategy, run.environment)}
              </Link>
              {task ? null : <span className="truncate text-slate-700">{run.title}</span>}
              <code className="font-mono text-slate-700">{run.modelId}</code>
              {isDemoModel(run.modelId) ? <ScriptedStandIn /> : null}
              <StatusPill status={run.status} />
              {run.outcome ? <span className="text-slate-600">{run.outcome}</span> : null}
              <span className="ml-auto text-slate-500">{formatShortTime(run.createdAt)}</span>
            </li>
          ))}
        </ul>
      )}
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          const id = typed.trim();
          if (id && !full) router.push(compareHref([...current, id]));
        }}
      >
        <label htmlFor={inputId} className="text-xs text-slate-700">
          Run id
        </label>
        <input id={inputId} className={cn(inputClass, "w-80 py-1 font-mono text-xs")} value={typed} onChange={(event) => setTyped(event.target.value)} placeholder="e.g. 6852a746-4ba4-…" />
        <Button size="sm" type="submit" disabled={full || typed.trim() === ""}>
          Add
        </Button>
        {full ? <span className="text-[11px] text-slate-500">At most {MAX_COMPARED_RUNS} runs side by side.</span> : null}
      </form>
    </div>
  );
}
