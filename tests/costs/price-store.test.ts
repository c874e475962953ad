import { afterAll, beforeAll, describe } from "vitest";
import { MemoryPriceStore } from "@/lib/db/price-store-memory";
import { SqlitePriceStore } from "@/lib/db/price-store-sqlite";
import { PgPriceStore } from "@/lib/db/pg/pg-small-stores";
import { sharedPglite } from "../db/pg-test-stores";
import { priceStoreContract } from "./price-store-contract";

describe("MemoryPriceStore", () => priceStoreContract(async () => new MemoryPriceStore()));
describe("SqlitePriceStore", () => priceStoreContract(async () => new SqlitePriceStore(":memory:")));

describe("PgPriceStore (PGlite)", () => {
  const pglite = sharedPglite();
  beforeAll(() => pglite.open(), 120_000);
  afterAll(() => pglite.close());
  priceStoreContract(async () => {
    await pglite.makeStore(); // empties every table
    return new PgPriceStore(pglite.connection().db);
  });
});
