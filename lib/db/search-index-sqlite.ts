import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import type { SearchNodeField, TrialDocument, TrialDocumentMeta } from "@/lib/domain/search-documents";
import { metaOf } from "@/lib/domain/search-documents";
import { containsPhrase, type TextNodeHit } from "@/lib/domain/search-match";
import type { SearchIndex } from "./search-index";
import { MIGRATIONS_FOLDER } from "./sqlite-store";
import * as schema from "./schema";
import { drizzleOver, openSqliteConnection, type SqliteConnection } from "./sqlite-connection";

/**
 * The SQLite {@link SearchIndex}: tables `search_branches`, `search_trials`, `search_nodes` of the
 * app's database file (its own connection; migrations applied on open), and an FTS5 table
 * `search_nodes_fts` with **external content** (`content='search_nodes'`: the text is stored once,
 * in `search_nodes`; FTS5 keeps only its inverted index), kept in step by two triggers. drizzle
 * cannot declare a virtual table, so the FTS5 table and triggers are created here, idempotently
 * (`IF NOT EXISTS`), on open; when the FTS5 table is new it is rebuilt from `search_nodes`.
 * Tokenizer `unicode61 remove_diacritics 0`: lower-cased runs of letters and digits, as
 * lib/domain/search-match.ts's `searchWords`.
 */
export class SqliteSearchIndex implements SearchIndex {
  private readonly client: SqliteConnection;
  /** Every trial's fields, parsed, while neither this connection nor another wrote (`PRAGMA data_version`). */
  private trials: { version: number; metas: TrialDocumentMeta[] } | null = null;

  /** Opens (creating if needed) the database at `file`; `:memory:` gives a private database (tests, benchmarks). */
  constructor(file: string, options: { migrationsFolder?: string } = {}) {
    this.client = openSqliteConnection(file);
    migrate(drizzleOver(this.client, schema), { migrationsFolder: options.migrationsFolder ?? MIGRATIONS_FOLDER });
    const existed = this.client.prepare("SELECT 1 FROM sqlite_master WHERE name = 'search_nodes_fts'").get() !== undefined;
    this.client.exec(`
      CREATE VIRTUAL TABLE IF NOT EXISTS search_nodes_fts USING fts5(text, content='search_nodes', content_rowid='id', tokenize='unicode61 remove_diacritics 0');
      CREATE TRIGGER IF NOT EXISTS search_nodes_fts_insert AFTER INSERT ON search_nodes BEGIN
        INSERT INTO search_nodes_fts(rowid, text) VALUES (new.id, new.text);
      END;
      CREATE TRIGGER IF NOT EXISTS search_nodes_fts_delete AFTER DELETE ON search_nodes BEGIN
        INSERT INTO search_nodes_fts(search_nodes_fts, rowid, text) VALUES ('delete', old.id, old.text);
      END;
    `);
    if (!existed) this.client.exec("INSERT INTO search_nodes_fts(search_nodes_fts) VALUES ('rebuild')");
  }

  async indexedSeqs(): Promise<Map<string, number>> {
    const rows = this.client.prepare("SELECT branch_id AS branchId, indexed_seq AS seq FROM search_branches").all() as Array<{ branchId: string; seq: number }>;
    return new Map(rows.map((row) => [row.branchId, Number(row.seq)]));
  }

  async replaceBranch(input: { runId: string; branchId: string; lastSeq: number; documents: readonly TrialDocument[] }): Promise<void> {
    const deleteNodes = this.client.prepare("DELETE FROM search_nodes WHERE branch_id = ?");
    const deleteTrials = this.client.prepare("DELETE FROM search_trials WHERE branch_id = ?");
    const insertTrial = this.client.prepare("INSERT INTO search_trials (key, branch_id, run_id, meta) VALUES (?, ?, ?, ?)");
    const insertNode = this.client.prepare("INSERT INTO search_nodes (trial_key, branch_id, event_id, field, step, text) VALUES (?, ?, ?, ?, ?, ?)");
    const upsertBranch = this.client.prepare(
      "INSERT INTO search_branches (branch_id, run_id, indexed_seq) VALUES (?, ?, ?) ON CONFLICT(branch_id) DO UPDATE SET indexed_seq = excluded.indexed_seq",
    );
    this.client.transaction(() => {
      deleteNodes.run(input.branchId);
      deleteTrials.run(input.branchId);
      for (const document of input.documents) {
        insertTrial.run(document.key, input.branchId, input.runId, JSON.stringify(metaOf(document)));
        for (const node of document.nodes) insertNode.run(document.key, input.branchId, node.eventId, node.field, node.step, node.text);
      }
      upsertBranch.run(input.branchId, input.runId, input.lastSeq);
    })();
    this.trials = null;
  }

  async listTrials(): Promise<TrialDocumentMeta[]> {
    // data_version changes when another connection (another process) commits; this one's writes clear the cache.
    const version = Number(this.client.pragma("data_version", { simple: true }));
    if (this.trials?.version !== version) {
      const rows = this.client.prepare("SELECT meta FROM search_trials").all() as Array<{ meta: string }>;
      this.trials = { version, metas: rows.map((row) => JSON.parse(row.meta) as TrialDocumentMeta) };
    }
    return [...this.trials.metas];
  }

  async findText(words: readonly string[], fields: readonly SearchNodeField[]): Promise<TextNodeHit[]> {
    if (words.length === 0 || fields.length === 0) return [];
    // Words are runs of letters and digits (searchWords), so quoting them makes a safe FTS5 phrase.
    const phrase = `"${words.join(" ")}"`;
    const rows = this.client
      .prepare(
        `SELECT n.trial_key AS key, n.event_id AS eventId, n.field AS field, n.step AS step, n.text AS text
         FROM search_nodes_fts JOIN search_nodes n ON n.id = search_nodes_fts.rowid
         WHERE search_nodes_fts MATCH ? AND n.field IN (${fields.map(() => "?").join(", ")})`,
      )
      .all(phrase, ...fields) as Array<{ key: string; eventId: string; field: SearchNodeField; step: number | null; text: string }>;
    // FTS5 finds the candidates; the domain's word rule decides, so every adapter answers alike.
    return rows.filter((row) => containsPhrase(row.text, words)).map((row) => ({ key: row.key, eventId: row.eventId, field: row.field, step: row.step === null ? null : Number(row.step), text: row.text }));
  }

  async close(): Promise<void> {
    this.client.close();
  }
}
