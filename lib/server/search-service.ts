import type { AnnotationStore } from "@/lib/db/annotation-store";
import type { SearchIndex } from "@/lib/db/search-index";
import type { RunStore } from "@/lib/db/store";
import { foldAnnotations } from "@/lib/domain/annotations";
import { parseCellArmKey } from "@/lib/domain/experiment-cells";
import { asBranchId, asRunId, type BranchId, type RunId } from "@/lib/domain/ids";
import { foldRun } from "@/lib/domain/fold-run";
import { trialDocuments, type TrialDocumentMeta } from "@/lib/domain/search-documents";
import { parseQuery, printQuery } from "@/lib/domain/search-grammar";
import { compareHits, evaluateTrial, fieldsOf, searchWords, type TextNodeHit } from "@/lib/domain/search-match";
import type { SearchQuery, TrialHit, TrialSearchResult } from "@/lib/domain/search-query";

/** Hits returned when the caller gives no limit. */
export const DEFAULT_SEARCH_LIMIT = 50;
/** The most hits one answer carries. */
export const MAX_SEARCH_LIMIT = 1000;

/**
 * Search across runs (docs/search.md): parses a query (lib/domain/search-grammar.ts), brings the
 * per-trial index up to date, finds the text terms' nodes in the index's full text and decides
 * every trial with lib/domain/search-match.ts. `tag:` reads the annotation log through an
 * {@link AnnotationStore} (null: no annotations, so `tag:x` matches nothing).
 *
 * Freshness: before each search the service lists every branch's newest seq in one read
 * (`RunStore.listBranchSeqs`, the branch summaries' `lastSeq`) and compares it with the seq the
 * index recorded; only branches whose log grew (or are new) are folded again and their documents
 * replaced. Refreshes run one at a time.
 */
export class SearchService {
  private refreshing: Promise<number> = Promise.resolve(0);

  constructor(
    private readonly store: RunStore,
    private readonly index: SearchIndex,
    private annotations: AnnotationStore | null = null,
  ) {}

  /** Closes the index's connection (the context's close). */
  async close(): Promise<void> {
    await this.refreshing.catch(() => undefined);
    await this.index.close?.();
  }

  /** Gives the service the annotation log `tag:` reads (null: none). */
  useAnnotations(annotations: AnnotationStore | null): void {
    this.annotations = annotations;
  }

  /** Re-indexes the branches whose log grew since they were indexed. @returns how many were re-indexed. */
  refresh(): Promise<number> {
    const next = this.refreshing.catch(() => 0).then(() => this.refreshNow());
    this.refreshing = next;
    return next;
  }

  private async branchSeqs(): Promise<Array<{ runId: RunId; branchId: BranchId; lastSeq: number }>> {
    if (this.store.listBranchSeqs) return this.store.listBranchSeqs();
    const out: Array<{ runId: RunId; branchId: BranchId; lastSeq: number }> = [];
    for (const run of await this.store.listRuns(Number.MAX_SAFE_INTEGER)) {
      for (const branch of await this.store.listBranches(run.id)) {
        const summary = await this.store.getBranchSummary(branch.id);
        if (summary && summary.eventCount > 0) out.push({ runId: run.id, branchId: branch.id, lastSeq: summary.lastSeq });
      }
    }
    return out;
  }

  private async refreshNow(): Promise<number> {
    const indexed = await this.index.indexedSeqs();
    const stale = (await this.branchSeqs()).filter((branch) => indexed.get(branch.branchId) !== branch.lastSeq);
    const runs = new Map<string, Awaited<ReturnType<SearchService["runFacts"]>>>();
    for (const branch of stale) {
      const facts = runs.get(branch.runId) ?? (await this.runFacts(branch.runId));
      runs.set(branch.runId, facts);
      if (!facts) continue;
      const state = foldRun(await this.store.list(asRunId(branch.runId), asBranchId(branch.branchId)));
      const documents = trialDocuments(state, { ...facts, runId: branch.runId, branchId: branch.branchId });
      await this.index.replaceBranch({ runId: branch.runId, branchId: branch.branchId, lastSeq: state.lastSeq, documents });
    }
    return stale.length;
  }

  private async runFacts(runId: RunId): Promise<{ createdAt: string; title: string; experimentId: string | null; arm: string | null } | null> {
    const run = await this.store.getRun(runId);
    if (!run) return null;
    const cell = await this.store.experiments.experimentOfRun(runId);
    return { createdAt: run.createdAt, title: run.title, experimentId: cell?.experimentId ?? null, arm: cell ? parseCellArmKey(cell.arm).arm : null };
  }

  /** The tags of live annotations, by `runId:trial`, with the node each is on. */
  private async tagIndex(query: SearchQuery): Promise<(meta: TrialDocumentMeta) => Array<{ tag: string; eventId: string }>> {
    if (!this.annotations || !query.terms.some((term) => term.kind === "match" && term.field === "tag")) return () => [];
    const byTrial = new Map<string, Array<{ branchId: string; eventId: string; tags: string[] }>>();
    for (const annotation of foldAnnotations(await this.annotations.listEvents())) {
      if (annotation.deleted || annotation.target.trial === null || annotation.content.tags.length === 0) continue;
      const key = `${annotation.target.runId}:${annotation.target.trial}`;
      byTrial.set(key, [...(byTrial.get(key) ?? []), { branchId: annotation.target.branchId, eventId: annotation.target.eventId, tags: annotation.content.tags }]);
    }
    // An annotation shows on every branch whose path holds its node (a fork shares its parent's prefix).
    return (meta) => (byTrial.get(`${meta.runId}:${meta.trial}`) ?? []).filter((entry) => entry.branchId === meta.branchId || meta.eventIds.includes(entry.eventId)).flatMap((entry) => entry.tags.map((tag) => ({ tag, eventId: entry.eventId })));
  }

  /**
   * The nodes (thoughts, actions, observations, reflections of every indexed trial) holding the
   * words of `text` consecutively, each with its trial's fields, after a refresh — what the MCP tool
   * `search_steps` reads (lib/mcp/search-steps.ts). Any order; none when `text` has no word.
   */
  async findTextNodes(text: string): Promise<Array<TextNodeHit & { meta: TrialDocumentMeta }>> {
    await this.refresh();
    const words = searchWords(text);
    if (words.length === 0) return [];
    const nodes = await this.index.findText(words, ["thought", "action", "observation", "reflection"]);
    const metas = new Map((await this.index.listTrials()).map((meta) => [meta.key, meta]));
    return nodes.flatMap((node) => {
      const meta = metas.get(node.key);
      return meta ? [{ ...node, meta }] : [];
    });
  }

  /**
   * Answers a query over every trial of every branch, newest run first.
   * @param options.limit hits to return (default {@link DEFAULT_SEARCH_LIMIT}, at most {@link MAX_SEARCH_LIMIT}); `total` counts them all.
   * @throws SearchQueryError when the query does not parse (message and offset say what to fix).
   */
  async searchTrials(query: string, options: { limit?: number } = {}): Promise<TrialSearchResult> {
    const started = performance.now();
    const parsed = parseQuery(query);
    const limit = Math.max(1, Math.min(MAX_SEARCH_LIMIT, Math.floor(options.limit ?? DEFAULT_SEARCH_LIMIT)));
    await this.refresh();
    const { hits, total } = await answerQuery(this.index, parsed, limit, await this.tagIndex(parsed));
    return { query, normalized: printQuery(parsed), hits, total, truncated: total > hits.length, tookMs: Math.round((performance.now() - started) * 10) / 10 };
  }
}

/**
 * Answers a parsed query on an index as it stands (no refresh): the text terms' nodes from the
 * index's full text, then every trial decided by lib/domain/search-match.ts, newest run first.
 * `tagsOf` gives a trial's annotation tags. Exported for the benchmark (bench/search.bench.ts).
 */
export async function answerQuery(index: SearchIndex, parsed: SearchQuery, limit: number, tagsOf: (meta: TrialDocumentMeta) => ReadonlyArray<{ tag: string; eventId: string }> = () => []): Promise<{ hits: TrialHit[]; total: number }> {
  const textHits = new Map<number, Map<string, TextNodeHit[]>>();
  for (const [position, term] of parsed.terms.entries()) {
    if (term.kind !== "text") continue;
    const byKey = new Map<string, TextNodeHit[]>();
    for (const hit of await index.findText(searchWords(term.text), fieldsOf(term))) {
      const list = byKey.get(hit.key);
      if (list) list.push(hit);
      else byKey.set(hit.key, [hit]);
    }
    textHits.set(position, byKey);
  }
  const hits: TrialHit[] = [];
  let total = 0;
  for (const meta of (await index.listTrials()).sort(compareHits)) {
    const hit = evaluateTrial(meta, parsed, { textHits, tagsOf }, { snippets: hits.length < limit });
    if (!hit) continue;
    total += 1;
    if (hits.length < limit) hits.push(hit);
  }
  return { hits, total };
}
