import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { PG_MIGRATIONS_FOLDER, type PgConnection, type PgDb } from "./database";
import * as schema from "./schema";

// PGlite lives in its own file so the app (which only ever talks to a server) never loads the WASM build.

/**
 * Opens an in-process PGlite database (`dataDir` on disk, or in memory when omitted): the same SQL
 * as a server, used by the contract tests to catch PostgreSQL-only mistakes without one.
 */
export function openPglite(dataDir?: string): PgConnection {
  const client = new PGlite(dataDir);
  const db: PgDb = drizzlePglite({ client, schema });
  return {
    db,
    driver: "pglite",
    migrate: async (folder = PG_MIGRATIONS_FOLDER) => {
      await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder: folder });
    },
    listen: async (channels, onNotification) => {
      const stops = await Promise.all(channels.map((channel) => client.listen(channel, (payload) => onNotification(channel, payload))));
      return async () => {
        for (const stop of stops) await stop();
      };
    },
    close: async () => {
      await client.close();
    },
  };
}
