import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe } from "vitest";
import { MemoryAnnotationStore } from "@/lib/db/annotation-store-memory";
import { SqliteAnnotationStore } from "@/lib/db/annotation-store-sqlite";
import { PgAnnotationStore } from "@/lib/db/pg/pg-annotations";
import { makeRunConfig } from "../helpers/run-config";
import { sharedPglite } from "./pg-test-stores";
import { annotationStoreContract } from "./annotation-store-contract";

const RUNS = [
  { runId: "run-1", branchId: "br-1" },
  { runId: "run-2", branchId: "br-2" },
] as const;

describe("MemoryAnnotationStore", () => annotationStoreContract(async () => ({ store: new MemoryAnnotationStore(), runs: RUNS, fresh: async () => new MemoryAnnotationStore() })));

describe("SqliteAnnotationStore", () => {
  const open = () => {
    const store = new SqliteAnnotationStore(":memory:");
    // An annotation refers to its run (foreign key): the run rows must exist.
    store.execForTests(`INSERT INTO runs (id, created_at, root_branch_id, title, config) VALUES ('run-1', '2026-12-01T09:00:00.000Z', 'br-1', 't', '{}'), ('run-2', '2026-12-01T09:00:00.000Z', 'br-2', 't', '{}')`);
    return store;
  };
  annotationStoreContract(async () => ({ store: open(), runs: RUNS, fresh: async () => open() }));
});

describe("PgAnnotationStore (PGlite)", () => {
  const pglite = sharedPglite();
  beforeAll(() => pglite.open(), 120_000);
  afterAll(() => pglite.close());
  annotationStoreContract(async () => {
    const runs = await pglite.makeStore(); // empties every table
    const first = await runs.createRun({ config: makeRunConfig(), title: "qa" });
    const second = await runs.createRun({ config: makeRunConfig(), title: "qa" });
    const db = pglite.connection().db;
    return {
      store: new PgAnnotationStore(db),
      // The same runs with an empty annotation log: what a bundle import into a fresh database finds.
      fresh: async () => {
        await db.execute(sql`DELETE FROM annotation_events`);
        return new PgAnnotationStore(db);
      },
      runs: [
        { runId: first.id, branchId: first.rootBranchId },
        { runId: second.id, branchId: second.rootBranchId },
      ],
    };
  });
});
