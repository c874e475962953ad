import type { RunStore } from "@/lib/db/store";
import { foldRun } from "@/lib/domain/fold-run";

/**
 * `search_steps`: text contained in the thoughts, actions, observations and reflections of stored
 * runs. There is no search index over the event logs, so this is a bounded scan: the newest
 * `scanRuns` runs (root branches only; forks are not searched), each log folded with foldRun and
 * matched case-insensitively (plain substring, no ranking), newest run first, in step order. The
 * answer says how many runs were scanned and whether older ones were left out.
 */

/** The fields of a trajectory that are searched. */
export const SEARCHED_FIELDS = ["thought", "action", "observation", "reflection"] as const;
export type SearchedField = (typeof SEARCHED_FIELDS)[number];

/** One match: where it is and the text around it. */
export interface StepMatch {
  runId: string;
  environment: string;
  taskId: string;
  trial: number;
  /** The step; null for a reflection (written after the trial). */
  step: number | null;
  field: SearchedField;
  /** Up to ~80 characters either side of the first occurrence, `…` where cut. */
  snippet: string;
}

/** What a search found. */
export interface StepSearchResult {
  query: string;
  matches: StepMatch[];
  /** Runs whose logs were read. */
  scannedRuns: number;
  /** True when the scan stopped at `scanRuns` while older runs exist, or at `limit` matches. */
  truncated: boolean;
}

const SNIPPET_SIDE = 80;

/** `text` around its first occurrence at `index` of a match `length` long. */
function snippetAround(text: string, index: number, length: number): string {
  const start = Math.max(0, index - SNIPPET_SIDE);
  const end = Math.min(text.length, index + length + SNIPPET_SIDE);
  return `${start > 0 ? "…" : ""}${text.slice(start, end).replace(/\s+/gu, " ")}${end < text.length ? "…" : ""}`;
}

/**
 * Scans the newest `scanRuns` runs (optionally of one family) for `query` and returns at most
 * `limit` matches. Case-insensitive: both sides are lower-cased (`String.prototype.toLowerCase`).
 */
export async function searchSteps(store: RunStore, input: { query: string; family?: string; limit: number; scanRuns: number }): Promise<StepSearchResult> {
  const needle = input.query.toLowerCase();
  // One more than the bound, to know whether older runs were left out.
  const runs = await store.listRuns(input.scanRuns + 1);
  const scanned = runs.slice(0, input.scanRuns);
  const matches: StepMatch[] = [];
  let scannedRuns = 0;
  let truncated = runs.length > input.scanRuns;
  for (const run of scanned) {
    if (input.family !== undefined && run.config.environment !== input.family) continue;
    scannedRuns += 1;
    const state = foldRun(await store.list(run.id, run.rootBranchId));
    const at = { runId: run.id, environment: run.config.environment, taskId: run.config.taskId };
    const consider = (trial: number, step: number | null, field: SearchedField, text: string | null | undefined) => {
      if (!text || matches.length >= input.limit) return;
      const index = text.toLowerCase().indexOf(needle);
      if (index >= 0) matches.push({ ...at, trial, step, field, snippet: snippetAround(text, index, input.query.length) });
    };
    for (const trial of state.trials) {
      for (const step of [...trial.steps].sort((a, b) => a.step - b.step)) {
        consider(trial.trial, step.step, "thought", step.thought?.text);
        consider(trial.trial, step.step, "action", step.action?.text);
        consider(trial.trial, step.step, "observation", step.observation?.text);
      }
      consider(trial.trial, null, "reflection", trial.reflection?.text);
    }
    if (matches.length >= input.limit) {
      truncated = true;
      break;
    }
  }
  return { query: input.query, matches, scannedRuns, truncated };
}
