"use client";

import { useMemo } from "react";
import { CarriedIn } from "@/components/costs/carried-in";
import { CarriedInsights } from "./carried-insights";
import { StoredLessons } from "./stored-lessons";
import type { RunStatus } from "@/lib/domain/api";
import type { MemoryItem } from "@/lib/domain/events";
import type { ReflectionView, RunState } from "@/lib/domain/fold-run";
import { nextTrialView } from "@/lib/domain/next-trial";
import { allowedActions, isTerminalStatus } from "@/lib/domain/status";
import { strategyBehaviour } from "@/lib/domain/strategies";
import { RoleReadOnlyNote } from "@/components/auth/role-read-only-note";
import { useEditRun } from "@/lib/query";
import { Button } from "@/components/ui/button";
import { strategyLabel } from "@/components/ui/strategy-labels";
import { MemorySummaryList } from "@/components/templates/memory-summary-list";
import { EditError, useDraft, useEditBase } from "@/components/run/stale-edit";
import { familyDescriptor } from "@/lib/environments/descriptors";
import { MemoryEntry } from "./memory-entry";
import { editedByLine } from "@/lib/graph/change-authors";

/** Reflections by event id, to show "edited" and the original text next to memory items. */
function reflectionsById(state: RunState): Map<string, ReflectionView> {
  const map = new Map<string, ReflectionView>();
  for (const trial of state.trials) if (trial.reflection) map.set(trial.reflection.eventId, trial.reflection);
  return map;
}


/** Edits the newest reflection's text (paused runs only). */
function ReflectionEditor({ runId, branch, reflection, trial, lastSeq }: { runId: string; branch: string | null; reflection: ReflectionView; trial: number; lastSeq: number }) {
  const { draft: text, setDraft: setText, dirty, reload } = useDraft(reflection.text);
  const base = useEditBase(lastSeq, dirty);
  const edit = useEditRun(runId, branch, base.baseSeq);
  return (
    <form
      className="space-y-1.5"
      onSubmit={(event) => {
        event.preventDefault();
        edit.mutate({ kind: "reflection", reflectionEventId: reflection.eventId, text });
      }}
    >
      <label htmlFor="reflection-editor" className="block text-xs font-medium text-slate-700">
        Newest reflection (trial {trial})
      </label>
      <textarea
        id="reflection-editor"
        data-testid="reflection-editor"
        value={text}
        onChange={(event) => setText(event.target.value)}
        rows={5}
        className="block w-full resize-y rounded-md border border-slate-300 bg-white px-2 py-1.5 text-xs leading-snug text-slate-900 focus:border-sky-600 focus:outline-none focus:ring-1 focus:ring-sky-600"
      />
      {reflection.edits > 0 ? (
        <p className="text-[11px] text-slate-500" title={reflection.originalText}>
          Edited {reflection.edits} {reflection.edits === 1 ? "time" : "times"}. Hover for the original.
        </p>
      ) : null}
      <EditError edit={edit} lastSeq={lastSeq} rebase={base.rebase} onReload={reload} />
      {edit.isSuccess && !dirty ? <p className="text-[11px] text-green-700">Saved. The next trial will see this text.</p> : null}
      <div className="flex gap-2">
        <Button type="submit" variant="primary" size="sm" disabled={!dirty || edit.isPending} data-testid="save-reflection">
          {edit.isPending ? "Saving…" : "Save reflection"}
        </Button>
        <Button size="sm" variant="ghost" disabled={!dirty || edit.isPending} onClick={reload}>
          Reset
        </Button>
      </div>
    </form>
  );
}

type Draft = { id: string; text: string; trial: number | null };

/** Two memory drafts hold the same entries in the same order. */
function sameDrafts(a: readonly Draft[], b: readonly Draft[]): boolean {
  return a.length === b.length && a.every((draft, index) => draft.id === b[index]?.id && draft.text === b[index]?.text);
}

function newId(): string {
  return typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `memory-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** Moves the item at `index` by `delta` places (−1 up, +1 down); unchanged when it would leave the list. */
function moved<T>(items: readonly T[], index: number, delta: number): T[] {
  const target = index + delta;
  if (target < 0 || target >= items.length) return [...items];
  const next = [...items];
  const [item] = next.splice(index, 1);
  if (item !== undefined) next.splice(target, 0, item);
  return next;
}

/**
 * Edits the whole episodic memory: change texts, delete, reorder, clear, add
 * hand-written entries (paused runs only). The order matters: the window Ω
 * keeps the newest (last) entries, and the Actor reads them in this order.
 */
function MemoryListEditor({ runId, branch, memory, reachesPrompt, lastSeq }: { runId: string; branch: string | null; memory: readonly MemoryItem[]; reachesPrompt: boolean; lastSeq: number }) {
  const live = useMemo<Draft[]>(() => memory.map((item) => ({ id: item.id, text: item.text, trial: item.trial })), [memory]);
  const { draft: drafts, setDraft: setDrafts, dirty, reload } = useDraft<Draft[]>(live, sameDrafts);
  const base = useEditBase(lastSeq, dirty);
  const edit = useEditRun(runId, branch, base.baseSeq);
  const update = (id: string, text: string) => setDrafts((current) => current.map((draft) => (draft.id === id ? { ...draft, text } : draft)));

  return (
    <form
      className="space-y-2"
      data-testid="memory-editor"
      onSubmit={(event) => {
        event.preventDefault();
        edit.mutate({ kind: "memory", memory: drafts.map((draft) => ({ id: draft.id, text: draft.text, trial: draft.trial })) });
      }}
    >
      {drafts.length === 0 ? (
        <p className="text-xs text-slate-500">{reachesPrompt ? "The memory is empty. Add an entry to give the next trial a hint." : "The memory is empty."}</p>
      ) : null}
      <ol className="space-y-2">
        {drafts.map((draft, index) => (
          <li key={draft.id} className="space-y-1">
            <div className="flex items-center justify-between">
              <label htmlFor={`memory-draft-${draft.id}`} className="text-[11px] font-medium text-slate-600">
                {index + 1}. {draft.trial === null ? "Hand-written" : `From trial ${draft.trial}`}
              </label>
              <span className="flex items-center gap-0.5">
                <Button
                  size="sm"
                  variant="ghost"
                  className="h-6 px-1.5"
                  disabled={index === 0}
                  onClick={() => setDrafts((current) => moved(current, index, -1))}
                  data-testid="memory-move-up"
                  aria-label={`Move memory entry ${index + 1} up`}
                  title="Move up (older)"
                >
                  ↑
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  className="h-6 px-1.5"
                  disabled={index === drafts.length - 1}
                  onClick={() => setDrafts((current) => moved(current, index, 1))}
                  data-testid="memory-move-down"
                  aria-label={`Move memory entry ${index + 1} down`}
                  title="Move down (newer)"
                >
                  ↓
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  className="h-6 px-1.5 text-red-700 hover:bg-red-50"
                  onClick={() => setDrafts((current) => current.filter((candidate) => candidate.id !== draft.id))}
                  data-testid="memory-delete"
                  aria-label={`Delete memory entry ${index + 1}`}
                >
                  Delete
                </Button>
              </span>
            </div>
            <textarea
              id={`memory-draft-${draft.id}`}
              data-testid="memory-item-editor"
              value={draft.text}
              onChange={(event) => update(draft.id, event.target.value)}
              rows={3}
              className="block w-full resize-y rounded-md border border-slate-300 bg-white px-2 py-1.5 text-xs leading-snug text-slate-900 focus:border-sky-600 focus:outline-none focus:ring-1 focus:ring-sky-600"
            />
          </li>
        ))}
      </ol>
      <EditError edit={edit} lastSeq={lastSeq} rebase={base.rebase} onReload={reload} />
      {edit.isSuccess && !dirty ? <p className="text-[11px] text-green-700">Memory saved.</p> : null}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={() => setDrafts((current) => [...current, { id: newId(), text: "", trial: null }])} data-testid="memory-add">
          + Add entry
        </Button>
        <Button
          size="sm"
          variant="danger"
          disabled={drafts.length === 0}
          onClick={() => setDrafts([])}
          data-testid="memory-clear"
          title="Remove every entry (then Save memory): the next trial starts without reflections"
        >
          Clear memory
        </Button>
        <Button type="submit" variant="primary" size="sm" disabled={!dirty || edit.isPending} data-testid="save-memory">
          {edit.isPending ? "Saving…" : "Save memory"}
        </Button>
        <Button size="sm" variant="ghost" disabled={!dirty || edit.isPending} onClick={() => setDrafts(memory.map((item) => ({ ...item })))}>
          Reset
        </Button>
      </div>
    </form>
  );
}

/**
 * The episodic memory: the window Ω in force for the newest trial (evicted
 * entries greyed), what the next trial will see (the strategy's rule,
 * lib/domain/next-trial.ts: under `none` and `last-attempt` no entry reaches a
 * prompt, hand-written ones included), and the whole memory. When the run is
 * paused, editors for the newest reflection and for the memory list.
 */
export function MemoryPanel({ runId, branch = null, state, status, readOnly = null }: { runId: string; branch?: string | null; state: RunState; status: RunStatus | null; /** Why the signed-in person may not edit this run (lib/domain/run-permissions.ts): no editors, "read-only: <reason>" instead. */ readOnly?: string | null }) {
  const reflections = reflectionsById(state);
  const memoryWindow = state.config?.memoryWindow ?? null;
  // Under the summarize option the engine merges the memory instead of windowing it: Ω does not apply.
  const summarizing = state.config?.memoryManagement?.kind === "summarize";
  const newestTrial = state.trials.at(-1);
  const next = nextTrialView(state);
  const inNextPrompt = new Set(next?.inContext.map((item) => item.id));
  const reachesPrompt = next?.reflectionsInPrompt ?? true;
  const newestReflectionTrial = [...state.trials].reverse().find((trial) => trial.reflection !== null);
  // Edits are offered exactly when the server takes them (lib/domain/status.ts).
  const paused = readOnly === null && status !== null && allowedActions(status).edit;
  const strategy = state.config?.strategy;
  const behaviour = strategy ? strategyBehaviour(strategy) : null;
  const more = status === null || !isTerminalStatus(status);

  return (
    <section data-testid="memory-panel" aria-label="Episodic memory" className="space-y-4 px-4 py-3">
      <div className="flex items-baseline justify-between gap-2">
        <h2 className="text-sm font-semibold text-slate-900">Episodic memory</h2>
        <span className="text-xs text-slate-500" data-testid="memory-window">
          {summarizing
            ? `summarised above ${state.config?.memoryManagement?.kind === "summarize" ? state.config.memoryManagement.tokenBudget : ""} tokens (Ω not applied)`
            : `window Ω = ${memoryWindow === null ? "∞" : memoryWindow}`}
        </span>
      </div>

      <CarriedIn state={state} />
      <CarriedInsights state={state} />
      {state.config?.provenance?.kind === "external-trace" ? <StoredLessons runId={runId} /> : null}

      {strategy && behaviour && !behaviour.reflectionsInPrompt ? (
        <p className="text-xs text-slate-600" data-testid="memory-strategy-note">
          {behaviour.includesLastAttempt
            ? `${strategyLabel(strategy, state.config?.environment)}: no reflections are written; each trial sees the previous trial's trajectory instead.`
            : `${strategyLabel(strategy, state.config?.environment)}: no reflections are written, so ${state.config ? familyDescriptor(state.config.environment).texts.noMemoryTrials : "every trial starts from scratch"}.`}{" "}
          {state.memory.length > 0 ? "The entries below reach no prompt under this strategy." : null}
        </p>
      ) : null}

      {newestTrial ? (
        <div className="space-y-1.5">
          <h3 className="text-[11px] font-semibold uppercase tracking-wide text-slate-500">
            In context for trial {newestTrial.trial} (newest) · {newestTrial.memory.length}
          </h3>
          {newestTrial.memory.length === 0 && newestTrial.evicted.length === 0 ? (
            <p className="text-xs text-slate-500">Nothing: trial {newestTrial.trial} started without reflections.</p>
          ) : (
            <ol className="space-y-1.5" data-testid="memory-in-context">
              {newestTrial.memory.map((item) => (
                <MemoryEntry key={item.id} item={item} reflection={reflections.get(item.id)} />
              ))}
              {newestTrial.evicted.map((item) => (
                <MemoryEntry key={item.id} item={item} reflection={reflections.get(item.id)} muted note="evicted by Ω" />
              ))}
            </ol>
          )}
        </div>
      ) : null}

      <div className="space-y-1.5">
        <h3 className="text-[11px] font-semibold uppercase tracking-wide text-slate-500">All reflections · {state.memory.length}</h3>
        {state.memoryEditedBy ? (
          <p className="text-[11px] text-slate-600" data-testid="memory-edited-by">
            Memory {editedByLine(state.memoryEditedBy)}
          </p>
        ) : null}
        {state.memory.length === 0 ? (
          <p className="text-xs text-slate-500">
            Empty. {behaviour?.reflectsAfterFailure ? "A reflection is written after each failed trial." : null}
          </p>
        ) : (
          <ol className="space-y-1.5" data-testid="memory-all">
            {state.memory.map((item) => (
              <MemoryEntry
                key={item.id}
                item={item}
                reflection={reflections.get(item.id)}
                muted={more && !inNextPrompt.has(item.id)}
                notes={{ runId, branch }}
                note={more ? (inNextPrompt.has(item.id) ? (next?.mergedFirst ? "merged, then seen" : "next trial sees it") : reachesPrompt ? "outside the window" : "not in the prompt (strategy)") : undefined}
              />
            ))}
          </ol>
        )}
        {more && next?.mergedFirst ? (
          <p className="text-[11px] text-slate-600" data-testid="memory-merged-first">
            Over the summary budget (estimated at 4 characters a token; the engine counts exactly): before trial {next.trial} starts, the Self-Reflection model merges these reflections into one, and trial {next.trial} sees that merge.
          </p>
        ) : null}
      </div>

      <MemorySummaryList runId={runId} branch={branch} />

      {paused ? (
        <div className="space-y-4 rounded-lg border border-amber-300 bg-white p-3" data-testid="memory-edit-area">
          <p className="text-xs text-slate-700">
            {reachesPrompt ? (
              <>
                The run is paused: edit what the next trial will see, then <strong>Resume</strong>.
              </>
            ) : (
              "The run is paused. This strategy puts no reflections into the Actor's prompt, so memory edits are recorded but no trial sees them."
            )}{" "}
            Edits are appended to the log; the original text is kept.
          </p>
          {newestReflectionTrial?.reflection ? (
            <ReflectionEditor
              // An edit saved elsewhere (another tab) shows up in an unchanged draft; a changed draft is kept and its save answers "stale" (useDraft).
              key={newestReflectionTrial.reflection.eventId}
              lastSeq={state.lastSeq}
              runId={runId}
              branch={branch}
              reflection={newestReflectionTrial.reflection}
              trial={newestReflectionTrial.trial}
            />
          ) : (
            <p className="text-xs text-slate-500">No reflection to edit yet.</p>
          )}
          <details className="group">
            <summary data-testid="memory-editor-toggle" className="cursor-pointer select-none text-xs font-medium text-slate-700 hover:text-slate-900">Edit the memory list (change, delete, add entries)</summary>
            <div className="mt-2">
              <MemoryListEditor runId={runId} branch={branch} memory={state.memory} reachesPrompt={reachesPrompt} lastSeq={state.lastSeq} />
            </div>
          </details>
        </div>
      ) : readOnly !== null && more ? (
        <RoleReadOnlyNote reason={readOnly} />
      ) : state.memory.length > 0 && more ? (
        <p className="text-[11px] text-slate-500">Pause the run to edit reflections or the memory.</p>
      ) : null}
    </section>
  );
}
