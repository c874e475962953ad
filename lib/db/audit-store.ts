import type { AuditEntry, AuditPage, AuditQuery } from "@/lib/domain/audit";

/**
 * Storage of the audit log (table `audit_log`; docs/audit.md): entries are only ever added.
 * Adapters: in-memory (./audit-store-memory.ts), SQLite (./audit-store-sqlite.ts) and PostgreSQL
 * (./pg/pg-audit.ts); one contract suite runs on all three (tests/db/audit-store-contract.ts).
 */
export interface AuditStore {
  /** Adds `entry` (its `id` is the caller's: a fresh UUID). */
  record(entry: AuditEntry): Promise<void>;
  /**
   * The entries matching `query`'s filters (person by `userId` or actor name, action prefix,
   * `since` ≤ at < `until`), newest first (ties: the later added first), `limit` from `offset`,
   * with the number matching in all.
   */
  list(query: AuditQuery): Promise<AuditPage>;
}
