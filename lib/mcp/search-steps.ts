import type { RunStore } from "@/lib/db/store";
import { foldRun } from "@/lib/domain/fold-run";
import { compareNodes } from "@/lib/domain/search-match";
import type { SearchService } from "@/lib/server/search-service";

/**
 * `search_steps`: text contained in the thoughts, actions, observations and reflections of stored
 * runs, case-insensitively (plain substring, no ranking), in the newest `scanRuns` runs (root
 * branches only; forks are not searched), newest run first, in step order. The answer says how many
 * runs were searched and whether older ones were left out.
 *
 * With the search index (docs/search.md; {@link searchStepsIndexed}) the index's full text finds
 * the nodes holding the text's words and each is checked for the text itself: the same answer as
 * the scan whenever the text starts and ends on word boundaries (`Dunmere` finds `Dunmere's`;
 * `unmere` finds nothing). Without it ({@link searchSteps}) each log is folded with foldRun and scanned.
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
export function snippetAround(text: string, index: number, length: number): string {
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

/**
 * {@link searchSteps} answered from the search index: the same bounds (`scanRuns` newest runs, root
 * branches, `family`), order, matches and snippets, for text that starts and ends on word boundaries.
 */
export async function searchStepsIndexed(store: RunStore, search: Pick<SearchService, "findTextNodes">, input: { query: string; family?: string; limit: number; scanRuns: number }): Promise<StepSearchResult> {
  const needle = input.query.toLowerCase();
  const runs = await store.listRuns(input.scanRuns + 1);
  const searched = runs.slice(0, input.scanRuns).filter((run) => input.family === undefined || run.config.environment === input.family);
  const order = new Map(searched.map((run, position) => [run.id as string, { position, root: run.rootBranchId as string }]));
  const found = (await search.findTextNodes(input.query))
    .filter((node) => order.get(node.meta.runId)?.root === node.meta.branchId && node.text.toLowerCase().includes(needle))
    .sort((a, b) => order.get(a.meta.runId)!.position - order.get(b.meta.runId)!.position || a.meta.trial - b.meta.trial || compareNodes(a, b));
  const matches: StepMatch[] = found.slice(0, input.limit).map((node) => ({
    runId: node.meta.runId,
    environment: node.meta.family,
    taskId: node.meta.taskId,
    trial: node.meta.trial,
    step: node.step,
    field: node.field,
    snippet: snippetAround(node.text, node.text.toLowerCase().indexOf(needle), input.query.length),
  }));
  return { query: input.query, matches, scannedRuns: searched.length, truncated: runs.length > input.scanRuns || matches.length >= input.limit };
}
