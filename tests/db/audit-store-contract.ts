import { expect, it } from "vitest";
import type { AuditStore } from "@/lib/db/audit-store";
import { auditQuerySchema, type AuditEntry, type AuditQueryInput } from "@/lib/domain/audit";
import type { Actor } from "@/lib/domain/actor";

const alice: Actor = { kind: "person", id: "u-alice", name: "alice", userId: "u-alice" };
const aliceToken: Actor = { kind: "token", id: "t-ci", name: "alice (token ci)", userId: "u-alice" };
const bob: Actor = { kind: "person", id: "u-bob", name: "bob", userId: "u-bob" };
const worker: Actor = { kind: "worker", id: "host:1:abcd", name: "worker abcd", userId: "u-bob" };

function entry(id: string, at: string, actor: Actor, action: string, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return { id, at, actor, action, target: { runId: `run-${id}` }, status: 200, detail: null, ...overrides };
}

/**
 * The rules every {@link AuditStore} keeps (memory, SQLite, PostgreSQL): entries read back exactly,
 * newest first (ties: the later added first), filtered by person (account id or name), action
 * prefix and a half-open time range, paged with the total. `make` hands out an empty store.
 */
export function auditStoreContract(make: () => Promise<AuditStore>): void {
  const list = (store: AuditStore, query: AuditQueryInput = {}) => store.list(auditQuerySchema.parse(query));

  it("starts empty, and reads entries back exactly, newest first", async () => {
    const store = await make();
    expect(await list(store)).toEqual({ entries: [], total: 0 });
    const first = entry("1", "2026-12-05T14:00:00.000Z", alice, "POST /api/runs", { status: 201 });
    const refused = entry("2", "2026-12-05T14:01:00.000Z", bob, "POST /api/runs/[runId]/cancel", { status: 403, detail: "Only the run's owner or an admin may change it.", target: { runId: "r-9" } });
    const nested = entry("3", "2026-12-05T14:02:00.000Z", aliceToken, "cli users add", { status: 0, target: { email: "carol@lab.example", admin: true, roles: ["runner"] } });
    for (const each of [first, refused, nested]) await store.record(each);
    expect(await list(store)).toEqual({ entries: [nested, refused, first], total: 3 });
  });

  it("among entries at the same time, the one added later comes first", async () => {
    const store = await make();
    const at = "2026-12-05T14:00:00.000Z";
    for (const id of ["a", "b", "c"]) await store.record(entry(id, at, alice, "PATCH /api/prices"));
    expect((await list(store)).entries.map((e) => e.id)).toEqual(["c", "b", "a"]);
  });

  it("filters by person (account id or actor name), action prefix and time range, together", async () => {
    const store = await make();
    await store.record(entry("1", "2026-12-04T23:59:59.999Z", alice, "POST /api/runs"));
    await store.record(entry("2", "2026-12-05T09:00:00.000Z", aliceToken, "POST /api/runs/[runId]/fork"));
    await store.record(entry("3", "2026-12-05T10:00:00.000Z", bob, "POST /api/runs/[runId]/fork"));
    await store.record(entry("4", "2026-12-05T11:00:00.000Z", worker, "cli worker"));
    await store.record(entry("5", "2026-12-06T00:00:00.000Z", alice, "DELETE /api/task-sets/[id]"));
    const ids = async (query: AuditQueryInput) => (await list(store, query)).entries.map((e) => e.id);
    // By account: the person and their token; by name: only what was done under that name.
    expect(await ids({ user: "u-alice" })).toEqual(["5", "2", "1"]);
    expect(await ids({ user: "alice (token ci)" })).toEqual(["2"]);
    expect(await ids({ user: "worker abcd" })).toEqual(["4"]);
    expect(await ids({ user: "u-bob" })).toEqual(["4", "3"]);
    expect(await ids({ user: "nobody" })).toEqual([]);
    expect(await ids({ action: "POST /api/runs" })).toEqual(["3", "2", "1"]);
    expect(await ids({ action: "POST /api/runs/[runId]/fork" })).toEqual(["3", "2"]);
    expect(await ids({ action: "cli" })).toEqual(["4"]);
    // `since` is inclusive, `until` exclusive: one day is [since, until).
    expect(await ids({ since: "2026-12-05T00:00:00.000Z", until: "2026-12-06T00:00:00.000Z" })).toEqual(["4", "3", "2"]);
    expect(await ids({ user: "u-alice", action: "POST", since: "2026-12-05T00:00:00.000Z" })).toEqual(["2"]);
  });

  it("a filter with LIKE's wildcards means them literally", async () => {
    const store = await make();
    await store.record(entry("1", "2026-12-05T09:00:00.000Z", alice, "POST /api/runs"));
    expect((await list(store, { action: "POST %" })).total).toBe(0);
    expect((await list(store, { action: "POST _api" })).total).toBe(0);
  });

  it("pages with limit and offset, and counts every match", async () => {
    const store = await make();
    for (let i = 0; i < 7; i += 1) await store.record(entry(String(i), `2026-12-05T10:0${i}:00.000Z`, i % 2 ? bob : alice, "POST /api/runs"));
    const first = await list(store, { limit: 3 });
    expect(first.total).toBe(7);
    expect(first.entries.map((e) => e.id)).toEqual(["6", "5", "4"]);
    expect((await list(store, { limit: 3, offset: 3 })).entries.map((e) => e.id)).toEqual(["3", "2", "1"]);
    expect((await list(store, { limit: 3, offset: 6 })).entries.map((e) => e.id)).toEqual(["0"]);
    expect(await list(store, { limit: 3, offset: 9 })).toEqual({ entries: [], total: 7 });
    const bobs = await list(store, { user: "bob", limit: 2 });
    expect(bobs.total).toBe(3);
    expect(bobs.entries.map((e) => e.id)).toEqual(["5", "3"]);
  });
}
