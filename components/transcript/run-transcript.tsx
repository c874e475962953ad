"use client";

import { memo, useCallback, useEffect, useId, useMemo } from "react";
import { codeTrialSummary, type RunGraph } from "@/lib/graph";
import { runTranscript, transcriptElementId, type TranscriptEntry, type TranscriptTrial } from "@/lib/graph/transcript";
import { useRunUiStore } from "@/lib/store";
import { cn } from "@/lib/utils/cn";
import { TranscriptEntryItem } from "./transcript-entry";

/** The trial's outcome in words, as the lane header says it. */
function outcomeText(trial: TranscriptTrial): string {
  const { header } = trial;
  if (header.outcome === "success") return "solved";
  if (header.outcome === "failure") return "failed";
  if (header.outcome === "halted") return `halted${header.endReason ? ` (${header.endReason})` : ""}`;
  return header.cancelled ? "cancelled" : "in progress";
}

function sameEntries(a: readonly TranscriptEntry[], b: readonly TranscriptEntry[]): boolean {
  return a.length === b.length && a.every((entry, index) => entry === b[index]);
}

/** Trials whose nodes are the same objects render nothing new (lib/graph keeps unchanged nodes' identity). */
function sameTrial(a: TranscriptTrial, b: TranscriptTrial): boolean {
  return (
    a.header === b.header &&
    sameEntries(a.closing, b.closing) &&
    a.steps.length === b.steps.length &&
    a.steps.every((step, index) => step.step === b.steps[index]?.step && sameEntries(step.entries, b.steps[index]?.entries ?? [])) &&
    a.memoryIn.length === b.memoryIn.length &&
    a.memoryIn.every((item, index) => {
      const other = b.memoryIn[index];
      return other !== undefined && item.reflectionNodeId === other.reflectionNodeId && item.text === other.text && item.inContext === other.inContext;
    })
  );
}

const TrialSection = memo(
  function TrialSection({ trial, tabbable, onSelect }: { trial: TranscriptTrial; tabbable: boolean; onSelect: (nodeId: string) => void }) {
    const headingId = useId();
    const { header } = trial;
    const selected = useRunUiStore((state) => state.selectedNodeId === trial.headerNodeId);
    const spotlit = useRunUiStore((state) => state.spotlight.includes(trial.headerNodeId));
    return (
      <section
        aria-labelledby={headingId}
        className="border-b border-slate-200 py-3 last:border-b-0"
        data-testid="transcript-trial"
        data-trial={trial.trial}
      >
        <div
          id={tabbable ? transcriptElementId(trial.headerNodeId) : undefined}
          tabIndex={tabbable ? -1 : undefined}
          aria-current={selected ? "true" : undefined}
          data-testid="transcript-entry"
          data-transcript-node={trial.headerNodeId}
          data-kind="trial"
          data-trial={trial.trial}
          data-selected={selected || undefined}
          data-spotlit={spotlit || undefined}
          className={cn("rounded-md border border-transparent px-2 py-1", selected && "border-sky-600 bg-sky-50", spotlit && "outline-2 outline-amber-500")}
        >
          <div className="flex flex-wrap items-baseline gap-x-2">
            <h3 id={headingId} className="text-base font-semibold text-slate-900">
              Trial {trial.trial}: {outcomeText(trial)}
            </h3>
            <button
              type="button"
              tabIndex={tabbable ? undefined : -1}
              onClick={() => onSelect(trial.headerNodeId)}
              aria-label={`Details: trial ${trial.trial}`}
              data-testid="transcript-select"
              className="ml-auto rounded px-1.5 text-xs font-medium text-sky-800 underline underline-offset-2 hover:text-sky-950"
            >
              Details
            </button>
          </div>
          <p className="text-sm text-slate-700">
            {header.steps} {header.steps === 1 ? "step" : "steps"}. Episodic memory in the Actor&apos;s context: {header.memoryInContext}{" "}
            {header.memoryInContext === 1 ? "reflection" : "reflections"}
            {header.memoryEvicted > 0 ? `, ${header.memoryEvicted} left out by the memory window Ω` : ""}.
            {header.code ? ` ${codeTrialSummary(header.code)}.` : ""}
          </p>
          {header.memoryMissing ? <p className="text-sm font-medium text-red-800">The Actor&apos;s first prompt of this trial lacks memory it should carry.</p> : null}
          {trial.memoryIn.map((item) => (
            <p key={item.reflectionNodeId} className="mt-1 border-l-4 border-amber-500 pl-2 text-sm text-slate-800" data-testid="transcript-memory-in">
              Memory carried in from trial {item.fromTrial}
              {item.inContext ? "" : " (not in this trial's context)"}: {item.text}
            </p>
          ))}
        </div>
        {trial.steps.map((step, index) => (
          <div key={`${step.step}-${index}`} className="mt-2" data-testid="transcript-step" data-step={step.step}>
            <h4 className="px-2 text-sm font-semibold text-slate-800">Step {step.step}</h4>
            <ol className="space-y-0.5">
              {step.entries.map((entry) => (
                <TranscriptEntryItem key={entry.id} entry={entry} tabbable={tabbable} onSelect={onSelect} />
              ))}
            </ol>
          </div>
        ))}
        {trial.closing.length > 0 ? (
          <ol className="mt-2 space-y-0.5">
            {trial.closing.map((entry) => (
              <TranscriptEntryItem key={entry.id} entry={entry} tabbable={tabbable} onSelect={onSelect} />
            ))}
          </ol>
        ) : null}
      </section>
    );
  },
  (previous, next) => previous.tabbable === next.tabbable && previous.onSelect === next.onSelect && sameTrial(previous.trial, next.trial),
);

/** The `lg` breakpoint (components/run/run-workspace.tsx): below it the inspector is its own pane. */
const NARROW_SCREEN = "(max-width: 1023.98px)";

/**
 * The run as text, so every learner can use it: one headed section per
 * trial — what the Actor started with (the episodic memory carried in), each
 * step's thought, action and observation, the evaluation and the reflection —
 * with edits, checks and the lesson's spotlight as notes. Built from the same
 * graph the canvas draws (lib/graph/transcript.ts), so replay and lessons move
 * it too, and selection is shared: Details selects the node (the inspector
 * opens, the graph shows it), and a node selected elsewhere is scrolled into
 * view here.
 *
 * `visuallyHidden`: the copy a screen reader meets before the graph while the
 * Graph tab is shown; its buttons stay out of the Tab order, so sighted
 * keyboard users never land on something they cannot see.
 */
export function RunTranscript({ graph, visuallyHidden = false }: { graph: RunGraph; visuallyHidden?: boolean }) {
  const transcript = useMemo(() => runTranscript(graph), [graph]);
  const selectNode = useRunUiStore((state) => state.selectNode);
  const setMobilePane = useRunUiStore((state) => state.setMobilePane);
  const selected = useRunUiStore((state) => state.selectedNodeId);
  const headingId = useId();
  const tabbable = !visuallyHidden;

  const onSelect = useCallback(
    (nodeId: string) => {
      selectNode(nodeId);
      if (window.matchMedia(NARROW_SCREEN).matches) setMobilePane("details");
    },
    [selectNode, setMobilePane],
  );

  // A node selected anywhere (the graph, a lesson step, a ?node= link, replay) comes into view here.
  useEffect(() => {
    if (visuallyHidden || selected === null) return;
    const element = document.getElementById(transcriptElementId(selected));
    element?.scrollIntoView({ block: "nearest" });
  }, [selected, visuallyHidden, transcript]);

  return (
    <section
      aria-labelledby={headingId}
      className={visuallyHidden ? "sr-only" : "h-full overflow-y-auto px-3 py-2"}
      data-testid="run-transcript"
      data-visually-hidden={visuallyHidden || undefined}
    >
      <h2 id={headingId} className="px-2 text-sm font-semibold text-slate-900">
        Transcript of the run{visuallyHidden ? " (the text version of the graph; the Transcript tab shows it)" : ""}
      </h2>
      {transcript.trials.length === 0 ? <p className="px-2 text-sm text-slate-700">No trial yet.</p> : null}
      {transcript.trials.map((trial) => (
        <TrialSection key={trial.headerNodeId} trial={trial} tabbable={tabbable} onSelect={onSelect} />
      ))}
    </section>
  );
}
