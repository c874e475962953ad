import { afterAll, beforeAll, describe } from "vitest";
import { MemoryLessonStore } from "@/lib/db/lesson-store-memory";
import { SqliteLessonStore } from "@/lib/db/lesson-store-sqlite";
import { PgLessonStore } from "@/lib/db/pg/pg-lessons";
import { sharedPglite } from "../db/pg-test-stores";
import { lessonStoreContract } from "./lesson-store-contract";

describe("MemoryLessonStore", () => lessonStoreContract(async () => new MemoryLessonStore()));
describe("SqliteLessonStore", () => lessonStoreContract(async () => new SqliteLessonStore(":memory:")));

describe("PgLessonStore (PGlite)", () => {
  const pglite = sharedPglite();
  beforeAll(() => pglite.open(), 120_000);
  afterAll(() => pglite.close());
  lessonStoreContract(async () => {
    await pglite.makeStore(); // empties every table
    return new PgLessonStore(pglite.connection().db);
  });
});
