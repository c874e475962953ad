"use client";

import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useEffect, useId, useMemo, useState } from "react";
import { foldRun } from "@/lib/domain/fold-run";
import type { Template } from "@/lib/domain/template-library";
import { runEventsQuery, runListQuery } from "@/lib/query";
import { defaultPreviewRun, previewTrials, recordedCall, sameMessages } from "@/lib/query/template-preview";
import { templatePreviewQuery } from "@/lib/query/template-queries";
import { formatMessages } from "@/components/inspector/format-prompt";
import { inputClass } from "@/components/home/form-field";
import { Badge } from "@/components/ui/badge";
import { formatInteger, formatShortTime } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils/cn";

const MonacoPromptEditor = dynamic(() => import("@/components/inspector/monaco-prompt-editor"), {
  ssr: false,
  loading: () => <p className="p-3 text-xs text-slate-500">Loading editor…</p>,
});

/** `value`, updated only after it has stopped changing for `ms` (typing does not send a preview per keystroke). */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const ROLE_WHAT = {
  actor: "the Actor's prompt at this step of this trial",
  reflector: "the Self-Reflection prompt after this trial",
  summarizer: "the summariser's prompt over the memory when this trial started",
  evaluator: "the judge's prompt for this trial's answer",
  optimiser: "the optimiser meta-prompt (it has no run preview: an optimisation fills it from failed trials)",
  value: "the value prompt over this trial's trajectory (LATS)",
} as const;

/**
 * The live preview: pick a recorded run of the template's family (the recent
 * runs, or any run by id — the paper's imported runs included), a trial and a
 * step; the editor's text is rendered with that trial's real inputs by
 * `POST /api/templates/preview`, shown with its token count, and checked
 * against the prompt the engine recorded there.
 */
export function TemplatePreview({ template, text, onVariables }: { template: Template; text: string; onVariables?: (names: string[]) => void }) {
  const runs = useQuery(runListQuery());
  const familyRuns = (runs.data?.runs ?? []).filter((run) => run.environment === template.family);
  const [chosenRunId, setRunId] = useState<string | null>(null);
  const [typedRunId, setTypedRunId] = useState("");
  const runId = chosenRunId ?? defaultPreviewRun(familyRuns, template.role)?.id ?? null;
  const events = useQuery({ ...runEventsQuery(runId ?? ""), enabled: runId !== null });
  const state = useMemo(() => (events.data ? foldRun(events.data.events) : null), [events.data]);
  const trials = state ? previewTrials(state, template.role) : [];
  const [chosenTrial, setTrial] = useState<number | null>(null);
  const trial = trials.find((candidate) => candidate.trial === chosenTrial) ?? trials[0] ?? null;
  const [chosenStep, setStep] = useState(1);
  const step = trial ? Math.min(chosenStep, trial.steps) : 1;
  const settledText = useDebounced(text, 300);
  const wrongFamily = state?.config && state.config.environment !== template.family;
  const request =
    runId && trial && settledText.trim() !== "" && !wrongFamily
      ? { role: template.role, runId, trial: trial.trial, text: settledText, ...(template.role === "actor" ? { step } : {}) }
      : null;
  const preview = useQuery(templatePreviewQuery(request));
  const variables = preview.data?.variables;
  useEffect(() => {
    if (variables) onVariables?.(variables);
  }, [variables, onVariables]);
  const recorded = state && trial ? recordedCall(state, template.role, trial.trial, step) : null;
  const same = preview.data && recorded ? sameMessages(preview.data.messages, recorded.messages) : null;
  const ids = { run: useId(), typed: useId(), trial: useId(), step: useId() };

  return (
    <div className="space-y-2 pt-3" data-testid="template-preview">
      <div className="flex flex-wrap items-end gap-3 text-[11px] text-slate-600">
        <label htmlFor={ids.run} className="min-w-0 max-w-full space-y-0.5">
          <span className="block">Recorded run ({familyRuns.length} recent of this family)</span>
          <select
            id={ids.run}
            data-testid="preview-run"
            className={cn(inputClass, "h-8 w-96 max-w-full py-0 text-xs")}
            value={runId ?? ""}
            onChange={(event) => {
              setRunId(event.target.value || null);
              setTrial(null);
              setStep(1);
            }}
          >
            {runId && !familyRuns.some((run) => run.id === runId) ? <option value={runId}>{runId}</option> : null}
            {familyRuns.length === 0 && !runId ? <option value="">No run of this family yet</option> : null}
            {familyRuns.map((run) => (
              <option key={run.id} value={run.id}>
                {run.title.slice(0, 60)} · {run.strategy} · {run.trials} {run.trials === 1 ? "trial" : "trials"}
                {run.outcome ? ` · ${run.outcome}` : ""} · {formatShortTime(run.createdAt)} · {run.id.slice(0, 8)}
              </option>
            ))}
          </select>
        </label>
        <form
          className="flex items-end gap-1"
          onSubmit={(event) => {
            event.preventDefault();
            const id = typedRunId.trim().replace(/^.*\/runs\//, "").replace(/[?#].*$/, "");
            if (id) {
              setRunId(decodeURIComponent(id));
              setTrial(null);
              setStep(1);
            }
          }}
        >
          <label htmlFor={ids.typed} className="space-y-0.5">
            <span className="block">or any run by id or link (imported paper runs too)</span>
            <input id={ids.typed} data-testid="preview-run-id" className={cn(inputClass, "h-8 w-64 py-0 text-xs")} placeholder="/runs/… or a run id" value={typedRunId} onChange={(event) => setTypedRunId(event.target.value)} />
          </label>
          <button type="submit" className="h-8 rounded-md border border-slate-300 bg-white px-2 text-xs font-medium text-slate-800 hover:bg-slate-50">
            Use
          </button>
        </form>
        {trials.length > 0 ? (
          <label htmlFor={ids.trial} className="space-y-0.5">
            <span className="block">Trial</span>
            <select id={ids.trial} data-testid="preview-trial" className={cn(inputClass, "h-8 w-44 py-0 text-xs")} value={trial?.trial ?? ""} onChange={(event) => setTrial(Number(event.target.value))}>
              {trials.map((candidate) => (
                <option key={candidate.trial} value={candidate.trial}>
                  Trial {candidate.trial} {candidate.outcome ? `(${candidate.outcome})` : "(in progress)"}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {template.role === "actor" && trial ? (
          <label htmlFor={ids.step} className="space-y-0.5">
            <span className="block">Step (1–{trial.steps})</span>
            <input id={ids.step} type="number" min={1} max={trial.steps} data-testid="preview-step" className={cn(inputClass, "h-8 w-20 py-0 text-xs")} value={step} onChange={(event) => setStep(Math.max(1, Number(event.target.value) || 1))} />
          </label>
        ) : null}
      </div>

      {runs.error ? <Notice tone="error" className="text-xs">Could not load the recent runs: {runs.error.message} Paste a run id instead.</Notice> : null}
      {runId === null ? (
        <p className="text-xs text-slate-600" data-testid="preview-empty">
          No recorded run of this family yet. Start one on the Runs page (the demo model works offline), or import the paper&apos;s runs, then pick it here.
        </p>
      ) : events.isPending ? (
        <p className="flex items-center gap-2 text-xs text-slate-500">
          <Spinner className="size-3" /> Loading the run…
        </p>
      ) : events.error ? (
        <Notice tone="error" className="text-xs">Could not load run {runId}: {events.error.message} Check the id, or pick a run from the list.</Notice>
      ) : wrongFamily ? (
        <Notice tone="warning" className="text-xs">This run is of another task family; pick a run of this template&apos;s family.</Notice>
      ) : trials.length === 0 ? (
        <p className="text-xs text-slate-600">This run has no trial this role can be previewed on{template.role === "reflector" ? " (no failed trial, so no Self-Reflection)" : ""}; pick another run.</p>
      ) : preview.error ? (
        <Notice tone="error" className="text-xs" data-testid="preview-error">
          Could not render the preview: {preview.error.message} Pick another trial or run, or fix the template.
        </Notice>
      ) : !preview.data ? (
        <p className="flex items-center gap-2 text-xs text-slate-500">
          <Spinner className="size-3" /> Rendering {ROLE_WHAT[template.role]}…
        </p>
      ) : (
        <div className="space-y-1.5">
          <p className="flex flex-wrap items-center gap-2 text-xs text-slate-700">
            <span>
              {ROLE_WHAT[template.role][0]!.toUpperCase() + ROLE_WHAT[template.role].slice(1)}, rendered with its real inputs:
            </span>
            <Badge tone="sky" data-testid="preview-tokens" data-tokens={preview.data.promptTokens}>
              {formatInteger(preview.data.promptTokens)} tokens
            </Badge>
            {preview.isFetching ? <Spinner className="size-3" /> : null}
            {same === true ? (
              <Badge tone="green" data-testid="preview-matches-recorded">identical to the prompt the engine recorded here</Badge>
            ) : same === false ? (
              <Badge tone="amber" data-testid="preview-differs-recorded" title="The recorded call used the run's own template text (or an edit of it)">
                differs from the recorded prompt (the run used another text)
              </Badge>
            ) : null}
          </p>
          {preview.data.unknownPlaceholders.length > 0 ? (
            <Notice tone="warning" className="text-xs" data-testid="preview-unknown">
              {preview.data.unknownPlaceholders.map((name) => `{${name}}`).join(", ")} stayed literal text in this prompt: this role does not fill{" "}
              {preview.data.unknownPlaceholders.length === 1 ? "it" : "them"}.
            </Notice>
          ) : null}
          <div className="h-[40vh] min-h-64 overflow-hidden rounded-md border border-slate-200 bg-white">
            <MonacoPromptEditor value={formatMessages(preview.data.messages)} height="100%" ariaLabel="Rendered prompt preview" />
          </div>
          <details className="text-[11px] text-slate-600">
            <summary className="cursor-pointer select-none">Plain text</summary>
            <pre tabIndex={0} className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 font-mono text-[11px] text-slate-800" data-testid="preview-text">
              {formatMessages(preview.data.messages)}
            </pre>
          </details>
        </div>
      )}
    </div>
  );
}
