import type { SearchNodeField, TrialDocument, TrialDocumentMeta } from "@/lib/domain/search-documents";
import type { TextNodeHit } from "@/lib/domain/search-match";

/**
 * Storage of the per-trial search index (docs/search.md): documents built from the folded logs
 * (lib/domain/search-documents.ts), replaced a branch at a time, with full text over the trials'
 * nodes. Adapters: SQLite FTS5 (search-index-sqlite.ts), PostgreSQL full text
 * (pg/pg-search-index.ts) and a scan in memory (search-index-memory.ts); one semantic suite
 * (tests/search/search-contract.ts) runs the same queries on all three and expects the same hits.
 * The index is derived data: dropping it loses nothing (the next search rebuilds it).
 */
export interface SearchIndex {
  /** Branch id → the log seq its documents were built at. */
  indexedSeqs(): Promise<Map<string, number>>;
  /** Replaces every document of `branchId` with `documents` (built at `lastSeq`), atomically. */
  replaceBranch(input: { runId: string; branchId: string; lastSeq: number; documents: readonly TrialDocument[] }): Promise<void>;
  /** Every indexed trial's fields, any order. */
  listTrials(): Promise<TrialDocumentMeta[]>;
  /**
   * The nodes of `fields` whose text holds `words` consecutively (words as
   * lib/domain/search-match.ts's `searchWords` cuts them: lower-cased runs of letters and digits).
   * Any order. An empty `words` finds nothing.
   */
  findText(words: readonly string[], fields: readonly SearchNodeField[]): Promise<TextNodeHit[]>;
  close?(): Promise<void>;
}
