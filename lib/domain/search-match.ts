import type { NodeMatch, SearchQuery, SearchTerm, TrialHit } from "./search-query";
import type { SearchNodeField, SearchTextNode, TrialDocumentMeta } from "./search-documents";

/**
 * How a parsed query decides on one trial (docs/search.md). Every index adapter finds the nodes a
 * text term matches its own way (FTS5, PostgreSQL full text, a scan); the rest is decided here, once:
 *
 * - text: words are runs of Unicode letters and digits, compared lower-cased (what FTS5's
 *   `unicode61 remove_diacritics 0` tokenizer does); a term matches a node holding its words
 *   consecutively (a phrase). A bare term searches thoughts, actions, observations and reflections.
 * - match fields: the whole value, case-insensitive, `*` standing for any run of characters;
 *   `tag:` and `action:` hold when any of the trial's tags / actions matches.
 * - numbers: `cost` (USD), `repeat`, `steps`, `trial`, `tokens`; an unknown cost compares false.
 * - `-` negates a term (an unknown cost then holds).
 */

/** A text's words, lower-cased: maximal runs of Unicode letters and digits. */
export function searchWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** True when `words` occur consecutively in `text`'s words. */
export function containsPhrase(text: string, words: readonly string[]): boolean {
  if (words.length === 0) return false;
  const hay = searchWords(text);
  outer: for (let i = 0; i + words.length <= hay.length; i += 1) {
    for (let j = 0; j < words.length; j += 1) if (hay[i + j] !== words[j]) continue outer;
    return true;
  }
  return false;
}

/** The fields a text term searches: its own, or all four for a bare term. */
export function fieldsOf(term: Extract<SearchTerm, { kind: "text" }>): readonly SearchNodeField[] {
  return term.field === null ? ["thought", "action", "observation", "reflection"] : [term.field];
}

/** A `*` wildcard pattern as a whole-value, case-insensitive test. */
export function globTest(pattern: string): (value: string) => boolean {
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&"))
    .join("[\\s\\S]*");
  const regex = new RegExp(`^${source}$`, "iu");
  return (value) => regex.test(value);
}

const SNIPPET_SIDE = 80;

/** Up to `side` (default 80) characters either side of the phrase's first occurrence (else of the start), `…` where cut; whitespace collapsed. */
export function snippetOf(text: string, words: readonly string[], side = SNIPPET_SIDE): string {
  let index = 0;
  let length = 0;
  if (words.length > 0) {
    const regex = new RegExp(words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&")).join("[^\\p{L}\\p{N}]+"), "iu");
    const found = regex.exec(text);
    if (found) {
      index = found.index;
      length = found[0].length;
    }
  }
  const start = Math.max(0, index - side);
  const end = Math.min(text.length, index + length + side);
  return `${start > 0 ? "…" : ""}${text.slice(start, end).replace(/\s+/gu, " ")}${end < text.length ? "…" : ""}`;
}

/** A shorter snippet (for a table row): `side` characters around the first of `phrases` (word lists) found in `snippet`. */
export function focusSnippet(snippet: string, phrases: ReadonlyArray<readonly string[]>, side: number): string {
  const inner = snippet.replace(/^…|…$/gu, "");
  const phrase = phrases.find((words) => containsPhrase(inner, words)) ?? [];
  return snippetOf(inner, phrase, side);
}

/** The word lists of a query's positive text terms (what a snippet is centred on). */
export function queryPhrases(query: SearchQuery): string[][] {
  return query.terms.flatMap((term) => (term.kind === "text" && !term.negated ? [searchWords(term.text)] : []));
}

const FIELD_ORDER: Record<SearchNodeField, number> = { thought: 0, action: 1, observation: 2, reflection: 3 };

/** Node order within a trial: by step (the reflection last), then thought, action, observation. */
export function compareNodes(a: { step: number | null; field: SearchNodeField }, b: { step: number | null; field: SearchNodeField }): number {
  const stepA = a.step ?? Number.MAX_SAFE_INTEGER;
  const stepB = b.step ?? Number.MAX_SAFE_INTEGER;
  return stepA - stepB || FIELD_ORDER[a.field] - FIELD_ORDER[b.field];
}

/** A text node an index found for a term, with its trial's key. */
export interface TextNodeHit extends SearchTextNode {
  key: string;
}

/** What the evaluation needs beside the trial: the text hits of each text term (by term index) and the trial's tags. */
export interface MatchContext {
  /** term index → trial key → the nodes the term matched there. */
  textHits: ReadonlyMap<number, ReadonlyMap<string, readonly TextNodeHit[]>>;
  /** The tags of the trial's live annotations, each with the node (event id) its annotation is on. */
  tagsOf(meta: TrialDocumentMeta): ReadonlyArray<{ tag: string; eventId: string }>;
}

/** The `repeat` of a trial: its most frequent action's count, among actions matching every positive `action:` term. */
export function repeatOf(meta: TrialDocumentMeta, query: SearchQuery): { repeat: number; action: string | null } {
  const tests = query.terms.filter((term) => term.kind === "match" && term.field === "action" && !term.negated).map((term) => globTest((term as { value: string }).value));
  let best: { repeat: number; action: string | null } = { repeat: 0, action: null };
  for (const [action, count] of Object.entries(meta.actionCounts)) {
    if (!tests.every((test) => test(action))) continue;
    if (count > best.repeat || (count === best.repeat && best.action !== null && action < best.action)) best = { repeat: count, action };
  }
  return best;
}

function matchValue(meta: TrialDocumentMeta, field: Extract<SearchTerm, { kind: "match" }>["field"], test: (value: string) => boolean, context: MatchContext): boolean {
  switch (field) {
    case "family":
      return test(meta.family);
    case "strategy":
      return test(meta.strategy);
    case "model":
      return test(meta.model);
    case "task":
      return test(meta.taskId);
    case "run":
      return test(meta.runId);
    case "experiment":
      return meta.experimentId !== null && test(meta.experimentId);
    case "arm":
      return meta.arm !== null && test(meta.arm);
    case "outcome":
      return meta.outcome !== null && test(meta.outcome);
    case "tag":
      return context.tagsOf(meta).some((entry) => test(entry.tag));
    case "action":
      return Object.keys(meta.actionCounts).some(test);
  }
}

function compare(left: number | null, op: string, right: number): boolean {
  if (left === null) return false;
  switch (op) {
    case "<":
      return left < right;
    case "<=":
      return left <= right;
    case ">":
      return left > right;
    case ">=":
      return left >= right;
    default:
      return left === right;
  }
}

/**
 * Decides one trial (`options.snippets` false: snippets left empty, for trials past the limit that are only counted). Returns its hit (matches: the nodes of positive text terms, in trial order,
 * each node once) or null when a term does not hold.
 */
export function evaluateTrial(meta: TrialDocumentMeta, query: SearchQuery, context: MatchContext, options: { snippets?: boolean } = {}): TrialHit | null {
  const snippets = options.snippets ?? true;
  const { repeat, action } = repeatOf(meta, query);
  const matched = new Map<string, NodeMatch & { order: TextNodeHit }>();
  // The node of the first annotation a positive `tag:` term matched: where a hit without text matches opens.
  let taggedNode: string | null = null;
  for (const [index, term] of query.terms.entries()) {
    let holds: boolean;
    if (term.kind === "text") {
      const nodes = context.textHits.get(index)?.get(meta.key) ?? [];
      holds = nodes.length > 0;
      if (holds && !term.negated) {
        const words = snippets ? searchWords(term.text) : [];
        for (const node of nodes) if (!matched.has(node.eventId)) matched.set(node.eventId, { eventId: node.eventId, field: node.field, step: node.step, snippet: snippets ? snippetOf(node.text, words) : "", order: node });
      }
    } else if (term.kind === "match") {
      holds = matchValue(meta, term.field, globTest(term.value), context);
      if (holds && !term.negated && term.field === "tag") taggedNode ??= context.tagsOf(meta).find((entry) => globTest(term.value)(entry.tag))?.eventId ?? null;
    }
    else {
      const values = { cost: meta.costUsd, repeat, steps: meta.steps, trial: meta.trial, tokens: meta.tokens };
      holds = compare(values[term.field], term.op, term.value);
    }
    if (holds === term.negated) return null;
  }
  const matches = [...matched.values()].sort((a, b) => compareNodes(a.order, b.order)).map(({ order: _order, ...match }) => match);
  return {
    runId: meta.runId,
    branchId: meta.branchId,
    runTitle: meta.runTitle,
    family: meta.family,
    strategy: meta.strategy,
    taskId: meta.taskId,
    experimentId: meta.experimentId,
    arm: meta.arm,
    trial: meta.trial,
    outcome: meta.outcome,
    costUsd: meta.costUsd,
    steps: meta.steps,
    repeat,
    repeatedAction: action,
    eventId: matches[0]?.eventId ?? taggedNode ?? (asksForActions(query) && action !== null ? meta.actionFirstEvents?.[action] : undefined) ?? meta.startEventId,
    matches,
  };
}

/** True when a positive term is about the trial's actions (`action:` or a `repeat` comparison): its hit opens the repeated action. */
function asksForActions(query: SearchQuery): boolean {
  return query.terms.some((term) => !term.negated && ((term.kind === "match" && term.field === "action") || (term.kind === "compare" && term.field === "repeat")));
}

/** Result order: newest run first, then branch id, then trial. */
export function compareHits(a: TrialDocumentMeta, b: TrialDocumentMeta): number {
  return codeOrder(b.runCreatedAt, a.runCreatedAt) || codeOrder(b.runId, a.runId) || codeOrder(a.branchId, b.branchId) || a.trial - b.trial;
}

/** Code-unit order (the same in every process and locale). */
function codeOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
