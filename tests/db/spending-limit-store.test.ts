import { afterAll, beforeAll, describe } from "vitest";
import { MemorySpendingLimitStore } from "@/lib/db/spending-limit-store-memory";
import { SqliteSpendingLimitStore } from "@/lib/db/spending-limit-store-sqlite";
import { PgSpendingLimitStore } from "@/lib/db/pg/pg-spending-limits";
import { sharedPglite } from "./pg-test-stores";
import { spendingLimitStoreContract } from "./spending-limit-store-contract";

describe("MemorySpendingLimitStore", () => spendingLimitStoreContract(async () => new MemorySpendingLimitStore()));

describe("SqliteSpendingLimitStore", () => spendingLimitStoreContract(async () => new SqliteSpendingLimitStore(":memory:")));

describe("PgSpendingLimitStore (PGlite)", () => {
  const pglite = sharedPglite();
  beforeAll(() => pglite.open(), 120_000);
  afterAll(() => pglite.close());
  spendingLimitStoreContract(async () => {
    await pglite.makeStore(); // empties every table
    return new PgSpendingLimitStore(pglite.connection().db);
  });
});
