import { afterAll, beforeAll, describe } from "vitest";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import { bundleStoreContract } from "./bundle-store-contract";
import { sharedPglite } from "./pg-test-stores";

describe("SQLite", () => bundleStoreContract(async () => new SqliteRunStore(":memory:")));

// The PostgreSQL adapter's SQL, in-process.
const pglite = sharedPglite();
beforeAll(() => pglite.open(), 120_000);
afterAll(() => pglite.close());
describe("PostgreSQL (PGlite)", () => bundleStoreContract(() => pglite.makeStore()));
