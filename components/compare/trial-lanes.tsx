import type { TrialView } from "@/lib/domain/fold-run";
import { alignTrials, loopSteps, type Divergence } from "@/lib/graph/compare";
import { Badge } from "@/components/ui/badge";
import { OracleLabel } from "@/components/experiments/labels";
import { cn } from "@/lib/utils/cn";

/** A compared run's lane data: its trials and a short name for headings. */
export interface LaneRun {
  name: string;
  trials: readonly TrialView[];
  /** Why a run has no further trials (e.g. "solved at trial 2", "still running"). */
  endNote: string;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const outcomeTone = { success: "green", failure: "red", halted: "amber" } as const;

/** One trial of one run: memory in context, the steps, the verdict and the reflection. */
function Lane({ trial, runIndex, divergence }: { trial: TrialView; runIndex: number; divergence: Divergence | null }) {
  const loops = loopSteps(trial);
  const steps = [...trial.steps].filter((step) => step.action !== null || step.thought !== null).sort((a, b) => a.step - b.step);
  const divergesHere = divergence !== null && divergence.trial === trial.trial;
  return (
    <div className="space-y-2 text-xs" data-testid="lane" data-run-index={runIndex} data-trial={trial.trial}>
      <p className="text-[11px] text-slate-600" data-testid="lane-memory">
        <span className="font-semibold text-slate-700">Memory in context:</span>{" "}
        {trial.memory.length === 0 ? "none" : `${trial.memory.length} ${trial.memory.length === 1 ? "reflection" : "reflections"}`}
        {trial.evicted.length > 0 ? ` (${trial.evicted.length} evicted by Ω)` : ""}
      </p>
      <ol className="space-y-1.5">
        {steps.map((step) => {
          const isDivergence = divergesHere && divergence.step === step.step;
          const loop = loops.has(step.step);
          return (
            <li
              key={step.step}
              data-testid="lane-step"
              data-step={step.step}
              data-divergence={isDivergence || undefined}
              className={cn("rounded-md border px-2 py-1.5", isDivergence ? "border-amber-500 bg-amber-50 ring-2 ring-amber-400" : "border-slate-200 bg-white")}
            >
              <div className="flex flex-wrap items-center gap-1.5">
                <span className="font-semibold text-slate-500">Step {step.step}</span>
                {isDivergence ? (
                  <Badge tone="amber" data-testid="divergence-marker">
                    ◆ first divergence
                  </Badge>
                ) : null}
                {loop ? (
                  <Badge tone="red" title="The same action with the same observation as an earlier step of this trial">
                    ↻ loop
                  </Badge>
                ) : null}
              </div>
              {step.action ? (
                <p className="mt-0.5 break-words font-mono text-[12px] text-slate-900">
                  <span className="sr-only">Action: </span>
                  {step.action.text}
                  {step.action.callId === null ? <span className="ml-1 font-sans text-[11px] text-violet-700">(written by a person)</span> : null}
                </p>
              ) : (
                <p className="mt-0.5 italic text-slate-500">Thinking… (no action yet)</p>
              )}
              {step.observation ? (
                <p className="mt-0.5 break-words text-slate-600" title={step.observation.text}>
                  <span className="font-medium text-slate-500">→ </span>
                  {clip(step.observation.text, 180)}
                </p>
              ) : null}
            </li>
          );
        })}
        {steps.length === 0 ? <li className="italic text-slate-500">No steps yet.</li> : null}
      </ol>
      {trial.evaluation ? (
        <p className="flex flex-wrap items-center gap-1.5" data-testid="lane-verdict" data-verdict={trial.evaluation.verdict}>
          <span className="font-semibold text-slate-700">Evaluator:</span>
          <Badge tone={trial.evaluation.verdict === "pass" ? "green" : "red"}>{trial.evaluation.verdict === "pass" ? "✓ pass" : "✗ fail"}</Badge>
          {trial.outcome ? <Badge tone={outcomeTone[trial.outcome]}>{trial.outcome}</Badge> : null}
          {trial.evaluation.oracle ? <OracleLabel /> : null}
          {trial.evaluation.falsePositive ? <Badge tone="amber">false positive</Badge> : null}
        </p>
      ) : null}
      {trial.reflection ? (
        <div className="rounded-md border border-violet-200 bg-violet-50 px-2 py-1.5" data-testid="lane-reflection">
          <p className="text-[11px] font-semibold text-violet-900">
            Self-Reflection{trial.reflection.edits > 0 ? " (edited by a person)" : ""}
          </p>
          <p className="mt-0.5 whitespace-pre-wrap text-violet-950">{trial.reflection.text}</p>
        </div>
      ) : null}
    </div>
  );
}

/**
 * The runs side by side with their trial lanes aligned: trial k of each run in
 * one row. The first divergence (lib/graph/compare.ts) is marked on its step.
 */
export function TrialLanes({ runs, divergence }: { runs: readonly LaneRun[]; divergence: Divergence | null }) {
  const rows = alignTrials(runs.map((run) => run.trials));
  const columns = `7rem repeat(${runs.length}, minmax(16rem, 1fr))`;
  if (rows.length === 0) return <p className="py-6 text-center text-sm text-slate-500">No trial has started yet.</p>;
  return (
    // A focusable, named scroll region: on a narrow screen the lanes scroll sideways, also by keyboard; `relative` makes it the
    // containing block of the lanes' absolutely placed tooltips, which otherwise widened the whole page on a phone.
    <div className="relative overflow-x-auto" data-testid="trial-lanes" tabIndex={0} role="region" aria-label="Trial lanes (scroll sideways)">
      <div role="table" aria-label="Trials side by side" className="min-w-fit">
        <div role="row" className="grid gap-3 border-b border-slate-200 pb-2 text-xs font-semibold text-slate-700" style={{ gridTemplateColumns: columns }}>
          <span role="columnheader">Trial</span>
          {runs.map((run, index) => (
            <span role="columnheader" key={index} className="truncate">
              {run.name}
            </span>
          ))}
        </div>
        {rows.map((row) => (
          <div
            key={row.trial}
            role="row"
            data-testid="trial-row"
            data-trial={row.trial}
            className={cn("grid gap-3 border-b border-slate-100 py-3", divergence?.trial === row.trial && "bg-amber-50/40")}
            style={{ gridTemplateColumns: columns }}
          >
            <span role="rowheader" className="text-sm font-semibold text-slate-900">
              Trial {row.trial}
            </span>
            {row.lanes.map((trial, index) =>
              trial ? (
                <div role="cell" key={index}>
                  <Lane trial={trial} runIndex={index} divergence={divergence} />
                </div>
              ) : (
                <div role="cell" key={index} className="self-start rounded-md border border-dashed border-slate-300 px-2 py-3 text-xs text-slate-500" data-testid="lane-missing">
                  No trial {row.trial}: {runs[index]?.endNote}
                </div>
              ),
            )}
          </div>
        ))}
      </div>
    </div>
  );
}
