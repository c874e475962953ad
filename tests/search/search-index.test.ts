import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { trialDocuments } from "@/lib/domain/search-documents";
import { createServerContext } from "@/lib/server/app-context";
import { PgSearchIndex } from "@/lib/db/pg/pg-search-index";
import { sharedPglite } from "../db/pg-test-stores";
import { MemorySearchIndex } from "@/lib/db/search-index-memory";
import { SqliteSearchIndex } from "@/lib/db/search-index-sqlite";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import { demoStore, driveDemoRuns, QA } from "./search-fixture";
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

describe("search index freshness", () => {
  it("SQLite: a second connection (another process) sees what the first indexed", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-search-index-"));
    const file = path.join(dir, "db.sqlite");
    const [writer, reader] = [new SqliteSearchIndex(file), new SqliteSearchIndex(file)];
    try {
      expect(await reader.listTrials()).toEqual([]);
      const { states } = await memory;
      const [runId, state] = [...states][0]!;
      const documents = trialDocuments(state, { runId, branchId: "b1", createdAt: "2026-12-05T00:00:00.000Z", title: "t", experimentId: null, arm: null });
      await writer.replaceBranch({ runId, branchId: "b1", lastSeq: state.lastSeq, documents });
      expect((await reader.listTrials()).map((meta) => meta.key).sort()).toEqual(documents.map((doc) => doc.key).sort());
      expect(await reader.indexedSeqs()).toEqual(new Map([["b1", state.lastSeq]]));
      await writer.replaceBranch({ runId, branchId: "b1", lastSeq: state.lastSeq, documents: [] });
      expect(await reader.listTrials()).toEqual([]);
      expect(await reader.findText(["desklamp"], ["thought", "action", "observation", "reflection"])).toEqual([]);
    } finally {
      await writer.close();
      await reader.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("re-indexes only the branches whose log grew: a new run, then a fork with its own events", async () => {
    const store = new MemoryRunStore();
    const context = createServerContext({ store, workers: { pollMs: 10 } });
    try {
      const [first] = await driveDemoRuns(context, [{ environment: QA, taskId: "qa-builtin-01", strategy: "reflexion" }]);
      expect(await context.search.refresh()).toBe(1);
      expect(await context.search.refresh()).toBe(0);
      const trials = (await context.search.searchTrials(`run:${first}`)).total;
      await driveDemoRuns(context, [{ environment: QA, taskId: "qa-builtin-01", strategy: "none" }]);
      expect(await context.search.refresh()).toBe(1);
      const { branchId } = await context.service.fork(first!, { atSeq: 1, replay: "recorded" });
      await context.workers.untilSettled(branchId);
      expect(await context.search.refresh()).toBe(1);
      const onFork = await context.search.searchTrials(`run:${first}`, { limit: 1000 });
      expect(onFork.total).toBe(trials * 2);
      expect(onFork.hits.filter((hit) => hit.branchId === branchId)).toHaveLength(trials);
    } finally {
      await context.close();
    }
  });
});
