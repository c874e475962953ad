import { auditEntryMatches, type AuditEntry, type AuditPage, type AuditQuery } from "@/lib/domain/audit";
import type { AuditStore } from "./audit-store";

/** The in-memory {@link AuditStore} (tests, `createServerContext({ store })`); hands out copies. */
export class MemoryAuditStore implements AuditStore {
  private readonly entries: AuditEntry[] = [];

  async record(entry: AuditEntry): Promise<void> {
    this.entries.push(structuredClone(entry));
  }

  async list(query: AuditQuery): Promise<AuditPage> {
    // Newest first; among equal times the later added first (a stable sort of the reversed log).
    const matching = [...this.entries].reverse().filter((entry) => auditEntryMatches(entry, query)).sort((a, b) => b.at.localeCompare(a.at));
    return { entries: matching.slice(query.offset, query.offset + query.limit).map((entry) => structuredClone(entry)), total: matching.length };
  }
}
