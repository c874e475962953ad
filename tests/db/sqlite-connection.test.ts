import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { migrateWithRetry, openSqliteConnection, type SqliteConnection } from "@/lib/db/sqlite-connection";

/**
 * The node:sqlite connection keeps the calling convention of better-sqlite3 that drizzle's session
 * and the stores rely on: transactions that commit, roll back and nest as savepoints, rows as
 * objects or (raw) arrays, undefined bound as NULL, pragmas, and two connections to one WAL file.
 */
describe("openSqliteConnection", () => {
  const open: SqliteConnection[] = [];
  const connect = (file = ":memory:", options?: { foreignKeys?: boolean }) => {
    const connection = openSqliteConnection(file, options);
    open.push(connection);
    return connection;
  };
  afterEach(() => {
    for (const connection of open.splice(0)) connection.close();
  });

  it("answers rows as objects, or as arrays through raw(), on the same statement", () => {
    const db = connect();
    db.exec("CREATE TABLE t (a INTEGER, b TEXT)");
    db.prepare("INSERT INTO t VALUES (?, ?)").run(1, "x");
    const select = db.prepare("SELECT a, b FROM t");
    expect({ ...(select.get() as object) }).toEqual({ a: 1, b: "x" });
    expect(select.raw().all()).toEqual([[1, "x"]]);
    expect(select.raw().get()).toEqual([1, "x"]);
    expect(select.all().map((row) => ({ ...(row as object) }))).toEqual([{ a: 1, b: "x" }]);
    expect(select.raw(false).get()).toMatchObject({ a: 1 });
  });

  it("binds undefined as NULL, as better-sqlite3 does, and reports changes", () => {
    const db = connect();
    db.exec("CREATE TABLE t (a INTEGER)");
    const result = db.prepare("INSERT INTO t VALUES (?)").run(undefined);
    expect(result.changes).toBe(1);
    expect(db.prepare("SELECT a FROM t").raw().all()).toEqual([[null]]);
  });

  it("commits a transaction, and rolls it back when the function throws", () => {
    const db = connect();
    db.exec("CREATE TABLE t (a INTEGER)");
    const insert = db.transaction((values: number[]) => {
      for (const value of values) db.prepare("INSERT INTO t VALUES (?)").run(value);
      if (values.includes(-1)) throw new Error("refused");
      return values.length;
    });
    expect(insert.immediate([1, 2])).toBe(2);
    expect(() => insert([3, -1])).toThrow("refused");
    expect(db.prepare("SELECT a FROM t ORDER BY a").raw().all()).toEqual([[1], [2]]);
  });

  it("nests a transaction as a savepoint: an inner failure undoes only the inner writes", () => {
    const db = connect();
    db.exec("CREATE TABLE t (a INTEGER)");
    const inner = db.transaction(() => {
      db.prepare("INSERT INTO t VALUES (2)").run();
      throw new Error("inner");
    });
    const outer = db.transaction(() => {
      db.prepare("INSERT INTO t VALUES (1)").run();
      expect(() => inner()).toThrow("inner");
      db.prepare("INSERT INTO t VALUES (3)").run();
    });
    outer.immediate();
    expect(db.prepare("SELECT a FROM t ORDER BY a").raw().all()).toEqual([[1], [3]]);
  });

  it("refuses a transaction function that returns a promise, and leaves nothing of it behind", () => {
    const db = connect();
    db.exec("CREATE TABLE t (a INTEGER)");
    const asyncWrite = db.transaction(async () => {
      db.prepare("INSERT INTO t VALUES (1)").run();
    });
    expect(() => asyncWrite()).toThrow(/must not return a promise/);
    expect(db.prepare("SELECT count(*) FROM t").raw().get()).toEqual([0]);
  });

  it("turns foreign keys on only when asked (SQLite's default is off)", () => {
    expect(connect(":memory:").pragma("foreign_keys", { simple: true })).toBe(0);
    expect(connect(":memory:", { foreignKeys: true }).pragma("foreign_keys", { simple: true })).toBe(1);
  });

  it("opens a file in WAL mode, creating its folder, and a second connection sees the first one's commits", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlite-connection-"));
    try {
      const file = path.join(dir, "nested", "app.sqlite");
      const writer = connect(file);
      const reader = connect(file);
      expect(writer.pragma("journal_mode", { simple: true })).toBe("wal");
      writer.exec("CREATE TABLE t (a INTEGER)");
      writer.transaction(() => writer.prepare("INSERT INTO t VALUES (7)").run()).immediate();
      expect(reader.prepare("SELECT a FROM t").raw().all()).toEqual([[7]]);
    } finally {
      for (const connection of open.splice(0)) connection.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("migrateWithRetry", () => {
  it("runs a failed pass once more, and throws when the second fails too", () => {
    let passes = 0;
    migrateWithRetry(() => {
      passes += 1;
      if (passes === 1) throw new Error("table `runs` already exists");
    });
    expect(passes).toBe(2);
    expect(() =>
      migrateWithRetry(() => {
        throw new Error("disk I/O error");
      }),
    ).toThrow(/disk I\/O error/);
  });
});
