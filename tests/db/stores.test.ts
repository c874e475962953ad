import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { draft } from "@/lib/domain/events";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import { makeRunConfig } from "../helpers/run-config";
import { runStoreContract } from "./store-contract";

const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-store-"));
let counter = 0;

runStoreContract("memory", async () => new MemoryRunStore());
runStoreContract("sqlite (file)", async () => new SqliteRunStore(path.join(tempDir, `db-${++counter}.sqlite`)));

describe("SqliteRunStore on disk", () => {
  it("keeps every event across close and reopen (a server restart)", async () => {
    const file = path.join(tempDir, "reopen.sqlite");
    const first = new SqliteRunStore(file);
    const run = await first.createRun({ config: makeRunConfig(), title: "Q?" });
    await first.append(run.id, run.rootBranchId, [draft("trial-start", { trial: 1, memory: [], evicted: [] })]);
    await first.close();
    const second = new SqliteRunStore(file);
    const events = await second.list(run.id, run.rootBranchId);
    expect(events.map((e) => e.type)).toEqual(["run-start", "trial-start"]);
    await second.close();
  });

  it("never hands out one seq twice when two connections append", async () => {
    const file = path.join(tempDir, "two-writers.sqlite");
    const a = new SqliteRunStore(file);
    const b = new SqliteRunStore(file);
    const run = await a.createRun({ config: makeRunConfig(), title: "Q?" });
    for (let i = 0; i < 20; i++) {
      const writer = i % 2 === 0 ? a : b;
      await writer.append(run.id, run.rootBranchId, [draft("run-resume", { reason: "user" }), draft("run-pause", { reason: "user", detail: `${i}` })]);
    }
    const seqs = (await a.list(run.id, run.rootBranchId)).map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
    await a.close();
    await b.close();
  });
});
