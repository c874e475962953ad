import { z } from "zod";

/**
 * The moment of a run a link names (docs/decisions/0021):
 * `/runs/:id?branch=<branch id>&cursor=<events shown>&node=<event id>` and, in a
 * lesson, `/lessons/:id?step=<1-based step>&present=1` (plus the run's keys).
 * Pure parse / serialise helpers; the page keeps them in sync with the run UI
 * store (components/replay/run-url-sync.tsx) without adding history entries.
 */
export interface RunUrlState {
  /** The branch shown; null = the run's root branch. */
  branch: string | null;
  /** Replay cursor, events shown (lib/graph/replay-cursor.ts); null = live / the whole log. */
  cursor: number | null;
  /** The selected graph node (an event id); null = none. */
  node: string | null;
  /** Lesson step, 1-based (lesson pages only); null = the first. */
  step: number | null;
  /** Presenter mode (lesson pages only). */
  present: boolean;
}

/** The search-parameter names, in the order links are written. */
export const URL_STATE_KEYS = ["branch", "cursor", "node", "step", "present"] as const;

const idSchema = z.string().trim().min(1).max(200);
const countSchema = z.coerce.number().int().nonnegative().max(10_000_000);
const stepSchema = z.coerce.number().int().positive().max(10_000);

/** Reads a value; a malformed one (e.g. `cursor=abc`) is dropped, never an error: a link must always open. */
function read<T>(schema: z.ZodType<T>, raw: string | null): T | null {
  if (raw === null) return null;
  const parsed = schema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** Parses the page's search parameters (`URLSearchParams`, or a query string with or without `?`). */
export function parseRunUrlState(search: URLSearchParams | string): RunUrlState {
  const params = typeof search === "string" ? new URLSearchParams(search.startsWith("?") ? search.slice(1) : search) : search;
  const present = params.get("present");
  return {
    branch: read(idSchema, params.get("branch")),
    cursor: read(countSchema, params.get("cursor")),
    node: read(idSchema, params.get("node")),
    step: read(stepSchema, params.get("step")),
    present: present === "1" || present === "true",
  };
}

/**
 * Writes `state` into a query string (`""` or `?…`): keys with no value are left
 * out, other parameters of `base` (not ours) are kept in front, unchanged.
 */
export function serializeRunUrlState(state: Partial<RunUrlState>, base?: URLSearchParams | string): string {
  const source = base === undefined ? new URLSearchParams() : typeof base === "string" ? new URLSearchParams(base.startsWith("?") ? base.slice(1) : base) : base;
  const params = new URLSearchParams();
  const ours = new Set<string>(URL_STATE_KEYS);
  for (const [key, value] of source) if (!ours.has(key)) params.append(key, value);
  if (state.branch) params.set("branch", state.branch);
  if (state.cursor !== null && state.cursor !== undefined) params.set("cursor", String(state.cursor));
  if (state.node) params.set("node", state.node);
  if (state.step !== null && state.step !== undefined) params.set("step", String(state.step));
  if (state.present) params.set("present", "1");
  const query = params.toString();
  return query === "" ? "" : `?${query}`;
}

/** The link to a moment of a run: `/runs/:id?branch=…&cursor=…&node=…`. */
export function runMomentHref(runId: string, state: Partial<RunUrlState>): string {
  return `/runs/${encodeURIComponent(runId)}${serializeRunUrlState({ branch: state.branch, cursor: state.cursor, node: state.node })}`;
}
