"use client";

import { useId, useState } from "react";
import type { RunExtrasDrafts } from "@/lib/query/run-extras";

export { runExtrasRequest, type RunExtrasDrafts, type RunExtrasRequest } from "@/lib/query/run-extras";

/**
 * "Budget, early stop and memory" fields of the new-run form and experiment arms:
 * a budget (USD and/or tokens), adaptive trials
 * (stop when the last k reflections repeat; a per-task cost ceiling), and memory
 * stores (warm start from one; remember reflections in one). Every field is
 * optional; empty means "none".
 */

/** Whether any field has a value. */
function anySet(value: RunExtrasDrafts): boolean {
  return Object.values(value).some((v) => (v ?? "").trim() !== "");
}

/**
 * Whether the disclosure is open after `value` changed: it opens when a field gets a value (a
 * preset, a copied arm) and otherwise stays as the person left it — clearing the last field while
 * typing must not collapse it.
 */
export function extrasOpenAfter(wasOpen: boolean, value: RunExtrasDrafts): boolean {
  return wasOpen || anySet(value);
}

/** The fields in a disclosure, closed until opened or something is set; once open it stays open until closed by hand. */
export function RunExtrasFields({ value, onChange, inputClass, testIdPrefix = "run" }: { value: RunExtrasDrafts; onChange: (next: RunExtrasDrafts) => void; inputClass: string; testIdPrefix?: string }) {
  const id = useId();
  const set = (key: keyof RunExtrasDrafts) => (event: { target: { value: string } }) => onChange({ ...value, [key]: event.target.value });
  const field = (key: keyof RunExtrasDrafts, label: string, hint: string, placeholder: string, numeric: boolean) => (
    <label className="flex flex-col text-xs text-slate-700" htmlFor={`${id}-${key}`}>
      {label}
      <input
        id={`${id}-${key}`}
        className={inputClass}
        inputMode={numeric ? "decimal" : undefined}
        value={value[key] ?? ""}
        onChange={set(key)}
        placeholder={placeholder}
        data-testid={`${testIdPrefix}-${key}`}
      />
      <span className="mt-0.5 text-[11px] text-slate-500">{hint}</span>
    </label>
  );
  const [open, setOpen] = useState(() => anySet(value));
  // Adjusting own state while rendering (React's pattern for state derived from props): opens when a value arrives.
  const nextOpen = extrasOpenAfter(open, value);
  if (nextOpen !== open) setOpen(nextOpen);
  return (
    <details
      className="rounded-md border border-slate-200 px-3 py-2"
      open={nextOpen}
      onToggle={(event) => setOpen(event.currentTarget.open)}
      data-testid={`${testIdPrefix}-extras`}
    >
      <summary className="cursor-pointer select-none text-sm font-medium text-slate-800">Budget, early stop and memory</summary>
      <div className="mt-2 grid gap-3 sm:grid-cols-2">
        {field("budgetUsd", "Budget, USD", "Stops cleanly at a step boundary; resume with a higher one.", "none", true)}
        {field("budgetTokens", "Budget, tokens", "Input + output tokens of live calls.", "none", true)}
        {field("repeatK", "Stop when the last k reflections repeat", "k ≥ 2; near-duplicates (similarity ≥ 0.85) count as repeats.", "off", true)}
        {field("ceilingUsd", "Task cost ceiling, USD", "No further trial once the task cost this much.", "off", true)}
        {field("warmStore", "Warm start from memory store", "Carries this task's newest reflections into trial 1.", "none", false)}
        {field("warmMax", "Reflections to carry in", "Newest first; the memory window Ω applies.", "3", true)}
        {field("writeStore", "Remember reflections in store", "Created with a 30-day retention if new (Settings → Memory stores).", "none", false)}
        {field("insightsStore", "ExpeL insights from store", "ExpeL runs only: the insights every trial carries (cli insights extract).", "none", false)}
      </div>
    </details>
  );
}
