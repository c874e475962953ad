import { afterAll, describe } from "vitest";
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
