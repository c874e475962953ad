import { afterAll, beforeAll } from "vitest";
import { runStoreContract } from "./store-contract";
import { sharedPglite } from "./pg-test-stores";

// The RunStore contract on PGlite: the PostgreSQL adapter's SQL, in-process.
const pglite = sharedPglite();
beforeAll(() => pglite.open(), 120_000);
afterAll(() => pglite.close());

runStoreContract("postgres (PGlite)", () => pglite.makeStore());
