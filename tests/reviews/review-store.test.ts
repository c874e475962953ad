import { afterAll, beforeAll, describe } from "vitest";
import { MemoryReviewStore } from "@/lib/db/review-store-memory";
import { SqliteReviewStore } from "@/lib/db/review-store-sqlite";
import { PgReviewStore } from "@/lib/db/pg/pg-reviews";
import { sharedPglite } from "../db/pg-test-stores";
import { reviewStoreContract } from "../db/review-store-contract";

describe("MemoryReviewStore", () => reviewStoreContract(async () => new MemoryReviewStore()));

describe("SqliteReviewStore", () => reviewStoreContract(async () => new SqliteReviewStore(":memory:")));

describe("PgReviewStore (PGlite)", () => {
  const pglite = sharedPglite();
  beforeAll(() => pglite.open(), 120_000);
  afterAll(() => pglite.close());
  reviewStoreContract(async () => {
    await pglite.makeStore(); // empties every table
    return new PgReviewStore(pglite.connection().db);
  });
});
