import { afterAll, describe, expect, it } from "vitest";
import { runEventSchema, type RunEvent } from "@/lib/domain/events";
import { foldRun, type RunState } from "@/lib/domain/fold-run";
import { createReplayFolder } from "@/lib/domain/replay-fold";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { codeDemoScriptBook } from "@/lib/environments/code/demo-script";
import { householdDemoScriptBook } from "@/lib/environments/household/demo-script";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { stressFamilies, stressRunEvents } from "@/lib/graph/stress-run";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { demoMockModel } from "../helpers/mock-model";

/**
 * The replay folder's state at any cursor equals a fold from zero of the log's prefix
 * (decision 0042): visited in a scrambled order (the replay bar jumping back and forth), with
 * small checkpoint spacings so many checkpoints and tails are crossed, and every state handed
 * out stays what it was after later moves (the folder never mutates a state it returned).
 */

/** A fixed scramble of 0…n (every position once). */
function scrambled(n: number, seed = 11): number[] {
  const order = Array.from({ length: n + 1 }, (_, index) => index);
  let state = seed;
  for (let index = order.length - 1; index > 0; index -= 1) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const other = state % (index + 1);
    [order[index], order[other]] = [order[other]!, order[index]!];
  }
  return order;
}

/** A plain copy of a state (its lazy fields read), to compare later. */
function snapshot(state: RunState): RunState {
  return structuredClone({ ...state, requestCounts: { ...state.requestCounts } });
}

function expectEveryCursorEqualsFoldFromZero(log: readonly RunEvent[], every: number): void {
  const folder = createReplayFolder(log, { every });
  const handedOut: Array<{ at: number; state: RunState; copy: RunState }> = [];
  for (const at of scrambled(log.length)) {
    const state = folder.stateAt(at);
    const fresh = foldRun(log.slice(0, at));
    expect(state, `cursor ${at} of ${log.length}`).toEqual(fresh);
    if (at % 7 === 0) handedOut.push({ at, state, copy: snapshot(fresh) });
  }
  for (const { at, state, copy } of handedOut) expect(snapshot(state), `state handed out at cursor ${at}, read again`).toEqual(copy);
  expect(folder.checkpoints).toBe(Math.floor(log.length / every));
}

/** Re-numbers a list of events (and their run ids) into one well-formed log. */
function renumber(events: readonly RunEvent[]): RunEvent[] {
  return events.map((event, index) => runEventSchema.parse({ ...event, seq: index + 1 }));
}

describe("replay folder: the state at any cursor equals a fold from zero", () => {
  it.each(stressFamilies())("a synthetic %s run (12 trials), checkpoints every 37 events", (family) => {
    const log = stressRunEvents({ trials: 12, family, seed: 3 });
    expect(log.length).toBeGreaterThan(150);
    expectEveryCursorEqualsFoldFromZero(log, 37);
  });

  it("a log with people's edits (a reflection rewritten, memory replaced, a pause and resume) between checkpoints", () => {
    const base = stressRunEvents({ trials: 8, family: stressFamilies()[0]!, seed: 5 });
    const reflection = base.find((event) => event.type === "reflection-end")!;
    const at = base.findIndex((event) => event === reflection) + 1;
    const envelope = { runId: reflection.runId, branchId: reflection.branchId, schemaVersion: 1, occurredAt: reflection.occurredAt, causedBy: null };
    const extra = [
      { ...envelope, id: "edit-1", seq: 1, type: "run-pause", data: { reason: "user", detail: "teacher" } },
      { ...envelope, id: "edit-2", seq: 1, type: "reflection-edit", data: { reflectionEventId: reflection.id, oldText: "x", newText: "A rewritten lesson.", note: null } },
      { ...envelope, id: "edit-3", seq: 1, type: "memory-edit", data: { oldMemory: [], newMemory: [{ id: reflection.id, text: "A rewritten lesson.", trial: 1 }], note: "tidy" } },
      { ...envelope, id: "edit-4", seq: 1, type: "run-resume", data: { reason: "user", step: false } },
    ].map((event) => runEventSchema.parse(event));
    // A second rewrite much later, of the same old reflection: a checkpoint's trial must not be changed by it.
    const late = runEventSchema.parse({ ...envelope, id: "edit-5", seq: 1, type: "reflection-edit", data: { reflectionEventId: reflection.id, oldText: "A rewritten lesson.", newText: "Rewritten again.", note: null } });
    const log = renumber([...base.slice(0, at), ...extra, ...base.slice(at, -1), late, base.at(-1)!]);
    expectEveryCursorEqualsFoldFromZero(log, 29);
  });
});

const contexts: ServerContext[] = [];
afterAll(async () => {
  for (const context of contexts) await context.workers.stop();
});

describe("replay folder: structural sharing", () => {
  it("a move shares the trials the tail does not touch with its checkpoint and with other moves, and copies the ones it does", () => {
    const log = stressRunEvents({ trials: 30, family: stressFamilies()[0]!, seed: 7 });
    const every = 50;
    const folder = createReplayFolder(log, { every });
    const end = folder.stateAt(log.length);
    const late = folder.stateAt(log.length - 3);
    const middle = folder.stateAt(Math.floor(log.length / 2));
    // The first trial ended long before both cursors: one object in all three states.
    expect(late.trials[0]).toBe(end.trials[0]);
    expect(middle.trials[0]).toBe(end.trials[0]);
    // The last trial is still being written at the end: each state has its own copy, equal where the logs agree.
    const lastTrial = end.trials.at(-1)!;
    expect(late.trials.at(-1)).not.toBe(lastTrial);
    expect(late.trials.at(-1)!.trial).toBe(lastTrial.trial);
    // Every trial that no event from the end's checkpoint on names is shared.
    const tailStart = Math.floor(log.length / every) * every;
    const named = new Set(log.slice(tailStart).map((event) => (event.data as { trial?: unknown }).trial));
    const shared = end.trials.filter((view, index) => view === late.trials[index]);
    expect(shared.length).toBeGreaterThanOrEqual(end.trials.filter((view) => !named.has(view.trial)).length);
    expect(shared.length).toBeGreaterThan(end.trials.length - 4);
  });
});

describe("replay folder over demo runs through the real service", () => {
  it.each([
    ["household", "household-builtin-01", "reflexion", false],
    ["qa", "qa-builtin-01", "lats", true],
  ] as const)("%s (%s) with %s", async (environment, taskId, strategy, searchTree) => {
    const mock = demoMockModel([qaDemoScriptBook, householdDemoScriptBook, codeDemoScriptBook]);
    const context = createServerContext({ store: new MemoryRunStore(), model: createModelPort({ resolveModel: () => mock, maxRetries: 0 }), startWorkers: false });
    contexts.push(context);
    const run = await context.service.createRun({ environment, taskSet: "builtin", taskId, strategy, modelId: "demo" });
    context.workers.start();
    await context.workers.untilSettled(run.rootBranchId);
    const log = (await context.service.events(run.id)).events;
    // The LATS run's search tree is folded too (and copied at each checkpoint).
    if (searchTree) expect(foldRun(log).tree?.nodes.size ?? 0).toBeGreaterThan(1);
    expectEveryCursorEqualsFoldFromZero(log, 5);
  });
});
