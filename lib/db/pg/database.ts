import path from "node:path";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import pg from "pg";
import { guardPool } from "./pool-error-listener";
import * as schema from "./schema";

/** Folder of the drizzle-kit PostgreSQL migrations (committed; `npm run db:generate` writes them). */
export const PG_MIGRATIONS_FOLDER = path.join(/* turbopackIgnore: true */ process.cwd(), "lib/db/pg-migrations");

/** Advisory-lock key held while migrating (any fixed 64-bit number; "rflxmigr" in ASCII). */
const MIGRATION_LOCK = "8243395432435771250";

/** The channel every append notifies on (payload {@link EventNotice}); see lib/server/pg-notify-bus.ts. */
export const EVENTS_CHANNEL = "reflexion_events";
/** The channel live-call messages (token deltas of remote workers) travel on. */
export const LIVE_CHANNEL = "reflexion_live";
/** The channel on which processes announce the runs their viewers watch (so workers relay only those runs' token deltas). */
export const WATCH_CHANNEL = "reflexion_watch";

/** A drizzle PostgreSQL database over either driver: what every `lib/db/pg` store is written against. */
export type PgDb = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction of a {@link PgDb}. */
export type PgTx = PgTransaction<PgQueryResultHKT, typeof schema, ExtractTablesWithRelations<typeof schema>>;
/** Where queries run: the database or a transaction in progress. */
export type PgExecutor = PgDb | PgTx;

/**
 * LISTENs on `channels` over one connection and calls `onNotification` with each payload;
 * `onLost` once when that connection drops (the caller reconnects). Resolves, once listening,
 * to the function that stops it.
 */
export type ListenFn = (
  channels: readonly string[],
  onNotification: (channel: string, payload: string) => void,
  onLost: (error: Error) => void,
) => Promise<() => Promise<void>>;

/**
 * An open PostgreSQL database: the drizzle handle, how to apply migrations, how to LISTEN
 * (node-postgres: one dedicated connection per listener; PGlite: its own `listen`), and close.
 */
export interface PgConnection {
  readonly db: PgDb;
  /** `node-postgres` (a server) or `pglite` (in-process WASM PostgreSQL). */
  readonly driver: "node-postgres" | "pglite";
  /** Applies the committed migrations (drizzle's migrator; idempotent). */
  migrate(migrationsFolder?: string): Promise<void>;
  readonly listen: ListenFn;
  close(): Promise<void>;
}

/**
 * Opens a pool on a PostgreSQL server (`postgres://user:pass@host:port/db`). Nothing connects
 * until the first query. `max`: connections in the pool (default 10).
 */
export function openNodePostgres(url: string, options: { max?: number } = {}): PgConnection {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, application_name: "reflexion-store" });
  // A client's error (the server restarted, idle or mid-transaction) must not crash the process; the next query reconnects.
  guardPool(pool, "run store");
  const db: PgDb = drizzleNodePg({ client: pool, schema });
  const listeners = new Set<pg.Client>();
  return {
    db,
    driver: "node-postgres",
    migrate: async (folder = PG_MIGRATIONS_FOLDER) => {
      // One session, holding an advisory lock: two machines migrating at once take turns (the second finds nothing to do).
      const client = new pg.Client({ connectionString: url });
      client.on("error", () => undefined);
      await client.connect();
      try {
        await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
        await migrateNodePg(drizzleNodePg({ client, schema }), { migrationsFolder: folder });
      } finally {
        await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => undefined);
        await client.end().catch(() => undefined);
      }
    },
    listen: async (channels, onNotification, onLost) => {
      const client = new pg.Client({ connectionString: url });
      let stopped = false;
      const lost = (error: Error) => {
        if (stopped || !listeners.delete(client)) return;
        void client.end().catch(() => undefined);
        onLost(error);
      };
      client.on("error", lost);
      client.on("end", () => lost(new Error("the LISTEN connection closed")));
      client.on("notification", (message) => {
        if (message.payload !== undefined) onNotification(message.channel, message.payload);
      });
      await client.connect();
      listeners.add(client);
      try {
        for (const channel of channels) await client.query(`LISTEN ${quoteIdent(channel)}`);
      } catch (error) {
        stopped = true;
        listeners.delete(client);
        await client.end().catch(() => undefined);
        throw error;
      }
      return async () => {
        stopped = true;
        listeners.delete(client);
        await client.end().catch(() => undefined);
      };
    },
    close: async () => {
      // Out of the set first: a listener closed here is not "lost" (its onLost would reconnect).
      const open = [...listeners];
      listeners.clear();
      await Promise.all(open.map((client) => client.end().catch(() => undefined)));
      await pool.end();
    },
  };
}

/** A PostgreSQL identifier, double-quoted. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The PostgreSQL error code of a failed query (drizzle wraps driver errors: the code is on `cause`), or null. */
export function pgErrorCode(error: unknown): string | null {
  for (let current: unknown = error, depth = 0; current && typeof current === "object" && depth < 4; depth++) {
    if ("code" in current && typeof current.code === "string" && /^[0-9A-Z]{5}$/.test(current.code)) return current.code;
    current = "cause" in current ? current.cause : null;
  }
  return null;
}

/** PostgreSQL's `unique_violation`. */
export const UNIQUE_VIOLATION = "23505";
