import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/domain/errors";
import { draft } from "@/lib/domain/events";
import { openNodePostgres } from "@/lib/db/pg/database";
import { PgRunStore } from "@/lib/db/pg/pg-store";
import { sql } from "drizzle-orm";
import { PgTemplateStore } from "@/lib/db/pg/pg-templates";
import type { PgConnection } from "@/lib/db/pg/database";
import { makeRunConfig } from "../helpers/run-config";
import { templateStoreContract } from "../templates/template-store-contract";
import { runStoreContract } from "./store-contract";
import { realPostgres } from "./pg-test-stores";

// The RunStore contract on a real PostgreSQL server, and what only several connections can show.
const postgres = realPostgres();
beforeAll(() => postgres.open(), 90_000);
afterAll(() => postgres.close());

runStoreContract("postgres (server)", () => postgres.makeStore());

describe("TemplateStore contract: postgres (server)", () => {
  let templates: PgConnection | null = null;
  beforeAll(async () => {
    templates = openNodePostgres(await postgres.server().createDatabase("templates"), { max: 2 });
    await templates.migrate();
  });
  afterAll(() => templates?.close());
  // Each case gets emptied tables (when its store is first used).
  templateStoreContract(() => {
    const connection = templates;
    if (!connection) throw new Error("no database");
    let emptied: Promise<void> | null = null;
    return new PgTemplateStore(connection.db, () => (emptied ??= connection.db.execute(sql`TRUNCATE template_versions, templates CASCADE`).then(() => undefined)));
  });
});

describe("PgRunStore across connections", () => {
  it("two connections appending after the same seq: exactly one wins, the other gets a conflict", async () => {
    const url = await postgres.server().createDatabase("race");
    const a = new PgRunStore(openNodePostgres(url), { migrate: "apply" });
    await a.ready();
    const b = new PgRunStore(openNodePostgres(url), { migrate: "check" });
    const run = await a.createRun({ config: makeRunConfig(), title: "Q?" });
    for (let round = 0; round < 10; round++) {
      const last = (await a.list(run.id, run.rootBranchId)).at(-1)?.seq ?? 0;
      const results = await Promise.allSettled([
        a.appendAfter(run.id, run.rootBranchId, last, [draft("run-pause", { reason: "user", detail: `a${round}` })]),
        b.appendAfter(run.id, run.rootBranchId, last, [draft("run-pause", { reason: "user", detail: `b${round}` })]),
      ]);
      const won = results.filter((r) => r.status === "fulfilled");
      const lost = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0]).toBeInstanceOf(AppError);
      expect(lost[0]).toMatchObject({ code: "conflict" });
    }
    const seqs = (await b.list(run.id, run.rootBranchId)).map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
    await a.close();
    await b.close();
  });

  it("plain appends from two connections at once queue up: contiguous seqs, none lost", async () => {
    const url = await postgres.server().createDatabase("queue");
    const a = new PgRunStore(openNodePostgres(url), { migrate: "apply" });
    await a.ready();
    const b = new PgRunStore(openNodePostgres(url), { migrate: "check" });
    const run = await a.createRun({ config: makeRunConfig(), title: "Q?" });
    const writes = Array.from({ length: 30 }, (_, i) =>
      (i % 2 === 0 ? a : b).append(run.id, run.rootBranchId, [draft("run-resume", { reason: "user" }), draft("run-pause", { reason: "user", detail: `${i}` })]),
    );
    await Promise.all(writes);
    const events = await a.list(run.id, run.rootBranchId);
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 61 }, (_, i) => i + 1));
    // Each batch stayed together (a batch's seqs are consecutive).
    const pauses = events.filter((e) => e.type === "run-pause").map((e) => e.seq);
    for (const seq of pauses) expect(events[seq - 2]?.type).toBe("run-resume");
    expect((await b.getBranchSummary(run.rootBranchId))?.lastSeq).toBe(61);
    await a.close();
    await b.close();
  });

  it("a lease claimed by two connections at once goes to exactly one", async () => {
    const url = await postgres.server().createDatabase("lease");
    const a = new PgRunStore(openNodePostgres(url), { migrate: "apply" });
    await a.ready();
    const b = new PgRunStore(openNodePostgres(url), { migrate: "check" });
    for (let i = 0; i < 10; i++) {
      const run = await a.createRun({ config: makeRunConfig(), title: `run ${i}` });
      const granted = await Promise.all([a.claimLease(run.rootBranchId, "worker-a", 10_000), b.claimLease(run.rootBranchId, "worker-b", 10_000)]);
      expect(granted.filter(Boolean)).toHaveLength(1);
      const holder = await b.leaseHolder(run.rootBranchId);
      expect(holder).toBe(granted[0] ? "worker-a" : "worker-b");
    }
    await a.close();
    await b.close();
  });

  it("the response cache keeps the first response when two workers store one request", async () => {
    const store = await postgres.makeStore();
    const response = (text: string) => ({ text, usage: { inputTokens: 3, outputTokens: 1 }, finishReason: "stop" });
    await Promise.all([store.putCachedResponse("h1", response("first")), store.putCachedResponse("h1", response("second"))]);
    expect(["first", "second"]).toContain((await store.getCachedResponse("h1"))?.text);
    await store.putCachedResponse("h1", response("third"));
    expect((await store.getCachedResponse("h1"))?.text).not.toBe("third");
    await store.close();
  });

  it("a store on an unmigrated database says to run `cli db migrate`, and works once it has run", async () => {
    const url = await postgres.server().createDatabase("empty");
    const store = new PgRunStore(openNodePostgres(url), { migrate: "check" });
    await expect(store.listRuns(1)).rejects.toThrow(/0 of \d+ migrations applied.*db migrate/);
    // `cli db migrate` from another machine: the same store works at its next request, no restart.
    const migrator = openNodePostgres(url, { max: 1 });
    await migrator.migrate();
    await migrator.close();
    expect(await store.listRuns(1)).toEqual([]);
    const status = await store.migrationStatus();
    expect(status.expected).toBeGreaterThan(0);
    expect(status.applied).toBe(status.expected);
    await store.close();
  });
});
