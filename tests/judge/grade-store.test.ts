import { afterAll, beforeAll, describe } from "vitest";
import { MemoryGradeStore } from "@/lib/db/grade-store-memory";
import { SqliteGradeStore } from "@/lib/db/grade-store-sqlite";
import { PgGradeStore } from "@/lib/db/pg/pg-small-stores";
import { makeRunConfig } from "../helpers/run-config";
import { sharedPglite } from "../db/pg-test-stores";
import { gradeStoreContract } from "./grade-store-contract";

describe("MemoryGradeStore", () =>
  gradeStoreContract(async () => ({
    store: new MemoryGradeStore(),
    branches: [
      { runId: "run-1", branchId: "br-1" },
      { runId: "run-2", branchId: "br-2" },
    ],
  })));

describe("SqliteGradeStore", () =>
  gradeStoreContract(async () => {
    const store = new SqliteGradeStore(":memory:");
    // A grade refers to its run (foreign key): the run rows must exist.
    store.execForTests(`INSERT INTO runs (id, created_at, root_branch_id, title, config) VALUES ('run-1', '2026-12-01T09:00:00.000Z', 'br-1', 't', '{}'), ('run-2', '2026-12-01T09:00:00.000Z', 'br-2', 't', '{}')`);
    return {
      store,
      branches: [
        { runId: "run-1", branchId: "br-1" },
        { runId: "run-2", branchId: "br-2" },
      ],
    };
  }));

describe("PgGradeStore (PGlite)", () => {
  const pglite = sharedPglite();
  beforeAll(() => pglite.open(), 120_000);
  afterAll(() => pglite.close());
  gradeStoreContract(async () => {
    const runs = await pglite.makeStore(); // empties every table
    const first = await runs.createRun({ config: makeRunConfig(), title: "open task" });
    const second = await runs.createRun({ config: makeRunConfig(), title: "open task" });
    return {
      store: new PgGradeStore(pglite.connection().db),
      branches: [
        { runId: first.id, branchId: first.rootBranchId },
        { runId: second.id, branchId: second.rootBranchId },
      ],
    };
  });
});
