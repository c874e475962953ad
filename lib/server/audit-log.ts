import { randomUUID } from "node:crypto";
import type { Actor } from "@/lib/domain/actor";
import { auditEntrySchema, type AuditEntry } from "@/lib/domain/audit";
import type { AuditStore } from "@/lib/db/audit-store";
import { SqliteAuditStore } from "@/lib/db/audit-store-sqlite";
import { PgRunStore } from "@/lib/db/pg/pg-store";
import { PgAuditStore } from "@/lib/db/pg/pg-audit";
import { databasePath, openRunStore } from "./app-context";

/**
 * Writing the audit log outside a request (docs/audit.md): the CLI's audited commands call
 * {@link auditAction}; requests are audited by lib/server/audit-hook.ts.
 */

/** An entry for `actor` doing `action` to `target` with `status`, now (a fresh id). */
export function auditEntry(actor: Actor, action: string, target: Record<string, unknown>, status: number, detail: string | null = null, at = new Date()): AuditEntry {
  return auditEntrySchema.parse({ id: randomUUID(), at: at.toISOString(), actor, action, target, status, detail });
}

/**
 * Records that `actor` did `action` (e.g. `cli users add`) to `target` (its arguments) with `status`
 * (0 done, else the exit code). Writes to `options.store`, else to the environment's database (the
 * SQLite file, or shared mode's PostgreSQL, opened for this one write). Never throws: a failing
 * write is reported on stderr and the command's outcome stands.
 */
export async function auditAction(
  actor: Actor,
  action: string,
  target: Record<string, unknown>,
  status: number,
  options: { store?: AuditStore; env?: Record<string, string | undefined>; detail?: string | null } = {},
): Promise<void> {
  try {
    const entry = auditEntry(actor, action, target, status, options.detail ?? null);
    if (options.store) return await options.store.record(entry);
    await withEnvAuditStore(options.env ?? process.env, (store) => store.record(entry));
  } catch (error) {
    process.stderr.write(`warning: the audit log could not record ${action}: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

/** Runs `fn` with the audit log of the environment's database, then closes what it opened. */
export async function withEnvAuditStore<T>(env: Record<string, string | undefined>, fn: (store: AuditStore) => Promise<T>): Promise<T> {
  const runs = openRunStore(env);
  try {
    if (runs instanceof PgRunStore) return await fn(new PgAuditStore(runs.pg.db, () => runs.ready()));
    const sqlite = new SqliteAuditStore(databasePath(env));
    try {
      return await fn(sqlite);
    } finally {
      sqlite.close();
    }
  } finally {
    await runs.close();
  }
}
