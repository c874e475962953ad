import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openNodePostgres, type PgConnection } from "@/lib/db/pg/database";
import { describePgError, isDatabaseUnreachable, shortStatement } from "@/lib/db/pg/describe-pg-error";
import { openPglite } from "@/lib/db/pg/pglite";
import { runs } from "@/lib/db/pg/schema";
import { startPostgresServer, type PostgresServer } from "../helpers/postgres-server";

/**
 * lib/db/pg/describe-pg-error.ts on real errors: drizzle's "Failed query: … params: …"
 * becomes "<the driver's cause> (while: <statement kind + table>)", from a real PostgreSQL and PGlite.
 */

let server: PostgresServer;
const opened: PgConnection[] = [];

beforeAll(async () => {
  server = await startPostgresServer();
  await server.requirePassword("alice", "right-pw");
}, 90_000);

afterAll(async () => {
  for (const connection of opened) await connection.close().catch(() => undefined);
  await server?.stop();
}, 30_000);

function open(url: string): PgConnection {
  const connection = openNodePostgres(url, { max: 1 });
  opened.push(connection);
  return connection;
}

/** The error a select of the runs table rejects with. */
async function selectRunsError(connection: PgConnection): Promise<unknown> {
  return connection.db.select().from(runs).limit(1).then(
    () => new Error("the query succeeded"),
    (error: unknown) => error,
  );
}

describe("describePgError on real driver errors", () => {
  it("a wrong password: the server's message, not drizzle's 'Failed query', and never the password", async () => {
    const url = server.url.replace("postgres@", "alice:wrong-pw@");
    const error = await selectRunsError(open(url));
    expect(error instanceof Error && error.message).toMatch(/^Failed query: select/);
    const text = describePgError(error);
    expect(text).toBe('password authentication failed for user "alice" (while: select from "runs")');
    expect(text).not.toContain("wrong-pw");
    expect(isDatabaseUnreachable(error)).toBe(false);
  });

  it("a refused port: connect ECONNREFUSED with host and port; counts as unreachable", async () => {
    const closed = await server.createDatabase("closed");
    const port = server.port === 1 ? 2 : 1; // nothing listens on a privileged port 1 here
    const error = await selectRunsError(open(closed.replace(`:${server.port}/`, `:${port}/`)));
    expect(describePgError(error)).toBe(`connect ECONNREFUSED 127.0.0.1:${port} (while: select from "runs")`);
    expect(isDatabaseUnreachable(error)).toBe(true);
  });

  it("a missing database", async () => {
    const error = await selectRunsError(open(server.url.replace(/\/postgres$/, "/no_such_db")));
    expect(describePgError(error)).toBe('database "no_such_db" does not exist (while: select from "runs")');
    expect(isDatabaseUnreachable(error)).toBe(false);
  });

  it("a trigger's raise exception, on PostgreSQL and on PGlite", async () => {
    const setup = [
      sql`CREATE TABLE events_probe (id integer)`,
      sql`CREATE FUNCTION probe_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'newlab injected failure'; END $$`,
      sql`CREATE TRIGGER probe_fail BEFORE INSERT ON events_probe FOR EACH ROW EXECUTE FUNCTION probe_fail()`,
    ];
    const pglite = openPglite();
    opened.push(pglite);
    for (const connection of [open(await server.createDatabase("trigger")), pglite]) {
      for (const statement of setup) await connection.db.execute(statement);
      const error = await connection.db.execute(sql`WITH x AS (SELECT 1) INSERT INTO events_probe VALUES (${7})`).then(
        () => new Error("the insert succeeded"),
        (failure: unknown) => failure,
      );
      expect(describePgError(error), connection.driver).toBe("newlab injected failure (while: insert into events_probe)");
    }
  });

  it("pg-boss's error objects, AggregateErrors, strings and URLs with a password", () => {
    const cause = new Error("terminating connection due to administrator command");
    expect(describePgError({ ...cause, message: cause.message, stack: cause.stack, queue: "q", worker: "w" })).toBe("terminating connection due to administrator command");
    expect(describePgError(new AggregateError([new Error("connect ECONNREFUSED ::1:5432"), new Error("connect ECONNREFUSED 127.0.0.1:5432")], ""))).toBe(
      "connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432",
    );
    expect(isDatabaseUnreachable(Object.assign(new AggregateError([Object.assign(new Error("connect ECONNREFUSED ::1:5432"), { code: "ECONNREFUSED" })], ""), {}))).toBe(true);
    expect(describePgError("plain text")).toBe("plain text");
    expect(describePgError(new Error("bad url postgres://bob:hunter2@db:5432/x?password=p2&sslmode=require"))).toBe("bad url postgres://bob:***@db:5432/x?password=***&sslmode=require");
    expect(describePgError(new Error("must be a postgres://user:password@host:port/database URL"))).toBe("must be a postgres://user:password@host:port/database URL");
  });

  it("short statements name the kind and the first table", () => {
    expect(shortStatement('select "id", "name" from "branch_summaries" where "status" = $1')).toBe('select from "branch_summaries"');
    expect(shortStatement('with "inserted" as (insert into "events" ("a") values ($1) returning *) update "branch_summaries" set x = 1')).toBe('insert into "events"');
    expect(shortStatement('update "leases" set "owner" = $1')).toBe('update "leases"');
    expect(shortStatement("SELECT pg_advisory_lock($1)")).toBe("SELECT pg_advisory_lock($1)");
  });
});
