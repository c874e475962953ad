import type { EventData } from "./events";

/**
 * Cost projections of a run's recorded model calls
 * (docs/decisions/0024-costs-budgets-memory.md): totals per role — acting (the
 * Actor), evaluating (an LLM judge, role `evaluator`) and reflecting (the
 * Self-Reflection, including the memory summariser) — per trial and for the
 * run. Every figure is a sum of the calls' recorded `costUsd` and token counts,
 * so the totals always equal the sum of the call costs (tests/costs).
 */

/** The three kinds of spending the UI and the exports split costs into. */
export const COST_KINDS = ["acting", "evaluating", "reflecting"] as const;
export type CostKind = (typeof COST_KINDS)[number];

/** The cost kind of a call's role. */
export function costKindOf(role: string): CostKind {
  return role === "reflector" ? "reflecting" : role === "evaluator" ? "evaluating" : "acting";
}

/** Totals of a set of calls. Tokens are counts; `costUsd` sums the priced calls (USD); `unpricedCalls` counts the others. */
export interface CostLine {
  calls: number;
  liveCalls: number;
  inputTokens: number;
  /** Of `inputTokens`, those the provider served from its prompt cache. */
  cachedInputTokens: number;
  outputTokens: number;
  costUsd: number;
  unpricedCalls: number;
}

/** A run's costs: per kind, per trial (per kind inside), the models used per kind, and the total. */
export interface RunCostSummary {
  byKind: Record<CostKind, CostLine>;
  byTrial: Array<{ trial: number; byKind: Record<CostKind, CostLine>; total: CostLine }>;
  /** Model ids seen per kind, in first-use order. */
  models: Record<CostKind, string[]>;
  total: CostLine;
}

/** A line with nothing in it. */
export function emptyCostLine(): CostLine {
  return { calls: 0, liveCalls: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, costUsd: 0, unpricedCalls: 0 };
}

function emptyByKind(): Record<CostKind, CostLine> {
  return { acting: emptyCostLine(), evaluating: emptyCostLine(), reflecting: emptyCostLine() };
}

/** Adds one call to a line, in place. */
export function addCall(line: CostLine, call: Pick<EventData<"model-call-end">, "usage" | "costUsd" | "source">): void {
  line.calls += 1;
  if (call.source === "live") line.liveCalls += 1;
  line.inputTokens += call.usage.inputTokens;
  line.cachedInputTokens += call.usage.cachedInputTokens ?? 0;
  line.outputTokens += call.usage.outputTokens;
  if (call.costUsd === null) line.unpricedCalls += 1;
  else line.costUsd += call.costUsd;
}

/** Sums lines into a new one. */
export function sumLines(lines: readonly CostLine[]): CostLine {
  const total = emptyCostLine();
  for (const line of lines) {
    total.calls += line.calls;
    total.liveCalls += line.liveCalls;
    total.inputTokens += line.inputTokens;
    total.cachedInputTokens += line.cachedInputTokens;
    total.outputTokens += line.outputTokens;
    total.costUsd += line.costUsd;
    total.unpricedCalls += line.unpricedCalls;
  }
  return total;
}

/** The cost summary of a run's calls (`RunState.calls` values, any order; sorted by trial). */
export function summarizeCosts(calls: Iterable<Pick<EventData<"model-call-end">, "role" | "trial" | "usage" | "costUsd" | "source" | "settings">>): RunCostSummary {
  const byKind = emptyByKind();
  const trials = new Map<number, Record<CostKind, CostLine>>();
  const models: Record<CostKind, string[]> = { acting: [], evaluating: [], reflecting: [] };
  for (const call of calls) {
    const kind = costKindOf(call.role);
    addCall(byKind[kind], call);
    let trial = trials.get(call.trial);
    if (!trial) {
      trial = emptyByKind();
      trials.set(call.trial, trial);
    }
    addCall(trial[kind], call);
    if (!models[kind].includes(call.settings.modelId)) models[kind].push(call.settings.modelId);
  }
  const byTrial = [...trials.entries()]
    .sort(([a], [b]) => a - b)
    .map(([trial, kinds]) => ({ trial, byKind: kinds, total: sumLines(COST_KINDS.map((kind) => kinds[kind])) }));
  return { byKind, byTrial, models, total: sumLines(COST_KINDS.map((kind) => byKind[kind])) };
}
