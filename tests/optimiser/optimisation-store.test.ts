import { afterAll, beforeAll, describe } from "vitest";
import { MemoryOptimisationStore } from "@/lib/db/optimisation-store-memory";
import { SqliteOptimisationStore } from "@/lib/db/optimisation-store-sqlite";
import { PgOptimisationStore } from "@/lib/db/pg/pg-optimisations";
import { sharedPglite } from "../db/pg-test-stores";
import { optimisationStoreContract } from "./optimisation-store-contract";

describe("MemoryOptimisationStore", () => optimisationStoreContract(() => new MemoryOptimisationStore()));
describe("SqliteOptimisationStore", () => optimisationStoreContract(() => new SqliteOptimisationStore(":memory:")));

describe("PgOptimisationStore (PGlite)", () => {
  const pglite = sharedPglite();
  beforeAll(() => pglite.open(), 120_000);
  afterAll(() => pglite.close());
  optimisationStoreContract(() => {
    let emptied: Promise<void> | null = null;
    return new PgOptimisationStore(pglite.connection().db, () => (emptied ??= pglite.makeStore().then(() => undefined)));
  });
});
