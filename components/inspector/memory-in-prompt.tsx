"use client";

import type { RunState } from "@/lib/domain/fold-run";
import type { MemoryItem } from "@/lib/domain/events";
import { locateMemoryInPrompt, missingMemory, promptText } from "@/lib/graph";
import { Notice } from "@/components/ui/notice";
import { Section } from "./blocks";

const NO_MEMORY: readonly MemoryItem[] = [];

/**
 * For an Actor prompt: each reflection the trial started with, and whether
 * (and how often) its text occurs in the prompt; a warning when the memory the
 * strategy expects is missing from it.
 */
export function MemoryInPrompt({ call, state }: { call: RunState["calls"][string]; state: RunState }) {
  const trial = state.trials.find((candidate) => candidate.trial === call.trial);
  const previousTrial = state.trials.find((candidate) => candidate.trial === call.trial - 1) ?? null;
  const strategy = state.config?.strategy ?? "none";
  const text = promptText(call.messages);
  const memory = trial?.memory ?? NO_MEMORY;
  const located = locateMemoryInPrompt(text, memory);
  if (!trial) return null;
  const warning = missingMemory({ strategy, trial, previousTrial, prompt: text, step: call.step });
  if (memory.length === 0 && !warning) return null;
  return (
    <Section title={`Memory in this prompt · ${memory.length}`}>
      {warning ? (
        <Notice tone="warning" data-testid="missing-memory-warning" className="text-xs">
          <strong className="font-semibold">Memory missing from the prompt.</strong> {warning.message}
        </Notice>
      ) : null}
      {memory.length > 0 ? (
        <ol className="space-y-1" data-testid="prompt-memory">
          {memory.map((item) => {
            const count = located.occurrences[item.id] ?? 0;
            return (
              <li
                key={item.id}
                data-testid="prompt-memory-item"
                data-memory-id={item.id}
                data-found={count > 0}
                className={`rounded-md border px-2 py-1 text-xs ${count > 0 ? "border-amber-200 bg-amber-50 text-slate-800" : "border-red-200 bg-red-50 text-red-900"}`}
              >
                <span className="mr-1 font-medium">{count > 0 ? "✓ in the prompt" : "✗ not in the prompt"}</span>
                <span className="text-slate-500">({item.trial === null ? "hand-written" : `from trial ${item.trial}`}{count > 1 ? `, ${count}×` : ""})</span>
                <span className="mt-0.5 line-clamp-2 block">{item.text}</span>
              </li>
            );
          })}
        </ol>
      ) : null}
      {located.matches.length > 0 ? <p className="text-[11px] text-slate-500">Highlighted in the prompt below.</p> : null}
    </Section>
  );
}

