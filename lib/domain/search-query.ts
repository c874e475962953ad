/**
 * The query language of search across runs (docs/search.md): a space-separated list of terms, all
 * of which must hold (AND), each optionally negated with a leading `-`:
 *
 * - `field:value` — a match on a field (`family:qa`, `outcome:failure`, `tag:loop`,
 *   `action:Search[*]` with `*` as a wildcard);
 * - `field>n`, `field>=n`, `field<n`, `field<=n`, `field=n` — a comparison on a numeric field
 *   (`cost>0.01` in USD, `repeat>=3`, `steps>10`, `trial>=2`);
 * - a bare word or a "quoted phrase" — full-text search over thoughts, actions, observations and
 *   reflections (`thought:"…"` and friends scope it to one field).
 *
 * A query is answered per **trial** ({@link TrialHit}). The parser and printer live in
 * lib/domain/search-grammar.ts; every query round-trips: `parse(print(q))` equals `q`.
 */

/** Fields matched against one value (`field:value`). */
export const MATCH_FIELDS = ["family", "strategy", "model", "task", "run", "experiment", "arm", "outcome", "tag", "action"] as const;
export type MatchField = (typeof MATCH_FIELDS)[number];

/** Fields searched as text (`field:word` or `field:"a phrase"`). */
export const TEXT_FIELDS = ["thought", "observation", "reflection"] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

/** Numeric fields (comparisons). */
export const NUMERIC_FIELDS = ["cost", "repeat", "steps", "trial", "tokens"] as const;
export type NumericField = (typeof NUMERIC_FIELDS)[number];

export type CompareOp = "<" | "<=" | ">" | ">=" | "=";

/** One term of a query. */
export type SearchTerm =
  | { kind: "text"; field: TextField | null; text: string; negated: boolean }
  | { kind: "match"; field: MatchField; value: string; negated: boolean }
  | { kind: "compare"; field: NumericField; op: CompareOp; value: number; negated: boolean };

/** A parsed query: all terms must hold. An empty query matches every trial. */
export interface SearchQuery {
  terms: SearchTerm[];
}

/** Where a text term matched inside a trial: the node to open. */
export interface NodeMatch {
  eventId: string;
  field: "thought" | "action" | "observation" | "reflection";
  step: number | null;
  /** Up to ~80 characters either side of the match, `…` where cut. */
  snippet: string;
}

/** One trial a query matched. */
export interface TrialHit {
  runId: string;
  branchId: string;
  runTitle: string;
  family: string;
  strategy: string;
  taskId: string;
  experimentId: string | null;
  arm: string | null;
  trial: number;
  outcome: "success" | "failure" | "halted" | null;
  /** USD of the trial's model calls; null when unpriced. */
  costUsd: number | null;
  steps: number;
  /** How often the trial's most repeated action occurs (among actions matching `action:` when given). */
  repeat: number;
  /** That action's text; null when the trial has no action. */
  repeatedAction: string | null;
  /** The node a link should open: the first text match, else the trial's start. */
  eventId: string;
  matches: NodeMatch[];
}

/** What a search found. */
export interface TrialSearchResult {
  query: string;
  /** The query as the parser understood it (printed canonically). */
  normalized: string;
  hits: TrialHit[];
  /** Trials that matched in all (hits is cut at the limit). */
  total: number;
  truncated: boolean;
  /** ms spent answering. */
  tookMs: number;
}

/** A query that does not parse: what is wrong and where (0-based character offset). */
export class SearchQueryError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = "SearchQueryError";
  }
}

/**
 * True for a {@link SearchQueryError}, also one thrown by another copy of this module: the server
 * bundles a route and the shared server context separately, so `instanceof` alone can miss it.
 */
export function isSearchQueryError(error: unknown): error is SearchQueryError {
  return error instanceof SearchQueryError || (error instanceof Error && error.name === "SearchQueryError" && typeof (error as { offset?: unknown }).offset === "number");
}
