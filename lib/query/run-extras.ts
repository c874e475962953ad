/**
 * The "Budget, early stop and memory" fields (components/costs/run-extras-fields.tsx) as typed,
 * turned into create-run / arm fields (budget, adaptiveTrials, warmStart, writeMemory, ExpeL's
 * insights). Pure.
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
  /** ExpeL: the memory store whose insights the Actor carries from trial 1 on. */
  insightsStore?: string;
}

/** What the drafts add to a create-run request or an arm, or the problem to show. */
export interface RunExtrasRequest {
  budget?: { usd?: number; tokens?: number };
  adaptiveTrials?: { repeatWindow?: number; similarityThreshold: number; taskCostCeilingUsd?: number };
  warmStart?: { store: string; maxEntries: number };
  writeMemory?: { store: string };
  insights?: { store: string };
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
  for (const [label, store] of [["Warm start from", text(drafts.warmStore)], ["Remember reflections in", text(drafts.writeStore)], ["ExpeL insights from", text(drafts.insightsStore)]] as const) {
    if (store !== "" && !STORE.test(store)) return { request: {}, problem: `${label}: a store name is letters, digits, '.', '_' or '-' (up to 64).` };
  }
  if (!(Number.isInteger(warmMax) && warmMax >= 1 && warmMax <= 50)) return { request: {}, problem: "Carry at most 1–50 reflections." };
  const request: RunExtrasRequest = {};
  if (usd !== undefined || tokens !== undefined) request.budget = { ...(usd !== undefined ? { usd } : {}), ...(tokens !== undefined ? { tokens } : {}) };
  if (k !== undefined || ceiling !== undefined) request.adaptiveTrials = { similarityThreshold: 0.85, ...(k !== undefined ? { repeatWindow: k } : {}), ...(ceiling !== undefined ? { taskCostCeilingUsd: ceiling } : {}) };
  if (text(drafts.warmStore) !== "") request.warmStart = { store: text(drafts.warmStore), maxEntries: warmMax };
  if (text(drafts.writeStore) !== "") request.writeMemory = { store: text(drafts.writeStore) };
  if (text(drafts.insightsStore) !== "") request.insights = { store: text(drafts.insightsStore) };
  return { request, problem: null };
}

