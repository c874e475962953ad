import { describe, expect, it } from "vitest";
import { draft } from "@/lib/domain/events";
import { experimentDefinitionSchema } from "@/lib/domain/experiment";
import { asBranchId, asRunId } from "@/lib/domain/ids";
import type { RunStore } from "@/lib/db/store";
import { makeRunConfig } from "../helpers/run-config";

/** The behaviour every RunStore adapter must have (DESIGN.md §6 storage contract). */
export function runStoreContract(name: string, makeStore: () => Promise<RunStore>): void {
  describe(`RunStore contract: ${name}`, () => {
    it("creates a run with a root branch and a run-start event at seq 1", async () => {
      const store = await makeStore();
      const run = await store.createRun({ config: makeRunConfig(), title: "Q?" });
      const events = await store.list(run.id, run.rootBranchId);
      expect(events.map((e) => [e.seq, e.type])).toEqual([[1, "run-start"]]);
      expect((await store.getRun(run.id))?.config.taskId).toBe("t1");
      expect(await store.getBranch(run.rootBranchId)).toMatchObject({ parentBranchId: null, forkSeq: null });
      await store.close();
    });

    it("appends batches with contiguous seq and lists after a seq", async () => {
      const store = await makeStore();
      const run = await store.createRun({ config: makeRunConfig(), title: "Q?" });
      await store.append(run.id, run.rootBranchId, [draft("trial-start", { trial: 1, memory: [], evicted: [] })]);
      const second = await store.append(run.id, run.rootBranchId, [
        draft("trial-end", { trial: 1, outcome: "failure", reason: "wrong" }),
        draft("run-end", { outcome: "failure", trials: 1 }),
      ]);
      expect(second.map((e) => e.seq)).toEqual([3, 4]);
      const all = await store.list(run.id, run.rootBranchId);
      expect(all.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      expect((await store.list(run.id, run.rootBranchId, 2)).map((e) => e.type)).toEqual(["trial-end", "run-end"]);
      await store.close();
    });

    it("stores text with NUL characters (a model's completion, a program's output) in events and the response cache", async () => {
      const store = await makeStore();
      const run = await store.createRun({ config: makeRunConfig(), title: "Q?" });
      // A real NUL, then the six characters backslash-u-0-0-0-0, which must stay as they are.
      const text = "answer\u0000tail, literally \\u0000 here";
      await store.append(run.id, run.rootBranchId, [draft("trial-end", { trial: 1, outcome: "failure", reason: text })]);
      await store.putCachedResponse("nul-key", { text, usage: { inputTokens: 1, outputTokens: 1 }, finishReason: "stop" });
      // SQLite keeps the NUL; PostgreSQL's jsonb cannot hold one and stores U+FFFD instead. Nothing else changes.
      const kept = (value: string | undefined) => value?.replaceAll("\u0000", "\uFFFD");
      const [, stored] = await store.list(run.id, run.rootBranchId);
      expect(stored?.type).toBe("trial-end");
      const reason = stored?.type === "trial-end" ? stored.data.reason : undefined;
      expect(kept(reason)).toBe("answer\uFFFDtail, literally \\u0000 here");
      expect(kept((await store.getCachedResponse("nul-key"))?.text)).toBe("answer\uFFFDtail, literally \\u0000 here");
      await store.close();
    });

    it("lists every branch with events of its own and the newest seq on its path (listBranchSeqs)", async () => {
      const store = await makeStore();
      const run = await store.createRun({ config: makeRunConfig(), title: "Q?" });
      await store.append(run.id, run.rootBranchId, [draft("trial-start", { trial: 1, memory: [], evicted: [] }), draft("trial-end", { trial: 1, outcome: "failure", reason: "wrong" })]);
      const fork = await store.createBranch({ runId: run.id, parentBranchId: run.rootBranchId, forkSeq: 2 });
      const bySeq = async () => [...((await store.listBranchSeqs?.()) ?? [])].sort((a, b) => a.lastSeq - b.lastSeq);
      // A fork without events of its own has no summary row yet: it shows its parent's trials only.
      expect(await bySeq()).toEqual([{ runId: run.id, branchId: run.rootBranchId, lastSeq: 3 }]);
      await store.append(run.id, fork.id, [draft("trial-start", { trial: 2, memory: [], evicted: [] })]);
      await store.append(run.id, run.rootBranchId, [draft("run-end", { outcome: "failure", trials: 1 })]);
      const seqs = await bySeq();
      expect(seqs).toHaveLength(2);
      expect(seqs).toContainEqual({ runId: run.id, branchId: run.rootBranchId, lastSeq: 4 });
      expect(seqs.find((entry) => entry.branchId === fork.id)?.lastSeq).toBe((await store.getBranchSummary(fork.id))?.lastSeq);
      await store.close();
    });

    it("remembers a model's rejected parameters per model, once each", async () => {
      const store = await makeStore();
      expect(await store.rejectedParameters?.("compatible:reasoner")).toEqual([]);
      await store.rememberRejectedParameter?.("compatible:reasoner", "stopSequences");
      await store.rememberRejectedParameter?.("compatible:reasoner", "temperature");
      await store.rememberRejectedParameter?.("compatible:reasoner", "stopSequences");
      expect([...((await store.rejectedParameters?.("compatible:reasoner")) ?? [])].sort()).toEqual(["stopSequences", "temperature"]);
      expect(await store.rejectedParameters?.("openai:gpt-4o")).toEqual([]);
      await store.close();
    });

    it("rejects a malformed event and stores nothing of its batch", async () => {
      const store = await makeStore();
      const run = await store.createRun({ config: makeRunConfig(), title: "Q?" });
      const bad = { type: "trial-end", data: { trial: 0, outcome: "maybe", reason: 3 } };
      await expect(
        // @ts-expect-error deliberately malformed draft
        store.append(run.id, run.rootBranchId, [draft("trial-start", { trial: 1, memory: [], evicted: [] }), bad]),
      ).rejects.toThrow(/malformed "trial-end"/);
      expect(await store.list(run.id, run.rootBranchId)).toHaveLength(1);
      await store.close();
    });

    it("keeps writer-chosen ids and causedBy links", async () => {
      const store = await makeStore();
      const run = await store.createRun({ config: makeRunConfig(), title: "Q?" });
      const [stored] = await store.append(run.id, run.rootBranchId, [
        draft("run-pause", { reason: "user", detail: "x" }, { id: "evt-fixed", causedBy: null }),
      ]);
      expect(stored?.id).toBe("evt-fixed");
      await store.close();
    });

    it("refuses appends to a branch of another run", async () => {
      const store = await makeStore();
      const a = await store.createRun({ config: makeRunConfig(), title: "A" });
      const b = await store.createRun({ config: makeRunConfig(), title: "B" });
      await expect(store.append(a.id, b.rootBranchId, [draft("run-resume", { reason: "user" })])).rejects.toThrow(/has no branch/);
      await expect(store.list(asRunId("nope"), asBranchId("nope"))).rejects.toThrow(/No branch/);
      await store.close();
    });

    it("a fork of a fork sees each ancestor only up to the smallest fork point below it", async () => {
      const store = await makeStore();
      const run = await store.createRun({ config: makeRunConfig(), title: "Q?" });
      const pause = (detail: string) => draft("run-pause", { reason: "user", detail });
      await store.append(run.id, run.rootBranchId, [pause("r2"), pause("r3"), pause("r4")]);
      const child = await store.createBranch({ runId: run.id, parentBranchId: run.rootBranchId, forkSeq: 3 });
      await store.append(run.id, child.id, [pause("c4")]);
      const grandchild = await store.createBranch({ runId: run.id, parentBranchId: child.id, forkSeq: 2 });
      await store.append(run.id, grandchild.id, [pause("g3")]);
      const details = (events: Awaited<ReturnType<typeof store.list>>) => events.map((e) => (e.type === "run-pause" ? e.data.detail : e.type));
      expect(details(await store.list(run.id, child.id))).toEqual(["run-start", "r2", "r3", "c4"]);
      expect(details(await store.list(run.id, grandchild.id))).toEqual(["run-start", "r2", "g3"]);
      expect((await store.listBranches(run.id)).map((b) => b.id)).toEqual([run.rootBranchId, child.id, grandchild.id]);
      await store.close();
    });

    it("lists runs newest first", async () => {
      const store = await makeStore();
      const first = await store.createRun({ config: makeRunConfig(), title: "first" });
      await new Promise((resolve) => setTimeout(resolve, 5));
      const second = await store.createRun({ config: makeRunConfig(), title: "second" });
      expect((await store.listRuns(10)).map((r) => r.id)).toEqual([second.id, first.id]);
      expect(await store.listRuns(1)).toHaveLength(1);
      await store.close();
    });

    it("grants a lease to one owner at a time until it expires", async () => {
      const store = await makeStore();
      const run = await store.createRun({ config: makeRunConfig(), title: "Q?" });
      expect(await store.claimLease(run.rootBranchId, "server-a", 1000, 10_000)).toBe(true);
      expect(await store.claimLease(run.rootBranchId, "server-b", 1000, 10_500)).toBe(false);
      expect(await store.leaseHolder(run.rootBranchId, 10_500)).toBe("server-a");
      expect(await store.leaseHolder(run.rootBranchId, 11_001)).toBeNull();
      expect(await store.claimLease(run.rootBranchId, "server-b", 1000, 11_001)).toBe(true);
      await store.releaseLease(run.rootBranchId, "server-a");
      expect(await store.leaseHolder(run.rootBranchId, 11_500)).toBe("server-b");
      await store.releaseLease(run.rootBranchId, "server-b");
      expect(await store.leaseHolder(run.rootBranchId, 11_500)).toBeNull();
      await store.close();
    });

    it("saves and lists task sets", async () => {
      const store = await makeStore();
      const saved = await store.saveTaskSet({ name: "dev.json", environment: "qa", tasks: [{ id: "x" }, { id: "y" }], problems: ["record 3: no answer"], contentHash: "h1" });
      expect(await store.getTaskSet(saved.id)).toMatchObject({ name: "dev.json", tasks: [{ id: "x" }, { id: "y" }], problems: ["record 3: no answer"] });
      expect(await store.listTaskSets()).toEqual([expect.objectContaining({ id: saved.id, taskCount: 2 })]);
      expect(await store.getTaskSet("missing")).toBeNull();
      await store.close();
    });

    it("deletes a task set; listing reads the stored count, not the tasks", async () => {
      const store = await makeStore();
      const kept = await store.saveTaskSet({ name: "kept.json", environment: "qa", tasks: [{ id: "x" }], problems: [], contentHash: "k" });
      const gone = await store.saveTaskSet({ name: "gone.json", environment: "qa", tasks: [{ id: "a" }, { id: "b" }, { id: "c" }], problems: [], contentHash: "g" });
      const listed = await store.listTaskSets();
      expect(listed.map((set) => [set.name, set.taskCount]).sort()).toEqual([["gone.json", 3], ["kept.json", 1]]);
      for (const set of listed) expect(Object.keys(set).sort()).toEqual(["createdAt", "environment", "id", "name", "taskCount"]);
      expect(await store.deleteTaskSet(gone.id)).toBe(true);
      expect(await store.deleteTaskSet(gone.id)).toBe(false);
      expect(await store.getTaskSet(gone.id)).toBeNull();
      expect((await store.listTaskSets()).map((set) => set.id)).toEqual([kept.id]);
      await store.close();
    });

    it("reuses the set when the same content is imported again for the same family", async () => {
      const store = await makeStore();
      const first = await store.saveTaskSet({ name: "a.json", environment: "qa", tasks: [{ id: "x" }], problems: [], contentHash: "same" });
      const again = await store.saveTaskSet({ name: "a copy.json", environment: "qa", tasks: [{ id: "x" }], problems: [], contentHash: "same" });
      const otherFamily = await store.saveTaskSet({ name: "a.json", environment: "household", tasks: [{ id: "x" }], problems: [], contentHash: "same" });
      const unhashed = await store.saveTaskSet({ name: "a.json", environment: "qa", tasks: [{ id: "x" }], problems: [], contentHash: null });
      expect(again.id).toBe(first.id);
      expect(otherFamily.id).not.toBe(first.id);
      expect(unhashed.id).not.toBe(first.id);
      expect(await store.listTaskSets()).toHaveLength(3);
      await store.close();
    });

    it("experiments: a cell's run is created with its link; a second run for the same cell is refused and nothing of it is stored", async () => {
      const store = await makeStore();
      const definition = experimentDefinitionSchema.parse({
        name: "ReAct vs Reflexion",
        environment: "qa",
        taskSet: "builtin",
        taskIds: ["t1", "t2"],
        arms: [
          { label: "ReAct", strategy: "none", modelId: "demo" },
          { label: "Reflexion", strategy: "reflexion", modelId: "demo" },
        ],
      });
      const older = await store.experiments.createExperiment({ definition: { ...definition, name: "older" }, taskSetName: "Built-in" });
      const experiment = await store.experiments.createExperiment({ definition, taskSetName: "Built-in" });
      expect((await store.experiments.getExperiment(experiment.id))?.definition).toEqual(definition);
      expect((await store.experiments.listExperiments(10)).map((e) => e.id)).toEqual([experiment.id, older.id]);
      // An optimisation's or a check's evaluation experiment is left out when asked, listed by default.
      const derived = await store.experiments.createExperiment({ definition: { ...definition, name: "opt eval", origin: { kind: "optimisation", id: "opt-0123" } }, taskSetName: "Built-in" });
      expect((await store.experiments.listExperiments(10, { withDerived: false })).map((e) => e.id)).toEqual([experiment.id, older.id]);
      expect((await store.experiments.listExperiments(10)).map((e) => e.id)).toEqual([derived.id, experiment.id, older.id]);
      expect((await store.experiments.getExperiment(derived.id))?.definition.origin).toEqual({ kind: "optimisation", id: "opt-0123" });
      const cell = { experimentId: experiment.id, taskId: "t1", arm: "ReAct" };
      const first = await store.createRun({ config: makeRunConfig(), title: "Q?", cell });
      const second = await store.createRun({ config: makeRunConfig({ strategy: "reflexion" }), title: "Q?", cell: { ...cell, arm: "Reflexion" } });
      await expect(store.createRun({ config: makeRunConfig(), title: "again", cell })).rejects.toThrow(/already has run/);
      expect((await store.listRuns(10)).map((run) => run.id).sort()).toEqual([first.id, second.id].sort());
      expect(await store.experiments.listExperimentRuns(experiment.id)).toEqual([
        { ...cell, runId: first.id },
        { ...cell, arm: "Reflexion", runId: second.id },
      ]);
      expect(await store.experiments.experimentOfRun(second.id)).toMatchObject({ arm: "Reflexion", taskId: "t1" });
      // The results view's one query: every cell with its run's root summary and lease.
      await store.append(first.id, first.rootBranchId, [draft("run-end", { outcome: "failure", trials: 0 })]);
      await store.claimLease(second.rootBranchId, "w1", 60_000);
      const cells = await store.experiments.listExperimentCells(experiment.id);
      expect(cells.map((c) => [c.arm, c.rootBranchId, c.summary.status, c.lease?.owner ?? null])).toEqual([
        ["ReAct", first.rootBranchId, "ended", null],
        ["Reflexion", second.rootBranchId, "running", "w1"],
      ]);
      expect(await store.experiments.experimentOfRun("nope")).toBeNull();
      await expect(store.createRun({ config: makeRunConfig(), title: "x", cell: { ...cell, experimentId: "missing" } })).rejects.toThrow(/No experiment/);
      await store.close();
    });
  });
}
