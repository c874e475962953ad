import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { branchSummaryOfState } from "@/lib/domain/branch-summary";
import { draft, type EventDraft, type RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import type { BranchId } from "@/lib/domain/ids";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import type { RunStore } from "@/lib/db/store";
import { makeRunConfig } from "../helpers/run-config";
import { DatabaseSync } from "node:sqlite";

/** The summary the read model must equal: a projection of the full fold of the branch's path. */
function expectedSummary(branchId: string, events: readonly RunEvent[]) {
  const own = { liveCalls: 0, cachedCalls: 0 };
  for (const event of events) {
    if (event.type === "model-call-end" && event.branchId === branchId) {
      if (event.data.source === "live") own.liveCalls += 1;
      else own.cachedCalls += 1;
    }
  }
  const endedAt = events.filter((event) => event.type === "run-end").at(-1)?.occurredAt ?? null;
  return branchSummaryOfState(branchId, foldRun(events), own, endedAt);
}

type Op =
  | { kind: "control"; which: number; branch: number }
  | { kind: "call"; branch: number; live: boolean; tokens: number; priced: boolean }
  | { kind: "trial"; branch: number; halted: boolean; falsePositive: boolean }
  | { kind: "model-edit"; branch: number; to: number }
  | { kind: "fork"; branch: number; at: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("control" as const), which: fc.nat(6), branch: fc.nat(4) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("call" as const), branch: fc.nat(4), live: fc.boolean(), tokens: fc.nat(500), priced: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("trial" as const), branch: fc.nat(4), halted: fc.boolean(), falsePositive: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("model-edit" as const), branch: fc.nat(4), to: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("fork" as const), branch: fc.nat(4), at: fc.nat(60) }) },
);

const config = makeRunConfig();

function controlDraft(which: number): EventDraft[] {
  switch (which) {
    case 0:
      return [draft("pause-request", { requestedBy: "web" })];
    case 1:
      return [draft("cancel-request", { requestedBy: "cli" })];
    case 2:
      return [draft("run-pause", { reason: "user", detail: "Paused by the user." })];
    case 3:
      return [draft("run-resume", { reason: "user" })];
    case 4:
      return [draft("run-cancel", { reason: "x" }), draft("run-end", { outcome: "cancelled", trials: 0 })];
    case 5:
      return [draft("run-error", { code: "internal", message: "boom" })];
    default:
      return [draft("run-pause", { reason: "model-error", detail: "provider down", at: null })];
  }
}

function callDraft(op: Extract<Op, { kind: "call" }>, trial: number): EventDraft {
  return draft("model-call-end", {
    callId: `c-${Math.random()}`,
    role: op.tokens % 2 === 0 ? "actor" : "reflector",
    trial: Math.max(1, trial),
    step: 1,
    settings: config.models.actor,
    requestHash: "h",
    messages: [],
    outputText: "x",
    usage: { inputTokens: op.tokens, outputTokens: Math.floor(op.tokens / 3) },
    costUsd: op.priced ? op.tokens / 1e6 : null,
    latencyMs: 1,
    finishReason: "stop",
    source: op.live ? "live" : "cache",
  });
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "summary-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const stores: Array<[string, () => RunStore]> = [
  ["memory", () => new MemoryRunStore()],
  ["sqlite", () => new SqliteRunStore(path.join(dir, `s${counter++}.sqlite`))],
];

describe.each(stores)("branch summary read model (%s store)", (_name, makeStore) => {
  it("always equals a full fold of the branch's path, after any sequence of appends and forks", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 40 }), async (ops) => {
        const store = makeStore();
        try {
          const run = await store.createRun({ config, title: "t" });
          const branches: BranchId[] = [run.rootBranchId];
          const trials = new Map<string, number>();
          for (const op of ops) {
            const branch = branches[op.branch % branches.length]!;
            if (op.kind === "fork") {
              const visible = await store.list(run.id, branch);
              const at = visible[op.at % visible.length]!.seq;
              const child = await store.createBranch({ runId: run.id, parentBranchId: branch, forkSeq: at });
              await store.append(run.id, child.id, [draft("branch-start", { parentBranchId: branch, forkSeq: at, reason: "edit", replayMode: "recorded", edits: [] })]);
              branches.push(child.id);
              trials.set(child.id, foldRun(visible.filter((e) => e.seq <= at)).trials.length);
              continue;
            }
            let drafts: EventDraft[];
            if (op.kind === "control") drafts = controlDraft(op.which);
            else if (op.kind === "call") drafts = [callDraft(op, trials.get(branch) ?? 1)];
            else if (op.kind === "trial") {
              const n = (trials.get(branch) ?? 0) + 1;
              trials.set(branch, n);
              drafts = [
                draft("trial-start", { trial: n, memory: [], evicted: [] }),
                draft("evaluation-end", {
                  trial: n,
                  verdict: op.falsePositive ? "pass" : "fail",
                  score: 0,
                  feedback: "f",
                  evaluatorKind: "unit-tests",
                  oracle: false,
                  details: {},
                  falsePositive: op.falsePositive,
                }),
                draft("trial-end", { trial: n, outcome: op.halted ? "halted" : "failure", reason: "r" }),
              ];
            } else {
              const state = foldRun(await store.list(run.id, branch));
              const oldValue = state.config!.models.actor;
              drafts = [draft("settings-edit", { target: "model", role: "actor", oldValue, newValue: { ...oldValue, modelId: `openai:m${op.to}` }, note: null })];
            }
            await store.append(run.id, branch, drafts);
          }
          for (const branch of branches) {
            const events = await store.list(run.id, branch);
            expect(await store.getBranchSummary(branch)).toEqual(expectedSummary(branch, events));
          }
        } finally {
          await store.close();
        }
      }),
      { numRuns: 40 },
    );
  });

  it("lists the branches whose log says running as runnable, oldest first, and drops them once paused or ended", async () => {
    const store = makeStore();
    try {
      const a = await store.createRun({ config, title: "a" });
      const b = await store.createRun({ config, title: "b" });
      expect((await store.listRunnableBranches(10)).map((r) => r.branchId)).toEqual([a.rootBranchId, b.rootBranchId]);
      await store.append(a.id, a.rootBranchId, [draft("run-pause", { reason: "user", detail: "p" })]);
      expect((await store.listRunnableBranches(10)).map((r) => r.branchId)).toEqual([b.rootBranchId]);
      // Resumed: runnable again, now queued after b.
      await store.append(a.id, a.rootBranchId, [draft("run-resume", { reason: "user" })]);
      expect((await store.listRunnableBranches(10)).map((r) => r.branchId)).toEqual([b.rootBranchId, a.rootBranchId]);
      await store.append(b.id, b.rootBranchId, [draft("run-end", { outcome: "failure", trials: 0 })]);
      expect((await store.listRunnableBranches(10)).map((r) => r.branchId)).toEqual([a.rootBranchId]);
      // A fork is runnable only once its own first event (branch-start) is stored.
      const fork = await store.createBranch({ runId: b.id, parentBranchId: b.rootBranchId, forkSeq: 1 });
      expect((await store.listRunnableBranches(10)).map((r) => r.branchId)).toEqual([a.rootBranchId]);
      await store.append(b.id, fork.id, [draft("branch-start", { parentBranchId: b.rootBranchId, forkSeq: 1, reason: "replay", replayMode: "recorded", edits: [] })]);
      expect((await store.listRunnableBranches(10)).map((r) => r.branchId)).toEqual([a.rootBranchId, fork.id]);
    } finally {
      await store.close();
    }
  });

  it("keeps the holder's call activity with its lease, and drops it when another owner takes the lease", async () => {
    const store = makeStore();
    try {
      const run = await store.createRun({ config, title: "a" });
      const branch = run.rootBranchId;
      const call = { role: "actor" as const, trial: 1, step: 2, startedAt: "2026-12-01T08:00:00.000Z", retry: null };
      expect(await store.claimLease(branch, "w1", 1_000, 0)).toBe(true);
      await store.setLeaseActivity(branch, "w2", call); // not the holder: ignored
      expect((await store.getLease(branch))?.activity).toBeNull();
      await store.setLeaseActivity(branch, "w1", call);
      expect(await store.claimLease(branch, "w1", 1_000, 10)).toBe(true); // renewing keeps it
      expect((await store.getLease(branch))?.activity).toEqual(call);
      expect(await store.claimLease(branch, "w2", 1_000, 5_000)).toBe(true); // w1's lease expired
      expect(await store.getLease(branch)).toMatchObject({ owner: "w2", activity: null });
      expect((await store.listRunnableBranches(5))[0]?.lease).toMatchObject({ owner: "w2" });
    } finally {
      await store.close();
    }
  });
});

describe("summary backfill", () => {
  it("a database written before the read model gets its summaries when it is opened", async () => {
    const file = path.join(dir, "old.sqlite");
    const store = new SqliteRunStore(file);
    const run = await store.createRun({ config, title: "a" });
    await store.append(run.id, run.rootBranchId, [draft("trial-start", { trial: 1, memory: [], evicted: [] }), draft("run-pause", { reason: "user", detail: "p" })]);
    await store.close();
    // Simulate the older schema's state: no summary rows.
    const raw = new DatabaseSync(file);
    raw.prepare("DELETE FROM branch_summaries").run();
    raw.close();
    await expectBackfilled(file, run);
  });

  it("summaries of an older version are recomputed from the log when the database is opened", async () => {
    const file = path.join(dir, "stale.sqlite");
    const store = new SqliteRunStore(file);
    const run = await store.createRun({ config, title: "a" });
    await store.append(run.id, run.rootBranchId, [draft("trial-start", { trial: 1, memory: [], evicted: [] }), draft("run-pause", { reason: "user", detail: "p" })]);
    await store.close();
    const raw = new DatabaseSync(file);
    raw.prepare("UPDATE branch_summaries SET summary = json_set(json_remove(summary, '$.byRole'), '$.version', 1)").run();
    raw.close();
    await expectBackfilled(file, run);
  });
});

/** Reopens the database and checks the summary equals a full fold again (and the paused run is not runnable). */
async function expectBackfilled(file: string, run: { id: RunEvent["runId"]; rootBranchId: BranchId }): Promise<void> {
  const reopened = new SqliteRunStore(file);
  try {
    const events = await reopened.list(run.id, run.rootBranchId);
    expect(await reopened.getBranchSummary(run.rootBranchId)).toEqual(expectedSummary(run.rootBranchId, events));
    expect(await reopened.listRunnableBranches(5)).toEqual([]);
  } finally {
    await reopened.close();
  }
}
