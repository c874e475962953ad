import { afterAll, beforeAll, describe } from "vitest";
import { MemoryMemoryStoreRepository } from "@/lib/db/memory-store-entries-memory";
import { SqliteMemoryStoreRepository } from "@/lib/db/memory-store-entries-sqlite";
import { PgMemoryStoreRepository } from "@/lib/db/pg/pg-small-stores";
import { sharedPglite } from "../db/pg-test-stores";
import { memoryEntryStoreContract } from "./memory-entry-store-contract";

describe("MemoryMemoryStoreRepository", () => memoryEntryStoreContract(async () => new MemoryMemoryStoreRepository()));
describe("SqliteMemoryStoreRepository", () => memoryEntryStoreContract(async () => new SqliteMemoryStoreRepository(":memory:")));

describe("PgMemoryStoreRepository (PGlite)", () => {
  const pglite = sharedPglite();
  beforeAll(() => pglite.open(), 120_000);
  afterAll(() => pglite.close());
  memoryEntryStoreContract(async () => {
    await pglite.makeStore(); // empties every table
    return new PgMemoryStoreRepository(pglite.connection().db);
  });
});
