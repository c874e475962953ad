import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe } from "vitest";
import { PgSearchIndex } from "@/lib/db/pg/pg-search-index";
import { sharedPglite } from "../db/pg-test-stores";
import { MemorySearchIndex } from "@/lib/db/search-index-memory";
import { SqliteSearchIndex } from "@/lib/db/search-index-sqlite";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import { demoStore } from "./search-fixture";
import { searchContract } from "./search-contract";

const memory = demoStore();
const sqlite = demoStore(new SqliteRunStore(":memory:"));

describe("search index: in memory", () => {
  searchContract(() => memory, async () => new MemorySearchIndex());
});

describe("search index: SQLite FTS5 (run store on SQLite too)", () => {
  const opened: SqliteSearchIndex[] = [];
  afterAll(async () => {
    for (const index of opened) await index.close();
  });
  searchContract(
    () => sqlite,
    async () => {
      const index = new SqliteSearchIndex(":memory:");
      opened.push(index);
      return index;
    },
  );
});

describe("search index: PostgreSQL full text (PGlite, run store on it too)", () => {
  const pg = sharedPglite();
  let fixture: ReturnType<typeof demoStore> | null = null;
  beforeAll(async () => {
    await pg.open();
    fixture = demoStore(await pg.makeStore());
    await fixture;
  }, 120_000);
  afterAll(() => pg.close());
  searchContract(
    () => fixture!,
    async () => {
      await pg.connection().db.execute(sql.raw("TRUNCATE search_nodes, search_trials, search_branches"));
      return new PgSearchIndex(pg.connection().db);
    },
  );
});
