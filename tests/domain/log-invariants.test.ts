import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { draft } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import type { BranchId } from "@/lib/domain/ids";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { digestState } from "@/lib/engine/digest";
import { driveRun } from "@/lib/engine/run-engine";
import { builtinQaTasks, qaDemoScriptBook, qaEnvironment } from "@/lib/environments/qa";
import { createModelPort } from "@/lib/llm/model-port";
import { runConfigSchema } from "@/lib/domain/config";
import { demoMockModel } from "../helpers/mock-model";
import { makeRunConfig } from "../helpers/run-config";

/** An operation on the log: append n events to branch b, or fork branch b at one of its seqs. */
type Op = { kind: "append"; branch: number; count: number } | { kind: "fork"; branch: number; at: number };
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("append" as const), branch: fc.nat(5), count: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant("fork" as const), branch: fc.nat(5), at: fc.nat(40) }),
);

describe("event log invariants (DESIGN.md §1), property-based", () => {
  it("seq is contiguous per branch, a branch sees its parent only up to its fork, and later parent events never leak in", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
        const store = new MemoryRunStore();
        const run = await store.createRun({ config: makeRunConfig(), title: "t" });
        const branches: BranchId[] = [run.rootBranchId];
        const snapshots = new Map<BranchId, string>(); // a branch's view of its parent's part, frozen at fork time
        for (const op of ops) {
          const branch = branches[op.branch % branches.length]!;
          if (op.kind === "append") {
            const drafts = Array.from({ length: op.count }, (_, i) => draft("run-pause", { reason: "user", detail: `${i}` }));
            await store.append(run.id, branch, drafts);
          } else {
            const visible = await store.list(run.id, branch);
            const at = visible[op.at % visible.length]!.seq;
            const child = await store.createBranch({ runId: run.id, parentBranchId: branch, forkSeq: at });
            branches.push(child.id);
            snapshots.set(child.id, JSON.stringify(visible.filter((e) => e.seq <= at).map((e) => e.id)));
          }
        }
        for (const branch of branches) {
          const path = await store.list(run.id, branch);
          // Contiguous seq along the whole path, starting at 1.
          expect(path.map((e) => e.seq)).toEqual(path.map((_, i) => i + 1));
          const record = (await store.getBranch(branch))!;
          if (record.parentBranchId !== null) {
            const inherited = path.filter((e) => e.seq <= record.forkSeq!);
            // Everything up to the fork comes from ancestors, exactly as the parent saw it at fork time.
            expect(inherited.every((e) => e.branchId !== branch)).toBe(true);
            expect(JSON.stringify(inherited.map((e) => e.id))).toBe(snapshots.get(branch));
            // Everything after the fork is the branch's own.
            expect(path.filter((e) => e.seq > record.forkSeq!).every((e) => e.branchId === branch)).toBe(true);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it("folding the path up to any checkpoint reproduces the checkpoint's digest", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: builtinQaTasks.length - 1 }),
        fc.constantFrom("none" as const, "reflexion" as const),
        fc.integer({ min: 1, max: 4 }),
        fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
        async (taskIndex, strategy, maxTrials, memoryWindow) => {
          const task = builtinQaTasks[taskIndex]!;
          const store = new MemoryRunStore();
          const config = runConfigSchema.parse({
            environment: "qa",
            taskSetName: "builtin",
            taskId: task.id,
            task,
            strategy,
            maxTrials,
            memoryWindow,
            models: { actor: { modelId: "demo" }, reflector: { modelId: "demo" } },
            templates: qaEnvironment.defaultTemplates,
          });
          const run = await store.createRun({ config, title: task.question });
          const mock = demoMockModel([qaDemoScriptBook]);
          await driveRun(
            { log: store, model: createModelPort({ resolveModel: () => mock, maxRetries: 0 }), environmentFor: () => qaEnvironment },
            { runId: run.id, branchId: run.rootBranchId },
          );
          const events = await store.list(run.id, run.rootBranchId);
          const checkpoints = events.filter((e) => e.type === "checkpoint");
          expect(checkpoints.length).toBeGreaterThan(0);
          for (const checkpoint of checkpoints) {
            if (checkpoint.type !== "checkpoint") continue;
            expect(digestState(foldRun(events.filter((e) => e.seq < checkpoint.seq)))).toBe(checkpoint.data.digest);
          }
          // Every step that used a model points at an earlier model-call-end on the same path.
          const callSeq = new Map(events.flatMap((e) => (e.type === "model-call-end" ? [[e.data.callId, e.seq] as const] : [])));
          for (const e of events) {
            if ((e.type === "step-thought" || e.type === "step-action" || e.type === "reflection-end") && e.data.callId !== null) {
              expect(callSeq.get(e.data.callId)).toBeLessThan(e.seq);
            }
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
