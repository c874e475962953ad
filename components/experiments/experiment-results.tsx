"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { RoleReadOnlyNote } from "@/components/auth/role-read-only-note";
import { StripNamesToggle, withNames } from "@/components/bundles/strip-names-toggle";
import { PageSection } from "@/components/ui/page-section";
import type { ExperimentSummary } from "@/lib/domain/experiment";
import { mayChangeExperiment } from "@/lib/domain/run-permissions";
import { useMe } from "@/lib/query/me-queries";
import { modelsQuery, tasksQuery } from "@/lib/query";
import {
  canCancel,
  canResume,
  experimentExportHref,
  experimentQuery,
  useCancelExperiment,
  useResumeExperiment,
  type ExperimentExportFormat,
} from "@/lib/query/experiment-queries";
import { Button } from "@/components/ui/button";
import { formatTime } from "@/components/ui/format";
import { EmptyState, Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { ArmTable } from "./arm-table";
import { ExperimentProgress } from "./experiment-progress";
import { ExperimentProviderRates } from "./experiment-provider-rates";
import { ExperimentStatusBadge } from "./experiment-status";
import { DEMO_MODEL_NOTE } from "@/lib/domain/model-id";
import { familyName, isScriptedModel, metricExplanation, metricName, OracleLabel } from "./labels";
import { defaultFamilyId, familyDescriptor } from "@/lib/environments/descriptors";
import { SuccessCurves } from "./success-curves";
import { TaskGrid } from "./task-grid";
import { PairedTests } from "./paired-tests";
import { CostEffectiveness } from "./cost-effectiveness";
import { repeatsOf } from "@/lib/domain/experiment";
import { shortHash } from "@/lib/domain/dataset-pin";
import { DEMO_VARIATION_NOTE } from "@/lib/domain/demo-variation";
import { paperCurveNotes } from "@/lib/domain/paper-curves";
import { RecordedBadge, ReadOnlyNote } from "@/components/provenance";
import { overlayHref } from "@/lib/query/overlay-series";
import { runTheseTasksHref } from "@/lib/query/experiment-prefill";
import { AbResultSection } from "@/components/templates/ab-result";
import { isAbExperiment } from "@/lib/query/template-ab";
import { OptimisePanel } from "./optimise-panel";
import { SearchLauncher } from "@/components/search/search-launcher";

const Section = PageSection;

const EXPORTS: Array<{ format: ExperimentExportFormat; figure?: "curve" | "cost"; label: string; hint: string; testId: string }> = [
  { format: "csv", label: "CSV", testId: "export-csv", hint: "Long format: one row per task × arm × repetition × trial up to the trial budget (carried forward), with the solved-so-far flag, verdicts, halt reason, steps, tokens, cost, templates, model, temperature, seed, Ω" },
  { format: "json", label: "JSON", testId: "export-json", hint: "The summary with intervals and paired tests, every run's outcome and the CSV's rows" },
  { format: "events", label: "Events", testId: "export-events", hint: "Every run's event log, one JSON event per line (NDJSON)" },
  { format: "md", label: "Markdown", testId: "export-md", hint: "Arm × trial 1 / last trial / Δ with 95 % intervals, cost per solved task, and the paired tests" },
  { format: "latex", label: "LaTeX", testId: "export-latex", hint: "The same tables as a LaTeX document (booktabs)" },
  { format: "svg", figure: "curve", label: "Curve SVG", testId: "export-svg", hint: "The success-by-trial curves with their 95 % bands" },
  { format: "svg", figure: "cost", label: "Cost SVG", testId: "export-svg-cost", hint: "Final success against cost per run, one point per arm with its interval" },
];

/** Cancel (with a confirmation step) and Resume. */
function Controls({ summary }: { summary: ExperimentSummary }) {
  const id = summary.experiment.id;
  const cancel = useCancelExperiment(id);
  const resume = useResumeExperiment(id);
  const [confirming, setConfirming] = useState(false);
  const [stripNames, setStripNames] = useState(false);
  const unfinished = summary.progress.total - summary.progress.done;
  const error = cancel.error ?? resume.error;
  // Cancel and Resume are the owner's (and admins'); the server checks it too.
  const permission = mayChangeExperiment(useMe().data, summary);
  return (
    <div className="flex flex-wrap items-center gap-2">
      {!permission.allowed && (canCancel(summary) || canResume(summary)) ? <RoleReadOnlyNote reason={permission.reason} /> : null}
      {permission.allowed && canCancel(summary) ? (
        confirming ? (
          <span className="flex items-center gap-2 rounded-md border border-red-200 bg-red-50 px-2 py-1 text-xs text-red-900" role="group" aria-label="Confirm cancel">
            Cancel the {unfinished} unfinished {unfinished === 1 ? "run" : "runs"}? Finished runs stay.
            <Button
              size="sm"
              variant="danger"
              data-testid="confirm-cancel-experiment"
              disabled={cancel.isPending}
              onClick={() => cancel.mutate(undefined, { onSettled: () => setConfirming(false) })}
            >
              {cancel.isPending ? "Cancelling…" : "Yes, cancel"}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
              Keep running
            </Button>
          </span>
        ) : (
          <Button size="sm" variant="danger" data-testid="cancel-experiment" onClick={() => setConfirming(true)}>
            Cancel
          </Button>
        )
      ) : null}
      {permission.allowed && (summary.status !== "ended" || canResume(summary)) ? (
        <Button
          size="sm"
          data-testid="resume-experiment"
          disabled={resume.isPending || !canResume(summary)}
          onClick={() => resume.mutate()}
          title={
            canResume(summary)
              ? "Creates missing runs and resumes paused or interrupted ones"
              : "Nothing to resume: no run is paused or interrupted (cancelled runs stay cancelled; start a new experiment to run them again)"
          }
        >
          {resume.isPending ? "Resuming…" : "Resume"}
        </Button>
      ) : null}
      <span className="flex flex-wrap items-center gap-1.5 text-xs text-slate-600" role="group" aria-label="Export">
        Export:
        {EXPORTS.map((item) => (
          <a
            key={item.testId}
            href={experimentExportHref(id, item.format, item.figure)}
            download
            title={item.hint}
            data-testid={item.testId}
            className="inline-flex h-7 items-center rounded-md border border-slate-300 bg-white px-2.5 text-xs font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-sky-600"
          >
            {item.label}
          </a>
        ))}
        <a
          href={withNames(`/api/experiments/${id}/bundle`, stripNames)}
          download
          title="Every run of the experiment with the cached model responses they used, in one file that imports on another machine and replays with zero model calls"
          data-testid="export-bundle"
          className="inline-flex h-7 items-center rounded-md border border-slate-300 bg-white px-2.5 text-xs font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-sky-600"
        >
          Bundle
        </a>
        <StripNamesToggle checked={stripNames} onChange={setStripNames} />
      </span>
      {summary.status === "cancelled" && !canResume(summary) ? (
        <p className="w-full text-right text-[11px] text-slate-600" data-testid="cancelled-note">
          Cancelled runs stay cancelled; Resume continues only paused or interrupted runs. Start a new experiment to run the rest.
        </p>
      ) : null}
      {error ? (
        <Notice tone="error" className="w-full">
          {error.message} Try again; if the server is down, start it and reload.
        </Notice>
      ) : null}
    </div>
  );
}

/**
 * `/experiments/:id`: progress, the success-by-trial curves, per-arm results,
 * the task × arm grid, Cancel / Resume and the exports. Polls the summary every
 * second while the experiment runs.
 */
export function ExperimentResults({ experimentId }: { experimentId: string }) {
  const query = useQuery(experimentQuery(experimentId));
  const models = useQuery(modelsQuery());
  const summary = query.data;
  const definition = summary?.experiment.definition;
  const tasks = useQuery({ ...tasksQuery(definition?.environment ?? defaultFamilyId(), definition?.taskSet ?? "builtin"), enabled: definition !== undefined });

  if (query.isPending) {
    return (
      <div className="flex flex-1 items-center justify-center gap-2 text-sm text-slate-600">
        <Spinner /> Loading the experiment…
      </div>
    );
  }
  if (query.error || !summary || !definition) {
    return (
      <EmptyState
        title="Could not load this experiment"
        action={
          <Link href="/experiments" className="text-sm font-medium text-sky-800 hover:underline">
            ← All experiments
          </Link>
        }
      >
        <p role="alert">{query.error?.message ?? "The server sent no summary."}</p>
      </EmptyState>
    );
  }

  const environment = definition.environment;
  const scripted = new Set((models.data?.models ?? []).filter((model) => model.scripted).map((model) => model.id));
  const usesDemo = summary.arms.some((arm) => isScriptedModel(arm.modelId, scripted));
  const titles = new Map((tasks.data?.tasks ?? []).map((task) => [task.id, task.title]));
  const trialsText = [...new Set(summary.arms.map((arm) => arm.trials))].join(" / ");
  const repeats = repeatsOf(definition);

  return (
    <main className="mx-auto w-full max-w-7xl flex-1 space-y-4 px-4 py-5" data-testid="experiment-results" data-status={summary.status}>
      <header className="space-y-2">
        <p className="text-xs text-slate-500">
          <Link href="/experiments" className="text-sky-800 hover:underline">
            ← Experiments
          </Link>
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="min-w-0 text-lg font-semibold text-slate-900 [overflow-wrap:anywhere]" data-testid="experiment-name-heading">
            {definition.name}
          </h1>
          <ExperimentStatusBadge status={summary.status} />
          <RecordedBadge provenance={summary.experiment.provenance} showModel />
          <span className="ml-auto flex flex-wrap items-center gap-2 text-xs">
            {/* An imported trace's tasks are not runnable here (no world): no "run these tasks" for it. */}
            {summary.experiment.provenance && summary.experiment.provenance.kind !== "external-trace" ? (
              <Link href={runTheseTasksHref(summary.experiment.id)} data-testid="run-these-tasks" className="inline-flex h-8 items-center rounded-md bg-slate-900 px-3 font-medium text-white hover:bg-slate-700" title="A new experiment on the same environment, task set and task ids, with a model of your choice; its curve is drawn beside the authors'">
                Run these tasks yourself
              </Link>
            ) : null}
            <Link href={overlayHref([summary.experiment.id])} data-testid="compare-with" className="inline-flex h-8 items-center rounded-md border border-slate-300 px-3 font-medium text-slate-800 hover:bg-slate-50" title="Put this experiment's curves on one chart with other experiments'">
              Compare with…
            </Link>
            <Link href={`/reflections?experimentId=${encodeURIComponent(summary.experiment.id)}`} data-testid="experiment-reflections" className="inline-flex h-8 items-center rounded-md border border-slate-300 px-3 font-medium text-slate-800 hover:bg-slate-50">
              Reflections that worked
            </Link>
          </span>
        </div>
        {summary.experiment.provenance ? <ReadOnlyNote provenance={summary.experiment.provenance} showNotes /> : null}
        <p className="text-xs text-slate-600">
          {familyName(environment)} · task set {summary.experiment.taskSetName} · {definition.taskIds.length} {definition.taskIds.length === 1 ? "task" : "tasks"} ×{" "}
          {definition.arms.length} {definition.arms.length === 1 ? "arm" : "arms"}
          {repeats > 1 ? <span data-testid="experiment-repeats-text"> × {repeats} repetitions</span> : null} · up to {trialsText} trials · started{" "}
          {formatTime(summary.experiment.createdAt)}
          {definition.dataset ? (
            <span data-testid="experiment-dataset-hash" title={`Tasks pinned by content: SHA-256 ${definition.dataset.hash}. Resume is refused if they change.`}>
              {" "}
              · tasks pinned <code className="font-mono">{shortHash(definition.dataset.hash)}</code>
            </span>
          ) : null}
        </p>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <ExperimentProgress summary={summary} />
          <Controls summary={summary} />
        </div>
        <ExperimentProviderRates modelIds={summary.arms.map((arm) => arm.modelId)} running={summary.status === "running"} />
        {usesDemo ? (
          <Notice tone="info" data-testid="experiment-demo-notice">
            <strong>Demo model — {DEMO_MODEL_NOTE}.</strong>{" "}
            {definition.taskSet === "builtin"
              ? "On the built-in tasks it fails trial 1, reflects and then succeeds under Reflexion, and keeps failing without memory: these curves show how the playground measures, not how a real model performs."
              : "It has scripts only for the built-in tasks; on an uploaded set it answers without a script and fails, so these curves say nothing about the strategies. Pick a real model for uploaded tasks."}
            {repeats > 1 ? <span data-testid="demo-variation-note"> With repeats it is {DEMO_VARIATION_NOTE}, so repetitions differ.</span> : null}
          </Notice>
        ) : null}
        <SearchLauncher prefill={`experiment:${summary.experiment.id}`} />
      </header>

      <Section
        title="Success by trial"
        id="curves-heading"
        right={
          <span className="flex items-center gap-2 text-xs text-slate-600">
            {metricName(environment)} {familyDescriptor(environment).metric.oracle ? <OracleLabel /> : null}
          </span>
        }
      >
        <SuccessCurves
          arms={summary.arms}
          environment={environment}
          endLabelMax={summary.experiment.provenance ? 26 : undefined}
          paperNotes={summary.arms.map((arm) => paperCurveNotes(summary.experiment.provenance, familyDescriptor(environment).paperLogCurves, arm))}
        />
        <p className="mt-3 text-xs text-slate-600" data-testid="metric-explanation">
          {metricExplanation(environment)}
        </p>
      </Section>

      <Section title="Paired tests" id="tests-heading">
        <PairedTests summary={summary} />
      </Section>
      <Section title="Cost-effectiveness" id="cost-heading">
        <CostEffectiveness summary={summary} />
      </Section>
      {isAbExperiment(summary.experiment) ? <AbResultSection experimentId={summary.experiment.id} running={summary.status === "running"} done={summary.progress.done} titles={titles} /> : null}

      <Section title="Per arm" id="arms-heading">
        <ArmTable arms={summary.arms} environment={environment} scripted={scripted} recorded={Boolean(summary.experiment.provenance)} />
        {summary.arms.some((arm) => arm.passAtK) ? (
          <ul className="mt-3 space-y-0.5 text-xs text-slate-700" data-testid="pass-at-k">
            {summary.arms.map((arm) =>
              arm.passAtK ? (
                <li key={arm.label}>
                  <strong>{arm.label}</strong> pass@k over {repeats} samples per task (Chen et al. 2021&apos;s unbiased estimator):{" "}
                  {arm.passAtK.map((entry) => `pass@${entry.k} ${(100 * entry.value).toFixed(1)}%`).join(" · ")}
                </li>
              ) : null,
            )}
          </ul>
        ) : null}
        <p className="mt-3 text-xs text-slate-600" data-testid="shared-prefix-note">
          Arms share what they have in common: trial 1 of one arm is served from the response cache to the others when their prompts are identical (same
          model, settings and messages) — e.g. ReAct only and Reflexion make the same trial-1 calls — even when both runs ask at the same moment: the call
          is made once. For each task the arm whose run asks first counts it as <em>live</em> and the others as <em>cached</em>, so with runs side by side
          the cached calls can fall on either arm. Only calls of this experiment are shared (a new experiment samples the model afresh). Cached calls cost
          nothing; costs are estimated from a price table (USD), &ldquo;unknown&rdquo; when a model has no price.
        </p>
      </Section>

      <Section title="Tasks × arms" id="grid-heading" right={
          <span className="text-xs text-slate-500">
            {repeats > 1 ? `Repetition 1 of ${repeats}. ` : ""}Click a cell to open its run, or Compare to see the arms side by side.
          </span>
        }>
        <TaskGrid summary={summary} titles={titles} />
      </Section>

      {summary.experiment.provenance ? null : (
        <Section title="Optimise a template" id="optimise-heading">
          <OptimisePanel experimentId={summary.experiment.id} usesDemo={usesDemo} arms={summary.arms.map((arm) => ({ label: arm.label, strategy: arm.strategy }))} />
        </Section>
      )}
    </main>
  );
}
