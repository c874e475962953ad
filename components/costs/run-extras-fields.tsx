"use client";

import { useId } from "react";

/**
 * "Budget, early stop and memory" fields of the new-run form and experiment arms
 * (issue 16 parts 3, 5 and 7): a budget (USD and/or tokens), adaptive trials
 * (stop when the last k reflections repeat; a per-task cost ceiling), and memory
 * stores (warm start from one; remember reflections in one). Every field is
 * optional; empty means "none".
 */

/** The fields as typed (strings, so half-typed numbers survive). */
export interface RunExtrasDrafts {
  budgetUsd?: string;
  budgetTokens?: string;
  repeatK?: string;
  ceilingUsd?: string;
  warmStore?: string;
  warmMax?: string;
  writeStore?: string;
}

/** What the drafts add to a create-run request or an arm, or the problem to show. */
export interface RunExtrasRequest {
  budget?: { usd?: number; tokens?: number };
  adaptiveTrials?: { repeatWindow?: number; similarityThreshold: number; taskCostCeilingUsd?: number };
  warmStart?: { store: string; maxEntries: number };
  writeMemory?: { store: string };
}

const STORE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Parses the drafts: the request fields, or a problem naming the field to fix. */
export function runExtrasRequest(drafts: RunExtrasDrafts): { request: RunExtrasRequest; problem: string | null } {
  const text = (value: string | undefined) => (value ?? "").trim();
  const num = (value: string | undefined) => (text(value) === "" ? undefined : Number(text(value)));
  const usd = num(drafts.budgetUsd);
  const tokens = num(drafts.budgetTokens);
  const k = num(drafts.repeatK);
  const ceiling = num(drafts.ceilingUsd);
  const warmMax = num(drafts.warmMax) ?? 3;
  if (usd !== undefined && !(usd > 0)) return { request: {}, problem: "The budget in USD must be a number above 0 (or empty for none)." };
  if (tokens !== undefined && !(Number.isInteger(tokens) && tokens > 0)) return { request: {}, problem: "The token budget must be a whole number above 0 (or empty for none)." };
  if (k !== undefined && !(Number.isInteger(k) && k >= 2 && k <= 10)) return { request: {}, problem: "“Stop when the last k reflections repeat” needs k between 2 and 10 (or empty)." };
  if (ceiling !== undefined && !(ceiling > 0)) return { request: {}, problem: "The task cost ceiling must be a number above 0 (or empty)." };
  for (const [label, store] of [["Warm start from", text(drafts.warmStore)], ["Remember reflections in", text(drafts.writeStore)]] as const) {
    if (store !== "" && !STORE.test(store)) return { request: {}, problem: `${label}: a store name is letters, digits, '.', '_' or '-' (up to 64).` };
  }
  if (!(Number.isInteger(warmMax) && warmMax >= 1 && warmMax <= 50)) return { request: {}, problem: "Carry at most 1–50 reflections." };
  const request: RunExtrasRequest = {};
  if (usd !== undefined || tokens !== undefined) request.budget = { ...(usd !== undefined ? { usd } : {}), ...(tokens !== undefined ? { tokens } : {}) };
  if (k !== undefined || ceiling !== undefined) request.adaptiveTrials = { similarityThreshold: 0.85, ...(k !== undefined ? { repeatWindow: k } : {}), ...(ceiling !== undefined ? { taskCostCeilingUsd: ceiling } : {}) };
  if (text(drafts.warmStore) !== "") request.warmStart = { store: text(drafts.warmStore), maxEntries: warmMax };
  if (text(drafts.writeStore) !== "") request.writeMemory = { store: text(drafts.writeStore) };
  return { request, problem: null };
}

/** The fields in a disclosure, closed unless something is set. */
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
  const open = Object.values(value).some((v) => (v ?? "").trim() !== "");
  return (
    <details className="rounded-md border border-slate-200 px-3 py-2" open={open} data-testid={`${testIdPrefix}-extras`}>
      <summary className="cursor-pointer select-none text-sm font-medium text-slate-800">Budget, early stop and memory</summary>
      <div className="mt-2 grid gap-3 sm:grid-cols-2">
        {field("budgetUsd", "Budget, USD", "Stops cleanly at a step boundary; resume with a higher one.", "none", true)}
        {field("budgetTokens", "Budget, tokens", "Input + output tokens of live calls.", "none", true)}
        {field("repeatK", "Stop when the last k reflections repeat", "k ≥ 2; near-duplicates (similarity ≥ 0.85) count as repeats.", "off", true)}
        {field("ceilingUsd", "Task cost ceiling, USD", "No further trial once the task cost this much.", "off", true)}
        {field("warmStore", "Warm start from memory store", "Carries this task's newest reflections into trial 1.", "none", false)}
        {field("warmMax", "Reflections to carry in", "Newest first; the memory window Ω applies.", "3", true)}
        {field("writeStore", "Remember reflections in store", "Created with a 30-day retention if new (Settings → Memory stores).", "none", false)}
      </div>
    </details>
  );
}
