import { afterAll, beforeAll, describe } from "vitest";
import { MemoryAuditStore } from "@/lib/db/audit-store-memory";
import { SqliteAuditStore } from "@/lib/db/audit-store-sqlite";
import { PgAuditStore } from "@/lib/db/pg/pg-audit";
import { sharedPglite } from "./pg-test-stores";
import { auditStoreContract } from "./audit-store-contract";

describe("MemoryAuditStore", () => auditStoreContract(async () => new MemoryAuditStore()));

describe("SqliteAuditStore", () => auditStoreContract(async () => new SqliteAuditStore(":memory:")));

describe("PgAuditStore (PGlite)", () => {
  const pglite = sharedPglite();
  beforeAll(() => pglite.open(), 120_000);
  afterAll(() => pglite.close());
  auditStoreContract(async () => {
    await pglite.makeStore(); // empties every table
    return new PgAuditStore(pglite.connection().db);
  });
});
