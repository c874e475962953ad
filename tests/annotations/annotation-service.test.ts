import { afterEach, describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { runAs, runAsPrincipal } from "@/lib/actors/actor-context";
import { isAppError } from "@/lib/domain/errors";
import type { RunEvent } from "@/lib/domain/events";
import { qaDemoScriptBook } from "@/lib/environments/qa";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { demoMockModel } from "../helpers/mock-model";

const contexts: ServerContext[] = [];
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

/** A finished demo QA run (two trials: a failure, a reflection, a success) on an in-memory store. */
async function finishedRun() {
  const mock = demoMockModel([qaDemoScriptBook]);
  const context = createServerContext({ store: new MemoryRunStore(), model: createModelPort({ resolveModel: () => mock, maxRetries: 0 }), now: () => new Date("2026-12-05T12:00:00.000Z") });
  contexts.push(context);
  const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo" });
  await context.workers.untilSettled(run.rootBranchId);
  const events = (await context.service.events(run.id)).events;
  return { context, run, events };
}

const find = (events: RunEvent[], type: RunEvent["type"], after = 0) => {
  const found = events.find((event) => event.type === type && event.seq > after);
  if (!found) throw new Error(`the run has no ${type} after seq ${after}`);
  return found;
};

const note = (text: string, overrides: Record<string, unknown> = {}) => ({ author: "ada", content: { text, tags: ["loop"], score: { scale: "quality", value: 2 } }, ...overrides });

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(() => null, (error: unknown) => error);
}

describe("AnnotationService", () => {
  it("with sign-in on writes as the signed-in person, whatever author the request names; a typed name stands only without sign-in", async () => {
    const { context, run, events } = await finishedRun();
    const action = find(events, "step-action");
    const target = { branchId: run.rootBranchId, eventId: action.id, kind: "action" as const, trial: null, step: null, seq: null };
    const alice = { kind: "token" as const, id: "tok-1", name: "alice (token laptop)", userId: "u-alice" };
    const created = await runAs(alice, () => context.annotations.create(run.id, { ...note("looped", { author: "mallory" }), target }));
    expect(created.author).toBe("alice");
    const change = { author: "alice", content: { text: "looped twice", tags: [], score: null } };
    const bob = { kind: "person" as const, userId: "u-bob", name: "bob", email: null, tokenId: null };
    const refused = await refusal(runAsPrincipal({ ...bob, role: "runner" }, () => context.annotations.change(run.id, created.id, change)));
    expect(refused).toMatchObject({ code: "forbidden", message: "This note is alice's: only its author or an admin may change or delete it; reply to it instead." });
    const own = await runAs(alice, () => context.annotations.change(run.id, created.id, change));
    expect(own.updatedBy).toBe("alice");
    const byAdmin = await runAsPrincipal({ ...bob, role: "admin" }, () => context.annotations.change(run.id, created.id, { ...change, delete: true, content: undefined }));
    expect(byAdmin).toMatchObject({ deleted: true, updatedBy: "bob" });
    const typed = await runAs({ kind: "local", id: "local", name: "local", userId: "local" }, () => context.annotations.create(run.id, { ...note("x", { author: "grace" }), target }));
    expect(typed.author).toBe("grace");
  });

  it("fills the target's kind, trial, step and seq from the event, whatever the client says", async () => {
    const { context, run, events } = await finishedRun();
    const action = find(events, "step-action");
    const created = await context.annotations.create(run.id, { ...note("searched the wrong entity"), target: { branchId: run.rootBranchId, eventId: action.id, kind: "reflection", trial: 9, step: 9, seq: 999 } });
    expect(created.target).toEqual({ runId: run.id, branchId: run.rootBranchId, eventId: action.id, kind: "action", trial: action.type === "step-action" ? action.data.trial : -1, step: action.type === "step-action" ? action.data.step : -1, seq: action.seq });
    expect(created).toMatchObject({ author: "ada", deleted: false, createdAt: "2026-12-05T12:00:00.000Z", content: { text: "searched the wrong entity", tags: ["loop"], score: { scale: "quality", value: 2 } } });
  });

  it("refuses an unknown node, an event that draws no node, and a branch of another run", async () => {
    const { context, run, events } = await finishedRun();
    const target = { branchId: run.rootBranchId, kind: "action" as const, trial: null, step: null, seq: null };
    expect(isAppError(await refusal(context.annotations.create(run.id, { ...note("x"), target: { ...target, eventId: "no-such-event" } })), "not-found")).toBe(true);
    const call = find(events, "model-call-end");
    const drawsNothing = await refusal(context.annotations.create(run.id, { ...note("x"), target: { ...target, eventId: call.id } }));
    expect(isAppError(drawsNothing, "invalid-input")).toBe(true);
    expect((drawsNothing as Error).message).toContain("model-call-end");
    expect(isAppError(await refusal(context.annotations.list(run.id, "other-branch")), "not-found")).toBe(true);
    expect(isAppError(await refusal(context.annotations.list("no-run")), "not-found")).toBe(true);
  });

  it("annotates a memory item of the branch (a reflection carried into trial 2)", async () => {
    const { context, run, events } = await finishedRun();
    const reflection = find(events, "reflection-end");
    const created = await context.annotations.create(run.id, { ...note("this reflection fixed it"), target: { branchId: run.rootBranchId, eventId: reflection.id, kind: "memory-item", trial: null, step: null, seq: null } });
    expect(created.target).toMatchObject({ kind: "memory-item", eventId: reflection.id, trial: 1, seq: null });
    expect((await context.annotations.list(run.id)).map((a) => a.id)).toEqual([created.id]);
  });

  it("threads replies, keeps edits as history and marks a delete with who made it", async () => {
    const { context, run, events } = await finishedRun();
    const verdict = find(events, "evaluation-end");
    const first = await context.annotations.create(run.id, { ...note("judged fail correctly"), target: { branchId: run.rootBranchId, eventId: verdict.id, kind: "evaluation", trial: null, step: null, seq: null } });
    const reply = await context.annotations.create(run.id, { ...note("agreed", { author: "grace" }), parentId: first.id, target: { branchId: run.rootBranchId, eventId: "ignored-for-a-reply", kind: "run", trial: null, step: null, seq: null } });
    expect(reply).toMatchObject({ parentId: first.id, author: "grace", target: first.target });
    const edited = await context.annotations.change(run.id, first.id, { author: "grace", content: { text: "judged fail, rightly", tags: ["ok"], score: null } });
    expect(edited).toMatchObject({ author: "ada", updatedBy: "grace", content: { text: "judged fail, rightly", tags: ["ok"], score: null } });
    expect(edited.history).toEqual([{ content: first.content, replacedAt: "2026-12-05T12:00:00.000Z", replacedBy: "grace" }]);
    const deleted = await context.annotations.change(run.id, reply.id, { author: "ada", delete: true });
    expect(deleted).toMatchObject({ deleted: true, updatedBy: "ada", content: reply.content });
    expect((await context.annotations.list(run.id)).map((a) => [a.id, a.deleted])).toEqual([
      [first.id, false],
      [reply.id, true],
    ]);
    expect(isAppError(await refusal(context.annotations.change(run.id, reply.id, { author: "ada", delete: true })), "conflict")).toBe(true);
    expect(isAppError(await refusal(context.annotations.change(run.id, "no-such-annotation", { author: "ada", delete: true })), "not-found")).toBe(true);
    expect(isAppError(await refusal(context.annotations.create(run.id, { ...note("x"), parentId: "missing", target: first.target })), "not-found")).toBe(true);
    // Five events in the log: two adds, an edit, a delete; nothing rewritten.
    expect((await context.annotations.store.listForRun(run.id)).map((e) => e.type)).toEqual(["annotation-add", "annotation-add", "annotation-edit", "annotation-delete"]);
  });

  it("survives a fork: a note on the shared prefix shows on the fork; a note on the fork's own events does not show on the parent", async () => {
    const { context, run, events } = await finishedRun();
    const reflection = find(events, "reflection-end");
    const checkpoint = find(events, "checkpoint", reflection.seq);
    const prefixAction = find(events, "step-action");
    const afterForkPoint = find(events, "step-action", checkpoint.seq);
    const onPrefix = await context.annotations.create(run.id, { ...note("first search went wrong"), target: { branchId: run.rootBranchId, eventId: prefixAction.id, kind: "action", trial: null, step: null, seq: null } });
    const onParentOnly = await context.annotations.create(run.id, { ...note("parent's trial 2"), target: { branchId: run.rootBranchId, eventId: afterForkPoint.id, kind: "action", trial: null, step: null, seq: null } });

    const { branchId } = await context.service.fork(run.id, { atSeq: checkpoint.seq, replay: "recorded", edits: [{ kind: "reflection", reflectionEventId: reflection.id, text: "Answer with the town's name only." }] });
    await context.workers.untilSettled(branchId);
    const forkEvents = (await context.service.events(run.id, 0, branchId)).events;
    const forkOwnAction = forkEvents.find((event) => event.branchId === branchId && event.type === "step-action");
    if (!forkOwnAction) throw new Error("the fork wrote no action");

    // The fork sees the prefix note (same event id, nothing copied) but not the parent's own trial 2.
    expect((await context.annotations.list(run.id, branchId)).map((a) => a.id)).toEqual([onPrefix.id]);
    const onFork = await context.annotations.create(run.id, { ...note("fork's own step"), target: { branchId, eventId: forkOwnAction.id, kind: "action", trial: null, step: null, seq: null } });
    expect(onFork.target).toMatchObject({ branchId, seq: forkOwnAction.seq });
    const reply = await context.annotations.create(run.id, { ...note("seen from the fork", { author: "grace" }), parentId: onPrefix.id, target: onPrefix.target });

    expect((await context.annotations.list(run.id, branchId)).map((a) => a.id)).toEqual([onPrefix.id, onFork.id, reply.id]);
    expect((await context.annotations.list(run.id)).map((a) => a.id)).toEqual([onPrefix.id, onParentOnly.id, reply.id]);
    // A reply on the fork to a note the fork does not see is refused.
    expect(isAppError(await refusal(context.annotations.create(run.id, { ...note("x"), parentId: onParentOnly.id, target: { ...onPrefix.target, branchId } })), "not-found")).toBe(true);
  });

  it("finds the event at a seq of a branch (cli annotate --seq)", async () => {
    const { context, run, events } = await finishedRun();
    const action = find(events, "step-action");
    expect(await context.annotations.eventAt(run.id, action.seq)).toEqual({ branchId: run.rootBranchId, eventId: action.id, type: "step-action" });
    expect(isAppError(await refusal(context.annotations.eventAt(run.id, 10_000)), "not-found")).toBe(true);
  });
});
