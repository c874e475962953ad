import type { SearchNodeField, TrialDocument, TrialDocumentMeta } from "@/lib/domain/search-documents";
import { metaOf } from "@/lib/domain/search-documents";
import { containsPhrase, type TextNodeHit } from "@/lib/domain/search-match";
import type { SearchIndex } from "./search-index";

/** The in-memory {@link SearchIndex} (beside the in-memory run store): full text is a scan of every node with `containsPhrase`. */
export class MemorySearchIndex implements SearchIndex {
  private readonly branches = new Map<string, { seq: number; documents: readonly TrialDocument[] }>();

  async indexedSeqs(): Promise<Map<string, number>> {
    return new Map([...this.branches].map(([branchId, entry]) => [branchId, entry.seq]));
  }

  async replaceBranch(input: { runId: string; branchId: string; lastSeq: number; documents: readonly TrialDocument[] }): Promise<void> {
    this.branches.set(input.branchId, { seq: input.lastSeq, documents: structuredClone(input.documents) });
  }

  async listTrials(): Promise<TrialDocumentMeta[]> {
    return [...this.branches.values()].flatMap((entry) => entry.documents.map(metaOf));
  }

  async findText(words: readonly string[], fields: readonly SearchNodeField[]): Promise<TextNodeHit[]> {
    const hits: TextNodeHit[] = [];
    for (const entry of this.branches.values()) {
      for (const document of entry.documents) {
        for (const node of document.nodes) if (fields.includes(node.field) && containsPhrase(node.text, words)) hits.push({ ...node, key: document.key });
      }
    }
    return hits;
  }
}
