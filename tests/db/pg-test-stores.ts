import { sql } from "drizzle-orm";
import { openNodePostgres, type PgConnection } from "@/lib/db/pg/database";
import { openPglite } from "@/lib/db/pg/pglite";
import { PgRunStore } from "@/lib/db/pg/pg-store";
import { startPostgresServer, type PostgresServer } from "../helpers/postgres-server";

/** Every table of lib/db/pg/schema.ts, emptied between contract cases on a shared PGlite. */
const TABLES = [
  "lessons", "class_forks", "class_reflections", "class_answers", "class_students", "classes", "audit_log", "spend_ledger", "spending_limits", "search_nodes", "search_trials", "search_branches", "reviews", "review_items", "review_queues", "annotation_events", "optimisations", "human_grades", "memory_entries", "memory_stores", "prices", "bundles", "template_versions", "templates", "experiment_runs",
  "experiments", "task_sets", "branch_summaries", "branch_leases", "response_cache", "events", "branches", "runs",
];

/**
 * One in-process PGlite for a whole test file (it takes seconds to start), migrated once;
 * `makeStore` empties every table and hands out a store whose `close` leaves the database open.
 * Call `open` in `beforeAll` and `close` in `afterAll`.
 */
export function sharedPglite(): { open(): Promise<void>; close(): Promise<void>; connection(): PgConnection; makeStore(): Promise<PgRunStore> } {
  let connection: PgConnection | null = null;
  const current = () => {
    if (!connection) throw new Error("sharedPglite().open() was not called (call it in beforeAll)");
    return connection;
  };
  return {
    async open() {
      connection = openPglite();
      await connection.migrate();
    },
    async close() {
      await connection?.close();
      connection = null;
    },
    connection: current,
    async makeStore() {
      const open = current();
      await open.db.execute(sql.raw(`TRUNCATE ${TABLES.join(", ")} CASCADE`));
      return new PgRunStore({ ...open, close: async () => undefined }, { migrate: "apply" });
    },
  };
}

/**
 * A real PostgreSQL server for a whole test file (tests/helpers/postgres-server.ts, ~2 s to
 * start); `makeStore` creates a fresh database, migrated, with its own pool (closed by the store).
 */
export function realPostgres(): { open(): Promise<void>; close(): Promise<void>; server(): PostgresServer; makeStore(options?: { max?: number }): Promise<PgRunStore> } {
  let server: PostgresServer | null = null;
  const current = () => {
    if (!server) throw new Error("realPostgres().open() was not called (call it in beforeAll)");
    return server;
  };
  return {
    async open() {
      server = await startPostgresServer();
    },
    async close() {
      await server?.stop();
      server = null;
    },
    server: current,
    async makeStore(options = {}) {
      const url = await current().createDatabase("contract");
      const store = new PgRunStore(openNodePostgres(url, options), { migrate: "apply" });
      await store.ready();
      return store;
    },
  };
}
