import { eq, inArray, sql } from "drizzle-orm";
import type { SearchNodeField, TrialDocument, TrialDocumentMeta } from "@/lib/domain/search-documents";
import { metaOf } from "@/lib/domain/search-documents";
import { containsPhrase, type TextNodeHit } from "@/lib/domain/search-match";
import type { SearchIndex } from "../search-index";
import type { PgDb } from "./database";
import * as schema from "./schema";

/** PostgreSQL `text` cannot hold U+0000 (a model's or a program's output may): stored as U+FFFD, which is no letter either. */
function storable(text: string): string {
  return text.replaceAll("\u0000", "\uFFFD");
}

/**
 * The PostgreSQL {@link SearchIndex} (shared mode): tables `search_branches`, `search_trials`
 * (`meta` jsonb) and `search_nodes`, and a GIN index over `to_tsvector('simple', text)` created
 * at first use (`CREATE INDEX IF NOT EXISTS`; drizzle cannot declare an expression index of a
 * text-search function). A text term is `to_tsvector('simple', text) @@ phraseto_tsquery('simple', words)`
 * — the `simple` configuration: lower-cased, no stemming, no stop words. PostgreSQL's parser cuts
 * words differently from FTS5 in places (hyphenated words, URLs, e-mail addresses, file paths),
 * so each candidate node is checked again with lib/domain/search-match.ts's `containsPhrase`:
 * the hits are the same as the other adapters' whenever PostgreSQL finds the node.
 */
export class PgSearchIndex implements SearchIndex {
  private indexed: Promise<void> | null = null;

  constructor(
    private readonly db: PgDb,
    private readonly ready: () => Promise<void> = async () => undefined,
  ) {}

  private prepared(): Promise<void> {
    this.indexed ??= (async () => {
      await this.ready();
      await this.db.execute(sql.raw("CREATE INDEX IF NOT EXISTS search_nodes_tsv ON search_nodes USING GIN (to_tsvector('simple', text))"));
    })().catch((error: unknown) => {
      this.indexed = null;
      throw error;
    });
    return this.indexed;
  }

  async indexedSeqs(): Promise<Map<string, number>> {
    await this.prepared();
    const rows = await this.db.select({ branchId: schema.searchBranches.branchId, seq: schema.searchBranches.indexedSeq }).from(schema.searchBranches);
    return new Map(rows.map((row) => [row.branchId, row.seq]));
  }

  async replaceBranch(input: { runId: string; branchId: string; lastSeq: number; documents: readonly TrialDocument[] }): Promise<void> {
    await this.prepared();
    await this.db.transaction(async (tx) => {
      await tx.delete(schema.searchNodes).where(eq(schema.searchNodes.branchId, input.branchId));
      await tx.delete(schema.searchTrials).where(eq(schema.searchTrials.branchId, input.branchId));
      if (input.documents.length > 0) {
        await tx.insert(schema.searchTrials).values(input.documents.map((document) => ({ key: document.key, branchId: input.branchId, runId: input.runId, meta: metaOf(document) })));
        const nodes = input.documents.flatMap((document) =>
          document.nodes.map((node) => ({ trialKey: document.key, branchId: input.branchId, eventId: node.eventId, field: node.field, step: node.step, text: storable(node.text) })),
        );
        for (let start = 0; start < nodes.length; start += 1000) await tx.insert(schema.searchNodes).values(nodes.slice(start, start + 1000));
      }
      await tx
        .insert(schema.searchBranches)
        .values({ branchId: input.branchId, runId: input.runId, indexedSeq: input.lastSeq })
        .onConflictDoUpdate({ target: schema.searchBranches.branchId, set: { indexedSeq: input.lastSeq } });
    });
  }

  async listTrials(): Promise<TrialDocumentMeta[]> {
    await this.prepared();
    const rows = await this.db.select({ meta: schema.searchTrials.meta }).from(schema.searchTrials);
    return rows.map((row) => row.meta as TrialDocumentMeta);
  }

  async findText(words: readonly string[], fields: readonly SearchNodeField[]): Promise<TextNodeHit[]> {
    if (words.length === 0 || fields.length === 0) return [];
    await this.prepared();
    const n = schema.searchNodes;
    const rows = await this.db
      .select({ key: n.trialKey, eventId: n.eventId, field: n.field, step: n.step, text: n.text })
      .from(n)
      .where(sql`to_tsvector('simple', ${n.text}) @@ phraseto_tsquery('simple', ${words.join(" ")}) AND ${inArray(n.field, [...fields])}`);
    return rows.filter((row) => containsPhrase(row.text, words)).map((row) => ({ ...row, field: row.field as SearchNodeField }));
  }
}
