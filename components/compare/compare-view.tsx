"use client";

import Link from "next/link";
import { useState } from "react";
import { PageSection } from "@/components/ui/page-section";
import { firstDivergence, type Divergence } from "@/lib/graph/compare";
import { compareRunNames } from "@/lib/graph/compare-names";
import { useRunEvents } from "@/lib/query";
import { compareHref, MAX_COMPARED_RUNS } from "@/lib/query/compare-params";
import { useCompareRuns, type ComparedRun } from "@/lib/query/compare-runs";
import { isLiveStatus } from "@/lib/domain/status";
import { Badge } from "@/components/ui/badge";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { StatusPill } from "@/components/ui/status-pill";
import { strategyLabel } from "@/components/ui/strategy-labels";
import { cn } from "@/lib/utils/cn";
import { RunHistory } from "./run-history";
import { SearchTreePanel } from "@/components/tree-search";
import { RunPicker } from "./run-picker";
import { TrialLanes, type LaneRun } from "./trial-lanes";
import { isDemoModel } from "@/lib/domain/model-id";
import { ScriptedStandIn } from "@/components/ui/scripted-stand-in";

/** Keeps a live run's events streaming into the query cache the compare view reads (renders nothing). */
function FollowRun({ runId }: { runId: string }) {
  useRunEvents(runId);
  return null;
}

const Section = PageSection;

/** The runs' short names for headings (lib/graph/compare-names.ts): arm label, strategy, and what differs between them (model, template versions). */
function runNames(runs: readonly ComparedRun[]): string[] {
  const loaded = runs.filter((run) => run.detail !== null);
  const names = compareRunNames(
    loaded.map((run) => ({
      strategy: strategyLabel(run.detail!.strategy, run.detail!.environment),
      modelId: run.detail!.modelId,
      arm: run.detail!.experiment?.arm ?? null,
      templates: { actor: run.state?.config?.templates.actor, reflector: run.state?.config?.templates.reflector },
    })),
  );
  const byRun = new Map(loaded.map((run, index) => [run.runId, names[index]!]));
  return runs.map((run) => byRun.get(run.runId) ?? run.runId.slice(0, 8));
}

/** Why a run has no trial beyond its last one. */
function endNote(run: ComparedRun): string {
  const detail = run.detail;
  if (!detail) return "not loaded";
  if (isLiveStatus(detail.status)) return "not reached yet (the run is still going)";
  if (detail.status === "paused") return "not reached yet (the run is paused)";
  if (detail.outcome === "success") return `the run stopped at its first success (trial ${run.state?.trials.length ?? detail.trials})`;
  if (detail.outcome === "cancelled") return "the run was cancelled";
  if (detail.status === "error") return "the run stopped with an error";
  return "the trial budget ran out";
}

function DivergenceSummary({ divergence, runs, names }: { divergence: Divergence | null; runs: readonly ComparedRun[]; names: string[] }) {
  if (runs.length < 2) return null;
  if (divergence === null) {
    return (
      <Notice tone="info" data-testid="divergence-summary" data-kind="none">
        The trajectories are identical so far: every run took the same actions in every trial.
      </Notice>
    );
  }
  const where = `trial ${divergence.trial}, step ${divergence.step}`;
  return (
    <Notice tone="warning" title={`◆ First divergence: ${where}`} data-testid="divergence-summary" data-kind={divergence.kind} data-trial={divergence.trial} data-step={divergence.step}>
      {divergence.kind === "action-differs" ? (
        <ul className="mt-1 space-y-0.5">
          {runs.map((run, index) => {
            const trial = run.state?.trials.find((candidate) => candidate.trial === divergence.trial);
            const step = trial?.steps.find((candidate) => candidate.step === divergence.step);
            return (
              <li key={run.runId}>
                <span className="font-semibold">{names[index]}:</span> <code className="font-mono text-[12px]">{step?.action?.text ?? "—"}</code>
              </li>
            );
          })}
        </ul>
      ) : (
        <p>
          {divergence.ended.map((index) => names[index]).join(", ")} {divergence.ended.length === 1 ? "has" : "have"} no such step —{" "}
          {divergence.ended.map((index) => (runs[index] ? endNote(runs[index]) : "")).join("; ")} — while the others go on.
        </p>
      )}
      <p className="mt-1 text-xs">Everything before this step was the same in every run (trial 1 of different arms is often served from one cached set of calls).</p>
    </Notice>
  );
}

/**
 * `/compare?runs=…`: two or more runs side by side, trial lanes aligned (trial
 * k of each run in one row), the first divergence marked; below, one run's
 * trial-to-trial step diff (loops flagged) and its memory diff across trials.
 * With one run, a picker offers other runs of the same task.
 */
export function CompareView({ runIds }: { runIds: string[] }) {
  const runs = useCompareRuns(runIds);
  const [chosenHistory, setHistory] = useState<string | null>(null);

  if (runIds.length === 0) {
    return (
      <main className="mx-auto w-full max-w-5xl flex-1 space-y-4 px-4 py-6">
        <h1 className="text-lg font-semibold text-slate-900">Compare runs</h1>
        <p className="text-sm text-slate-600">
          Put runs of one task side by side — e.g. ReAct only vs Reflexion — with their trials aligned. From an experiment, use <em>Compare</em> on a task row;
          from a run page, <em>Compare this run…</em> in the header.
        </p>
        <Section title="Pick a run" id="pick-heading">
          <RunPicker current={[]} task={null} />
        </Section>
      </main>
    );
  }

  const loaded = runs.filter((run) => run.state !== null);
  const pending = runs.some((run) => run.isPending);
  const names = runNames(runs);
  const tasks = new Set(runs.flatMap((run) => (run.detail ? [`${run.detail.environment}/${run.detail.taskId}`] : [])));
  const first = runs.find((run) => run.detail)?.detail ?? null;
  const allLoaded = loaded.length === runs.length;
  const divergence = allLoaded ? firstDivergence(runs.map((run) => run.state!.trials)) : null;
  const lanes: LaneRun[] = runs.map((run, index) => ({ name: names[index] ?? run.runId, trials: run.state?.trials ?? [], endNote: endNote(run) }));
  // By default the run with the most to show: one that wrote reflections (its memory changes), else the longest.
  const reflecting = loaded.find((run) => run.state?.trials.some((trial) => trial.reflection !== null));
  const longest = [...loaded].sort((a, b) => (b.state?.trials.length ?? 0) - (a.state?.trials.length ?? 0))[0];
  const historyId = chosenHistory && runIds.includes(chosenHistory) ? chosenHistory : (reflecting?.runId ?? longest?.runId ?? runIds[0]!);
  const historyRun = runs.find((run) => run.runId === historyId);

  return (
    <main className="mx-auto w-full max-w-[96rem] flex-1 space-y-4 px-4 py-5" data-testid="compare-view" data-runs={runIds.length}>
      {runIds.map((runId) => (
        <FollowRun key={runId} runId={runId} />
      ))}
      <header className="space-y-1">
        <h1 className="text-lg font-semibold text-slate-900">
          Compare runs{first ? <span className="font-normal text-slate-600"> · {first.title}</span> : null}
        </h1>
        {first ? (
          <p className="text-xs text-slate-600">
            Task <code className="font-mono">{first.taskId}</code> · trial <i>k</i> of each run in one row; the first step where the actions differ is marked ◆.
          </p>
        ) : null}
      </header>

      {tasks.size > 1 ? (
        <Notice tone="warning">These runs are of different tasks ({[...tasks].join(", ")}): their trials are aligned, but their actions differ by nature.</Notice>
      ) : null}

      <div className="grid gap-3" style={{ gridTemplateColumns: `repeat(${Math.max(runs.length, 1)}, minmax(0, 1fr))` }}>
        {runs.map((run, index) => (
          <article key={run.runId} className="rounded-lg border border-slate-200 bg-white p-3 text-xs" data-testid="compare-run" data-run-id={run.runId} data-strategy={run.detail?.strategy}>
            {run.error ? (
              <p role="alert" className="text-red-700">
                Could not load run {run.runId}: {run.error.message} Check the id, or remove it from the comparison.
              </p>
            ) : !run.detail ? (
              <p className="flex items-center gap-2 text-slate-500">
                <Spinner className="size-3" /> Loading…
              </p>
            ) : (
              <div className="space-y-1">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="text-sm font-semibold text-slate-900">{names[index]}</span>
                  <StatusPill status={run.detail.status} />
                  {run.detail.outcome ? <Badge tone={run.detail.outcome === "success" ? "green" : run.detail.outcome === "failure" ? "red" : "neutral"}>{run.detail.outcome}</Badge> : null}
                </p>
                <p className="text-slate-600">
                  <code className="font-mono">{run.detail.modelId}</code>
                  {isDemoModel(run.detail.modelId) ? <ScriptedStandIn full className="ml-1 text-violet-700" /> : null} · {run.state?.trials.length ?? run.detail.trials}{" "}
                  {(run.state?.trials.length ?? run.detail.trials) === 1 ? "trial" : "trials"}
                </p>
              </div>
            )}
            <p className="mt-2 flex flex-wrap gap-3">
              <Link href={`/runs/${encodeURIComponent(run.runId)}`} className="font-medium text-sky-800 hover:underline" data-testid="compare-open-run">
                Open run
              </Link>
              {runIds.length > 1 ? (
                <Link href={compareHref(runIds.filter((id) => id !== run.runId))} className="text-slate-600 hover:underline">
                  Remove from comparison
                </Link>
              ) : null}
            </p>
          </article>
        ))}
      </div>

      {runs.length < 2 ? (
        <Section title="Add a run to compare with" id="add-heading">
          <RunPicker current={runIds} task={first ? { taskId: first.taskId, environment: first.environment } : null} />
        </Section>
      ) : null}

      {!allLoaded && pending ? (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner /> Loading the runs&apos; events…
        </p>
      ) : null}

      {allLoaded ? <DivergenceSummary divergence={divergence} runs={runs} names={names} /> : null}

      {loaded.length > 0 ? (
        <Section title="Trials side by side" id="lanes-heading">
          <TrialLanes runs={lanes} divergence={divergence} />
        </Section>
      ) : null}

      {loaded.some((run) => run.state?.tree) ? (
        <Section title="Search trees beside the lanes" id="trees-heading">
          <div className="grid gap-3" style={{ gridTemplateColumns: `repeat(${Math.max(runs.length, 1)}, minmax(0, 1fr))` }} data-testid="compare-trees">
            {runs.map((run, index) =>
              run.state?.tree ? (
                <div key={run.runId} className="flex h-[28rem] min-w-0 flex-col overflow-hidden rounded-lg border border-slate-200 bg-white" data-testid="compare-tree" data-run-id={run.runId}>
                  <p className="flex-none border-b border-slate-200 px-3 py-1.5 text-xs font-semibold text-slate-900">{names[index]}: its search tree</p>
                  <SearchTreePanel tree={run.state.tree} />
                </div>
              ) : (
                <p key={run.runId} className="rounded-lg border border-dashed border-slate-300 p-3 text-xs text-slate-600">
                  {names[index]} is not a tree search: its {run.state?.trials.length ?? 0} {(run.state?.trials.length ?? 0) === 1 ? "trial is" : "trials are"} the lanes above, with{" "}
                  {run.state?.totals.modelCalls ?? 0} model calls.
                </p>
              ),
            )}
          </div>
        </Section>
      ) : null}

      {historyRun?.state ? (
        <Section
          title={`Within one run: ${names[runIds.indexOf(historyId)] ?? ""}`}
          id="history-heading"
          right={
            runs.length > 1 ? (
              <div role="radiogroup" aria-label="Which run's history" className="flex flex-wrap gap-1.5">
                {runs.map((run, index) => (
                  <button
                    key={run.runId}
                    type="button"
                    role="radio"
                    aria-checked={run.runId === historyId}
                    data-testid="history-run"
                    onClick={() => setHistory(run.runId)}
                    className={cn(
                      "rounded-md border px-2.5 py-1 text-xs font-medium focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-sky-600",
                      run.runId === historyId ? "border-slate-900 bg-slate-900 text-white" : "border-slate-300 bg-white text-slate-800 hover:bg-slate-50",
                    )}
                  >
                    {names[index]}
                  </button>
                ))}
              </div>
            ) : null
          }
        >
          <RunHistory trials={historyRun.state.trials} />
        </Section>
      ) : null}

      {runs.length >= 2 && runIds.length < MAX_COMPARED_RUNS && first ? (
        <details className="rounded-lg border border-slate-200 bg-white px-4 py-2 text-sm">
          <summary className="cursor-pointer select-none text-xs font-medium text-slate-700">Add another run of this task</summary>
          <div className="mt-2">
            <RunPicker current={runIds} task={{ taskId: first.taskId, environment: first.environment }} />
          </div>
        </details>
      ) : null}
    </main>
  );
}
