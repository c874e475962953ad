import type { MemoryItem } from "@/lib/domain/events";
import type { TrialView } from "@/lib/domain/fold-run";
import { consecutiveTrialDiffs, memoryHistory, memoryUnchanged, reflectionEditDiff, type MemoryDiff, type TrialDiff, type TrialDiffRow } from "@/lib/graph/compare";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils/cn";
import { WordDiff, WordDiffKey } from "./word-diff";

const clip = (text: string | null, max: number) => (text === null ? "" : text.length > max ? `${text.slice(0, max - 1)}…` : text);

const changeLabel: Record<TrialDiffRow["change"], { text: string; tone: "neutral" | "amber" | "green" | "red" }> = {
  same: { text: "= same", tone: "neutral" },
  changed: { text: "≠ changed", tone: "amber" },
  added: { text: "+ only in later", tone: "green" },
  removed: { text: "− only in earlier", tone: "red" },
};

function StepCell({ step }: { step: TrialDiffRow["before"] }) {
  if (!step) return <span className="italic text-slate-500">no such step</span>;
  return (
    <span className="block space-y-0.5">
      <span className="flex flex-wrap items-start gap-1.5">
        <span className="break-words font-mono text-[12px] text-slate-900">{step.action}</span>
        {step.loop ? (
          <Badge tone="red" title="The same action with the same observation as an earlier step of this trial">
            ↻ loop
          </Badge>
        ) : null}
      </span>
      {step.observation !== null ? (
        <span className="block break-words text-[11px] text-slate-600" title={step.observation}>
          → {clip(step.observation, 140)}
        </span>
      ) : null}
    </span>
  );
}

/** The step-aligned diff of trial t → t + 1 of one run. */
function TrialDiffTable({ diff }: { diff: TrialDiff }) {
  return (
    <section className="space-y-1.5" data-testid="trial-diff" data-before={diff.before} data-after={diff.after} aria-label={`Trial ${diff.before} to trial ${diff.after}`}>
      <h4 className="flex flex-wrap items-center gap-2 text-xs font-semibold text-slate-800">
        Trial {diff.before} → trial {diff.after}
        <span className="font-normal text-slate-600">
          {diff.firstChangedStep === null ? "same actions throughout" : `first change at step ${diff.firstChangedStep}`}
          {diff.loopsBefore + diff.loopsAfter > 0 ? ` · loops: ${diff.loopsBefore} in trial ${diff.before}, ${diff.loopsAfter} in trial ${diff.after}` : ""}
        </span>
      </h4>
      <table className="w-full table-fixed text-left text-xs">
        <thead className="text-[11px] uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="w-14 py-1 font-semibold">Step</th>
            <th scope="col" className="py-1 font-semibold">Trial {diff.before}</th>
            <th scope="col" className="py-1 font-semibold">Trial {diff.after}</th>
            <th scope="col" className="w-32 py-1 font-semibold">Change</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 align-top">
          {diff.rows.map((row) => (
            <tr key={row.step} data-testid="trial-diff-row" data-change={row.change} className={cn(row.change !== "same" && "bg-amber-50/50")}>
              <td className="py-1.5 font-semibold text-slate-500">{row.step}</td>
              <td className="py-1.5 pr-3">
                <StepCell step={row.before} />
              </td>
              <td className="py-1.5 pr-3">
                {row.actionDiff && row.after ? (
                  <span className="block space-y-0.5">
                    <WordDiff changes={row.actionDiff} className="font-mono text-[12px]" />
                    {row.after.loop ? <Badge tone="red">↻ loop</Badge> : null}
                    {row.after.observation !== null ? <span className="block break-words text-[11px] text-slate-600">→ {clip(row.after.observation, 140)}</span> : null}
                  </span>
                ) : (
                  <StepCell step={row.after} />
                )}
              </td>
              <td className="py-1.5">
                <Badge tone={changeLabel[row.change].tone}>{changeLabel[row.change].text}</Badge>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function MemoryList({ title, items, tone, testId }: { title: string; items: readonly MemoryItem[]; tone: "green" | "amber" | "red" | "neutral"; testId: string }) {
  if (items.length === 0) return null;
  return (
    <div data-testid={testId}>
      <p className="mb-0.5">
        <Badge tone={tone}>{title}</Badge>
      </p>
      <ul className="ml-1 list-disc space-y-0.5 pl-4 text-slate-800">
        {items.map((item) => (
          <li key={item.id} className="whitespace-pre-wrap break-words">
            {item.text} <span className="text-[11px] text-slate-500">({item.trial === null ? "hand-written" : `from trial ${item.trial}`})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** What changed in the episodic memory at the start of one trial. */
function MemoryDiffCard({ diff }: { diff: MemoryDiff }) {
  const unchanged = memoryUnchanged(diff);
  return (
    <section className="space-y-1.5 rounded-md border border-slate-200 p-2.5 text-xs" data-testid="memory-diff" data-trial={diff.after} aria-label={`Memory at the start of trial ${diff.after}`}>
      <h4 className="font-semibold text-slate-800">
        Start of trial {diff.after}
        <span className="ml-1 font-normal text-slate-600">
          {diff.before === null ? "(compared with an empty memory)" : `(since trial ${diff.before})`}
        </span>
      </h4>
      {unchanged ? (
        <p className="text-slate-600">{diff.kept.length === 0 ? "Memory empty: nothing in the Actor's context." : `Unchanged: ${diff.kept.length} ${diff.kept.length === 1 ? "reflection" : "reflections"} kept.`}</p>
      ) : (
        <>
          <MemoryList title="+ entered" items={diff.entered} tone="green" testId="memory-entered" />
          <MemoryList title="− evicted by Ω" items={diff.evicted} tone="amber" testId="memory-evicted" />
          <MemoryList title="− deleted by an edit" items={diff.removed} tone="red" testId="memory-removed" />
          {diff.edited.length > 0 ? (
            <div data-testid="memory-edited">
              <p className="mb-0.5">
                <Badge tone="violet">✎ edited</Badge>
              </p>
              <ul className="ml-1 list-disc space-y-0.5 pl-4">
                {diff.edited.map((item) => (
                  <li key={item.id}>
                    <WordDiff changes={item.changes} />
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {diff.kept.length > 0 ? <p className="text-slate-600">= {diff.kept.length} kept unchanged</p> : null}
        </>
      )}
    </section>
  );
}

/**
 * One run's history: the step-aligned diff of each pair of consecutive trials
 * (loops flagged) and the episodic memory diff at the start of each trial
 * (entered, evicted by Ω, deleted, edited), plus reflections a person edited.
 */
export function RunHistory({ trials }: { trials: readonly TrialView[] }) {
  const diffs = consecutiveTrialDiffs(trials);
  const memory = memoryHistory(trials);
  const editedReflections = trials.flatMap((trial) => {
    const changes = reflectionEditDiff(trial.reflection);
    return changes ? [{ trial: trial.trial, changes }] : [];
  });
  return (
    <div className="grid gap-5 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <div className="space-y-3" data-testid="trial-diffs">
        <h3 className="flex flex-wrap items-center justify-between gap-2 text-sm font-semibold text-slate-900">
          Trial to trial, step by step <WordDiffKey />
        </h3>
        {diffs.length === 0 ? <p className="text-xs text-slate-500">This run has one trial so far: nothing to compare it with.</p> : diffs.map((diff) => <TrialDiffTable key={diff.after} diff={diff} />)}
      </div>
      <div className="space-y-3" data-testid="memory-diffs">
        <h3 className="text-sm font-semibold text-slate-900">Episodic memory across trials</h3>
        {memory.length === 0 ? <p className="text-xs text-slate-500">No trial has started yet.</p> : memory.map((diff) => <MemoryDiffCard key={diff.after} diff={diff} />)}
        {editedReflections.length > 0 ? (
          <section className="space-y-1.5 rounded-md border border-violet-200 p-2.5 text-xs" data-testid="reflection-edits">
            <h4 className="font-semibold text-slate-800">Reflections edited by a person (model&apos;s text → now)</h4>
            {editedReflections.map((item) => (
              <p key={item.trial}>
                <span className="font-semibold">Trial {item.trial}: </span>
                <WordDiff changes={item.changes} />
              </p>
            ))}
          </section>
        ) : null}
      </div>
    </div>
  );
}
