import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openSqliteConnection } from "@/lib/db/sqlite-connection";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAs } from "@/lib/actors/actor-context";
import { importActor } from "@/lib/auth/system-actors";
import type { Actor } from "@/lib/domain/actor";
import { draft, runEventSchema } from "@/lib/domain/events";
import { experimentDefinitionSchema } from "@/lib/domain/experiment";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import type { RunStore } from "@/lib/db/store";
import { PaperImportService } from "@/lib/importers/import-service";
import { createServerContext } from "@/lib/server/app-context";
import { makeRunConfig } from "../helpers/run-config";
import { sharedPglite } from "../db/pg-test-stores";

const alice: Actor = { kind: "person", id: "u-alice", name: "alice", userId: "u-alice" };
const aliceToken: Actor = { kind: "token", id: "t-ci", name: "alice (token ci)", userId: "u-alice" };
const local: Actor = { kind: "local", id: "local", name: "local", userId: "local" };
const worker: Actor = { kind: "worker", id: "host:1:abcd", name: "worker abcd", userId: "u-alice" };
const definition = experimentDefinitionSchema.parse({ name: "ReAct vs Reflexion", environment: "qa", taskSet: "builtin", taskIds: ["t1"], arms: [{ label: "ReAct", strategy: "none", modelId: "demo" }] });

/** The rules every run store keeps about actors and owners. */
function actorContract(make: () => Promise<RunStore>): void {
  it("stamps the current actor on appended events, keeps a draft's own, and leaves the field out when there is none", async () => {
    const store = await make();
    const run = await runAs(alice, () => store.createRun({ config: makeRunConfig(), title: "t" }));
    await runAs(worker, () => store.append(run.id, run.rootBranchId, [draft("trial-start", { trial: 1, memory: [], evicted: [] })]));
    await runAs(worker, () => store.append(run.id, run.rootBranchId, [{ ...draft("pause-request", { requestedBy: "web", note: null }), actor: aliceToken }]));
    await store.append(run.id, run.rootBranchId, [draft("cancel-request", { requestedBy: "cli", note: null })]);
    const events = await store.list(run.id, run.rootBranchId);
    expect(events.map((event) => event.actor)).toEqual([alice, worker, aliceToken, undefined]);
    expect("actor" in events[3]!).toBe(false);
    await store.close();
  });

  it("records the owner of runs and experiments from the creating actor: a person or token owns it, local and none do not", async () => {
    const store = await make();
    const mine = await runAs(alice, () => store.createRun({ config: makeRunConfig(), title: "mine" }));
    const viaToken = await runAs(aliceToken, () => store.createRun({ config: makeRunConfig(), title: "token" }));
    const local1 = await runAs(local, () => store.createRun({ config: makeRunConfig(), title: "local" }));
    const nobody = await store.createRun({ config: makeRunConfig(), title: "nobody" });
    expect([mine, viaToken, local1, nobody].map((run) => run.ownerUserId)).toEqual(["u-alice", "u-alice", null, null]);
    expect((await store.getRun(mine.id))?.ownerUserId).toBe("u-alice");
    expect((await store.getRun(local1.id))?.ownerUserId).toBeNull();
    const listed = new Map((await store.listRuns(10)).map((run) => [run.id, run.ownerUserId]));
    expect([listed.get(mine.id), listed.get(viaToken.id), listed.get(local1.id), listed.get(nobody.id)]).toEqual(["u-alice", "u-alice", null, null]);
    const experiment = await runAs(alice, () => store.experiments.createExperiment({ definition, taskSetName: "Built-in" }));
    const unowned = await runAs(local, () => store.experiments.createExperiment({ definition, taskSetName: "Built-in" }));
    expect((await store.experiments.getExperiment(experiment.id))?.ownerUserId).toBe("u-alice");
    expect((await store.experiments.getExperiment(unowned.id))?.ownerUserId).toBeNull();
    expect((await store.experiments.listExperiments(10)).map((e) => e.ownerUserId)).toEqual([null, "u-alice"]);
    await store.close();
  });

  it("an import belongs to no one and its events say import, even when a person started it", async () => {
    const store = await make();
    const { runs } = await runAs(alice, () =>
      runAs(importActor("traces"), () =>
        store.importExperiment({
          definition,
          taskSetName: "Built-in",
          provenance: null as never,
          runs: [{ config: makeRunConfig(), title: "imported", cell: { taskId: "t1", arm: "ReAct" }, drafts: [draft("trial-start", { trial: 1, memory: [], evicted: [] })] }],
        }),
      ),
    );
    expect(runs[0]!.ownerUserId).toBeNull();
    expect((await store.getRun(runs[0]!.id))?.ownerUserId).toBeNull();
    const events = await store.list(runs[0]!.id, runs[0]!.rootBranchId);
    expect(events.map((event) => event.actor?.kind)).toEqual(["import", "import"]);
    await store.close();
  });
}

describe("MemoryRunStore", () => actorContract(async () => new MemoryRunStore()));
describe("SqliteRunStore", () => actorContract(async () => new SqliteRunStore(":memory:")));
describe("PgRunStore (PGlite)", () => {
  const pglite = sharedPglite();
  beforeAll(() => pglite.open(), 120_000);
  afterAll(() => pglite.close());
  actorContract(() => pglite.makeStore());
});

describe("events from before actors were recorded", () => {
  it("an old event (no actor) parses, and a stored row with no actor reads without one", async () => {
    const old = { id: "e1", runId: "r1", branchId: "b1", seq: 1, schemaVersion: 1, occurredAt: "2025-01-01T00:00:00.000Z", causedBy: null, type: "cancel-request", data: { requestedBy: "web", note: null } };
    const parsed = runEventSchema.parse(old);
    expect("actor" in parsed).toBe(false);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "rp-old-events-")), "db.sqlite");
    const store = new SqliteRunStore(file);
    const run = await runAs(alice, () => store.createRun({ config: makeRunConfig(), title: "t" }));
    // A row as written before the actor column (the column is NULL), through a second connection to the same file.
    const raw = openSqliteConnection(file);
    raw.prepare("INSERT INTO events (id, run_id, branch_id, seq, type, schema_version, occurred_at, caused_by, data) VALUES (?, ?, ?, 2, 'cancel-request', 1, ?, NULL, ?)").run("old-1", run.id, run.rootBranchId, old.occurredAt, JSON.stringify(old.data));
    raw.close();
    const events = await store.list(run.id, run.rootBranchId);
    expect(events[1]).toEqual({ ...old, id: "old-1", runId: run.id, branchId: run.rootBranchId, seq: 2 });
    await store.close();
  });
});

describe("importers act as import", () => {
  const block = ["Question: Is it?", "Thought 1: I need to search it.", "Action 1: Search[It]", "Observation 1: It is a thing.", "Thought 2: So the answer is yes.", "Action 2: Finish[yes]", "Observation 2: Answer is CORRECT", "Correct answer: yes", ""].join("\n");
  const trial = (n: number) => ["", "########################################", `BEGIN TRIAL ${n}`, "Trial summary: Correct: 1, Incorrect: 0, Halted: 0", "#######################################", "------------- BEGIN CORRECT AGENTS -------------", "", block].join("\n");

  it("a paper log uploaded by alice: its events say import paper-logs and its run has no owner", async () => {
    const store = new MemoryRunStore();
    const context = createServerContext({ store, startWorkers: false, env: {} });
    const service = new PaperImportService(store, context.experiments, { dataRoot: null });
    const [result] = await runAs(alice, () => service.importUploads([{ name: "reflexion/hotpotqa_runs/root/ReAct/base/100_questions_2_trials.txt", content: `${trial(1)}${trial(2)}` }]));
    const [run] = await store.listRuns(1);
    expect(result?.experimentId).toBeTruthy();
    expect(run!.ownerUserId).toBeNull();
    const events = await store.list(run!.id, run!.rootBranchId);
    expect(events.length).toBeGreaterThan(5);
    expect(new Set(events.map((event) => `${event.actor?.kind} ${event.actor?.id}`))).toEqual(new Set(["import paper-logs"]));
    await context.close();
  });
});
