import { afterAll, beforeAll, describe } from "vitest";
import { MemoryClassStore } from "@/lib/db/class-store-memory";
import { SqliteClassStore } from "@/lib/db/class-store-sqlite";
import { PgClassStore } from "@/lib/db/pg/pg-classes";
import { sharedPglite } from "../db/pg-test-stores";
import { classStoreContract } from "../db/class-store-contract";

describe("MemoryClassStore", () => classStoreContract(async () => new MemoryClassStore()));

describe("SqliteClassStore", () => classStoreContract(async () => new SqliteClassStore(":memory:")));

describe("PgClassStore (PGlite)", () => {
  const pglite = sharedPglite();
  beforeAll(() => pglite.open(), 120_000);
  afterAll(() => pglite.close());
  classStoreContract(async () => {
    await pglite.makeStore(); // empties every table
    return new PgClassStore(pglite.connection().db);
  });
});
