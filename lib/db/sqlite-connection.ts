import fs from "node:fs";
import path from "node:path";
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import type BetterSqlite3 from "better-sqlite3";
import { createTableRelationsHelpers, extractTablesRelationalConfig, type ExtractTablesWithRelations, type RelationalSchemaConfig } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { BetterSQLiteSession } from "drizzle-orm/better-sqlite3/session";
import { BaseSQLiteDatabase, SQLiteSyncDialect } from "drizzle-orm/sqlite-core";

/**
 * The SQLite connection every embedded store opens: Node's built-in `node:sqlite` (no native
 * addon to compile at install, see docs/decisions/0035-node-sqlite-driver.md), presented with
 * the calling convention of better-sqlite3 — the part of it that drizzle's `better-sqlite3`
 * driver and migrator, and the stores' own transactions, use. drizzle-orm 0.45 has no
 * `node:sqlite` driver (its 1.0 release candidates do); when it is stable this file shrinks to
 * `drizzle({ client: new DatabaseSync(file) })` from `drizzle-orm/node-sqlite`.
 */

/** What one `run` changed (better-sqlite3's `RunResult`; numbers, since big integers are off). */
export interface SqliteRunResult {
  changes: number | bigint;
  lastInsertRowid: number | bigint;
}

/** A prepared statement: better-sqlite3's `run` / `all` / `get` and `raw()` (rows as arrays). */
export interface SqliteStatement {
  run(...params: unknown[]): SqliteRunResult;
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
  /** The same statement answering rows as arrays of column values (`toggle` false: as objects). */
  raw(toggle?: boolean): SqliteStatement;
}

/** A function run in one transaction, with better-sqlite3's `.deferred` / `.immediate` / `.exclusive` variants. */
export type SqliteTransaction<A extends unknown[], R> = ((...args: A) => R) & {
  deferred(...args: A): R;
  immediate(...args: A): R;
  exclusive(...args: A): R;
};

/** The subset of better-sqlite3's `Database` the stores and drizzle use. */
export interface SqliteConnection {
  prepare(source: string): SqliteStatement;
  exec(source: string): void;
  /** `PRAGMA <source>`; its rows, or with `simple` the first column of the first row. */
  pragma(source: string, options?: { simple?: boolean }): unknown;
  /**
   * Wraps `fn` so that each call runs in a transaction (BEGIN … COMMIT, ROLLBACK when it throws);
   * a call inside another transaction uses a savepoint, as better-sqlite3 does.
   * @throws TypeError when `fn` returns a promise (a transaction must finish synchronously).
   */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): SqliteTransaction<A, R>;
  close(): void;
}

/** undefined binds as NULL (better-sqlite3 does so; node:sqlite refuses it). */
function bindable(params: unknown[]): SQLInputValue[] {
  return params.map((value) => (value === undefined ? null : value)) as SQLInputValue[];
}

class NodeSqliteStatement implements SqliteStatement {
  constructor(
    private readonly statement: StatementSync,
    private readonly arrays: boolean,
  ) {}

  run(...params: unknown[]): SqliteRunResult {
    return this.statement.run(...bindable(params));
  }

  all(...params: unknown[]): unknown[] {
    this.statement.setReturnArrays(this.arrays);
    return this.statement.all(...bindable(params));
  }

  get(...params: unknown[]): unknown {
    this.statement.setReturnArrays(this.arrays);
    return this.statement.get(...bindable(params));
  }

  raw(toggle = true): SqliteStatement {
    return new NodeSqliteStatement(this.statement, toggle);
  }
}

class NodeSqliteConnection implements SqliteConnection {
  private savepoints = 0;

  constructor(private readonly database: DatabaseSync) {}

  prepare(source: string): SqliteStatement {
    return new NodeSqliteStatement(this.database.prepare(source), false);
  }

  exec(source: string): void {
    this.database.exec(source);
  }

  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const rows = this.database.prepare(`PRAGMA ${source}`).all();
    if (!options.simple) return rows;
    const first = rows[0];
    return first ? Object.values(first)[0] : undefined;
  }

  transaction<A extends unknown[], R>(fn: (...args: A) => R): SqliteTransaction<A, R> {
    const inMode =
      (mode: "DEFERRED" | "IMMEDIATE" | "EXCLUSIVE") =>
      (...args: A): R =>
        this.database.isTransaction ? this.inSavepoint(fn, args) : this.inTransaction(mode, fn, args);
    return Object.assign(inMode("DEFERRED"), { deferred: inMode("DEFERRED"), immediate: inMode("IMMEDIATE"), exclusive: inMode("EXCLUSIVE") });
  }

  close(): void {
    if (this.database.isOpen) this.database.close();
  }

  private inTransaction<A extends unknown[], R>(mode: string, fn: (...args: A) => R, args: A): R {
    this.database.exec(`BEGIN ${mode}`);
    try {
      const result = synchronous(fn(...args));
      this.database.exec("COMMIT");
      return result;
    } catch (error) {
      if (this.database.isTransaction) this.database.exec("ROLLBACK");
      throw error;
    }
  }

  private inSavepoint<A extends unknown[], R>(fn: (...args: A) => R, args: A): R {
    const name = `nested_${++this.savepoints}`;
    this.database.exec(`SAVEPOINT ${name}`);
    try {
      const result = synchronous(fn(...args));
      this.database.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      if (this.database.isTransaction) {
        this.database.exec(`ROLLBACK TO ${name}`);
        this.database.exec(`RELEASE ${name}`);
      }
      throw error;
    } finally {
      this.savepoints -= 1;
    }
  }
}

function synchronous<R>(result: R): R {
  if (result && typeof (result as { then?: unknown }).then === "function") {
    throw new TypeError("A SQLite transaction function must not return a promise: everything in it runs synchronously.");
  }
  return result;
}

/**
 * Opens (creating the file and its folder if needed) a SQLite database in WAL mode with a 5 s
 * busy timeout (node:sqlite's `timeout`), so the web server and the CLI can share one file; `:memory:` gives a private
 * in-memory database (tests). `foreignKeys` turns on `PRAGMA foreign_keys`.
 * @throws Error from node:sqlite when the file cannot be opened (permissions, not a database).
 */
export function openSqliteConnection(file: string, options: { foreignKeys?: boolean } = {}): SqliteConnection {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(/* turbopackIgnore: true */ file)), { recursive: true });
  const connection = new NodeSqliteConnection(new DatabaseSync(file, { timeout: 5000, enableForeignKeyConstraints: options.foreignKeys ?? false }));
  connection.pragma("journal_mode = WAL");
  return connection;
}

/**
 * drizzle over a {@link SqliteConnection}, through the session of drizzle's better-sqlite3 driver
 * (whose calling convention the connection keeps). Built here as that driver's `drizzle()` builds
 * it, because the driver's entry module imports the better-sqlite3 package itself, which is not
 * installed. The assertion names the session's client type; the connection implements the part
 * of it the session calls (prepare, run/all/get/raw, transaction).
 */
export function drizzleOver<TSchema extends Record<string, unknown>>(connection: SqliteConnection, schema: TSchema): BetterSQLite3Database<TSchema> {
  const dialect = new SQLiteSyncDialect();
  const tables = extractTablesRelationalConfig(schema, createTableRelationsHelpers);
  // The table configs extracted from `schema` are its tables with relations (drizzle's driver does the same untyped).
  const relational: RelationalSchemaConfig<ExtractTablesWithRelations<TSchema>> = {
    fullSchema: schema,
    schema: tables.tables as ExtractTablesWithRelations<TSchema>,
    tableNamesMap: tables.tableNamesMap,
  };
  const session = new BetterSQLiteSession<TSchema, ExtractTablesWithRelations<TSchema>>(connection as BetterSqlite3.Database, dialect, relational, {});
  return new BaseSQLiteDatabase<"sync", BetterSqlite3.RunResult, TSchema, ExtractTablesWithRelations<TSchema>>("sync", dialect, session, relational);
}

/**
 * Applies drizzle's migrations, once more if the first pass fails. drizzle's SQLite migrator reads
 * which migrations are applied before it takes the write lock, so two processes opening a fresh
 * database together (workers, `cli run --detach` in parallel) can both try to apply the same one;
 * the second fails on "already exists". Its retry reads the migrations table again and applies
 * only what is still missing (nothing). A second failure is a real one and is thrown.
 * @param apply one pass of drizzle's `migrate` over the database.
 */
export function migrateWithRetry(apply: () => void): void {
  try {
    apply();
  } catch {
    apply();
  }
}
