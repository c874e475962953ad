import type { Command } from "commander";

/**
 * `cli db migrate` and `cli db status` (docs/shared-mode.md). With
 * `REFLEXION_DATABASE_URL=postgres://…` they apply / report the PostgreSQL migrations
 * (lib/db/pg-migrations, drizzle's migrator, under an advisory lock so two machines can run it at
 * once); on the embedded SQLite file they say that its migrations run when it is opened. The URL is
 * only ever printed without its password.
 */
export function registerDbCommands(program: Command): void {
  const db = program.command("db").description("The database: apply migrations (PostgreSQL shared mode) or show which database is used.");

  db.command("migrate")
    .description("Apply the PostgreSQL migrations to REFLEXION_DATABASE_URL (run once per release, from any one machine). On SQLite: nothing to do, migrations run when the file is opened.")
    .action(async () => {
      const target = await describeTarget();
      if (target.kind === "sqlite") {
        const { SqliteRunStore } = await import("@/lib/db/sqlite-store");
        await new SqliteRunStore(target.path).close();
        process.stdout.write(`SQLite (${target.path}): migrations run when the database is opened — done. Set REFLEXION_DATABASE_URL=postgres://… for shared mode (docs/shared-mode.md).\n`);
        return;
      }
      const { openNodePostgres } = await import("@/lib/db/pg/database");
      const { PgRunStore } = await import("@/lib/db/pg/pg-store");
      const connection = openNodePostgres(target.url, { max: 1 });
      try {
        process.stdout.write(`PostgreSQL ${target.safe}: applying migrations…\n`);
        await connection.migrate();
        const status = await new PgRunStore(connection).migrationStatus();
        process.stdout.write(`${status.applied} of ${status.expected} migrations applied.\n`);
      } finally {
        await connection.close();
      }
    });

  db.command("status")
    .description("Which database this process uses (the URL without its password) and, on PostgreSQL, how many migrations are applied.")
    .action(async () => {
      const target = await describeTarget();
      if (target.kind === "sqlite") {
        process.stdout.write(`SQLite ${target.path} (embedded default; migrations run when it is opened)\n`);
        return;
      }
      const { openNodePostgres } = await import("@/lib/db/pg/database");
      const { PgRunStore } = await import("@/lib/db/pg/pg-store");
      const store = new PgRunStore(openNodePostgres(target.url, { max: 1 }));
      try {
        const status = await store.migrationStatus();
        const todo = status.applied < status.expected ? " — run `npm run cli -- db migrate`" : "";
        process.stdout.write(`PostgreSQL ${target.safe}: ${status.applied} of ${status.expected} migrations applied${todo}\n`);
      } finally {
        await store.close();
      }
    });
}

type Target = { kind: "sqlite"; path: string } | { kind: "postgres"; url: string; safe: string };

async function describeTarget(env: Record<string, string | undefined> = process.env): Promise<Target> {
  const { isPostgresUrl, safeDatabaseUrl } = await import("@/lib/db/pg/database-url");
  const url = env.REFLEXION_DATABASE_URL?.trim();
  if (url) {
    if (!isPostgresUrl(url)) throw new Error("REFLEXION_DATABASE_URL must be a postgres://user:password@host:port/database URL (unset it to use the SQLite file).");
    return { kind: "postgres", url, safe: safeDatabaseUrl(url) };
  }
  const { databasePath } = await import("@/lib/server/app-context");
  return { kind: "sqlite", path: databasePath(env) };
}
