import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { TREE_ROOT_ID } from "@/lib/domain/tree-search";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext } from "@/lib/server/app-context";
import { queuedMockModel } from "../helpers/mock-model";
import { valueReply } from "../conformance/conformance-suite";

/** A server context over an in-memory store whose every call goes to `model`. */
function contextOver(model: ReturnType<typeof queuedMockModel>) {
  return createServerContext({ store: new MemoryRunStore(), env: { OPENAI_API_KEY: "sk-test-not-a-key" }, model: createModelPort({ resolveModel: () => model, maxRetries: 0 }) });
}

async function latsRun(replies: Array<string | Error>, request: { maxTrials?: number; maxStepsPerTrial?: number; lats?: { children?: number; exploration?: number } } = {}) {
  const model = queuedMockModel(replies);
  const context = contextOver(model);
  const run = await context.service.createRun({
    environment: "qa",
    taskSet: "builtin",
    taskId: "qa-builtin-01",
    strategy: "lats",
    modelId: "openai:lats-mock",
    maxTrials: request.maxTrials ?? 3,
    maxStepsPerTrial: request.maxStepsPerTrial ?? 4,
    lats: request.lats ?? { children: 2 },
  });
  await context.workers.untilSettled(run.rootBranchId);
  const events = async (): Promise<RunEvent[]> => (await context.service.events(run.id)).events;
  return { model, context, run, events, state: foldRun(await events()) };
}

const SEARCH_DUNMERE = " The opera was staged in Dunmere; look it up.\nAction 1: Search[Dunmere]";
const FINISH_DUNMERE = " The opera was staged in Dunmere.\nAction 1: Finish[Dunmere]";
const REFLECTION = "I answered with the town; the question asks for the river through it. Next time search Dunmere and answer with its river.";

describe("LATS on the engine", () => {
  it("records selection, expansion, values, the followed path, the rollout and the backpropagation of every iteration", async () => {
    const { state, events, model } = await latsRun([
      // Trial 1: two samples at the root, valued 9 and 2; the first (a wrong answer) is followed and fails.
      FINISH_DUNMERE,
      SEARCH_DUNMERE,
      valueReply(9),
      valueReply(2),
      REFLECTION,
      // Trial 2: the Search child (unvisited, estimate 0.2 > the failed child's 0) is expanded: two identical samples make one child.
      " Dunmere lies on the River Sallow.\nAction 2: Finish[River Sallow]",
      " Dunmere lies on the River Sallow.\nAction 2: Finish[River Sallow]",
      valueReply(8),
    ]);
    expect(state.outcome).toBe("success");
    expect(model.doStreamCalls).toHaveLength(8);
    const types = (await events()).map((event) => event.type).filter((type) => type.startsWith("tree-") || type === "trial-end" || type === "reflection-end");
    expect(types).toEqual([
      "tree-select", "tree-node", "tree-node", "tree-value", "tree-value", "tree-follow", "trial-end", "tree-backprop", "reflection-end",
      "tree-select", "tree-node", "tree-value", "tree-follow", "trial-end", "tree-backprop",
    ]);
    const tree = state.tree!;
    expect(tree.order).toEqual([TREE_ROOT_ID, "t1.e1", "t1.e2", "t2.e1"]);
    expect(tree.iterations.map((it) => it.selected)).toEqual([[TREE_ROOT_ID], [TREE_ROOT_ID, "t1.e2"]]);
    expect(tree.iterations.map((it) => it.path)).toEqual([[TREE_ROOT_ID, "t1.e1"], [TREE_ROOT_ID, "t1.e2", "t2.e1"]]);
    expect(tree.iterations.map((it) => it.reward)).toEqual([0, 1]);
    // Visits and values after two backpropagations: the root saw both (rewards 0 and 1).
    expect(tree.nodes.get(TREE_ROOT_ID)).toMatchObject({ visits: 2, value: 0.5 });
    expect(tree.nodes.get("t1.e1")).toMatchObject({ visits: 1, value: 0, estimate: 0.9, terminal: { outcome: "failure", trial: 1, answer: "Dunmere" }, reflection: { trial: 1, text: REFLECTION } });
    expect(tree.nodes.get("t1.e2")).toMatchObject({ visits: 1, value: 1, estimate: 0.2, terminal: null });
    expect(tree.nodes.get("t2.e1")).toMatchObject({ visits: 1, value: 1, depth: 2, terminal: { outcome: "success", answer: "River Sallow" } });
    // Each trial's trajectory is its path: trial 2 carries the Search step from trial 1's expansion.
    expect(state.trials[1]!.steps.map((step) => [step.step, step.action?.text, step.treeNode])).toEqual([
      [1, "Search[Dunmere]", "t1.e2"],
      [2, "Finish[River Sallow]", "t2.e1"],
    ]);
    // The expansion of trial 2 saw the reflection and the path's observation.
    const expansion = JSON.stringify(model.doStreamCalls[5]!.prompt);
    expect(expansion).toContain("Next time search Dunmere");
    expect(expansion).toContain("Search[Dunmere]");
  });

  it("samples the n children as distinct requests (their seeds) at the sampling temperature", async () => {
    const { model } = await latsRun([FINISH_DUNMERE, SEARCH_DUNMERE, valueReply(9), valueReply(2), REFLECTION, FINISH_DUNMERE, FINISH_DUNMERE, valueReply(1)], { maxTrials: 2 });
    const [first, second] = model.doStreamCalls;
    expect(first!.temperature).toBe(1);
    expect(first!.seed).not.toBe(second!.seed);
  });

  it("rolls out with plain Actor steps from the followed child and adds them to the tree", async () => {
    const { state } = await latsRun(
      [SEARCH_DUNMERE, valueReply(6), " Dunmere lies on the River Sallow.\nAction 2: Finish[River Sallow]"],
      { lats: { children: 1 } },
    );
    expect(state.outcome).toBe("success");
    const tree = state.tree!;
    expect(tree.order).toEqual([TREE_ROOT_ID, "t1.e1", "t1.s2"]);
    expect(tree.nodes.get("t1.s2")).toMatchObject({ origin: "rollout", parent: "t1.e1", done: true, answer: "River Sallow", visits: 1, value: 1 });
  });

  it("ends the run when the tree is exhausted, without a reflection nothing would read", async () => {
    const { state, model } = await latsRun([FINISH_DUNMERE, valueReply(5)], { lats: { children: 1 }, maxTrials: 5 });
    expect(model.doStreamCalls).toHaveLength(2);
    expect(state.trials).toHaveLength(1);
    expect(state.trials[0]!.reflection).toBeNull();
    expect(state.outcome).toBe("failure");
    expect(state.stop).toMatchObject({ reason: "tree-exhausted" });
  });

  it("records a value reply without a score, asked twice, as no estimate with a warning", async () => {
    const { events, state } = await latsRun([SEARCH_DUNMERE, "It looks fine.", "Still fine, no number.", " Dunmere lies on the River Sallow.\nAction 2: Finish[River Sallow]"], { lats: { children: 1 } });
    const value = (await events()).find((event) => event.type === "tree-value");
    expect(value?.data).toMatchObject({ node: "t1.e1", value: null, warning: expect.stringMatching(/asked twice/) });
    expect(state.tree!.nodes.get("t1.e1")!.estimate).toBeNull();
    expect(state.outcome).toBe("success");
  });

  it("pauses on a provider error in the middle of an expansion, records none of it, and resumes to the same tree", async () => {
    const outage = Object.assign(new Error("Service Unavailable"), { statusCode: 503 });
    const { context, run, events, model } = await latsRun([FINISH_DUNMERE, outage, FINISH_DUNMERE, SEARCH_DUNMERE, valueReply(9), valueReply(2), REFLECTION, " Dunmere lies on the River Sallow.\nAction 2: Finish[River Sallow]", " Dunmere lies on the River Sallow.\nAction 2: Finish[River Sallow]", valueReply(8)]);
    let state = foldRun(await events());
    expect(state.status).toBe("paused");
    expect(state.tree!.order).toEqual([TREE_ROOT_ID]);
    await context.service.resume(run.id);
    await context.workers.untilSettled(run.rootBranchId);
    state = foldRun(await events());
    expect(state.outcome).toBe("success");
    expect(state.tree!.order).toEqual([TREE_ROOT_ID, "t1.e1", "t1.e2", "t2.e1"]);
    // The resumed expansion asked both samples again (the first was never recorded).
    expect(model.doStreamCalls).toHaveLength(10);
    expect(state.callErrors).toHaveLength(1);
  });

  it("replays a recorded run with no model call and rebuilds the same tree", async () => {
    const { context, run, events, model, state } = await latsRun([FINISH_DUNMERE, SEARCH_DUNMERE, valueReply(9), valueReply(2), REFLECTION, " Dunmere lies on the River Sallow.\nAction 2: Finish[River Sallow]", " Dunmere lies on the River Sallow.\nAction 2: Finish[River Sallow]", valueReply(8)]);
    const calls = model.doStreamCalls.length;
    const { branchId } = await context.service.fork(run.id, { atSeq: 1, replay: "recorded" });
    await context.workers.untilSettled(branchId);
    const replay = foldRun((await context.service.events(run.id, 0, branchId)).events);
    expect(model.doStreamCalls.length).toBe(calls);
    expect(replay.totals.liveCalls).toBe(0);
    expect([...replay.tree!.nodes.values()].map((node) => [node.id, node.visits, node.value])).toEqual([...state.tree!.nodes.values()].map((node) => [node.id, node.visits, node.value]));
    expect((await events()).length).toBeGreaterThan(0);
  });
});

describe("a fork from a search-tree node", () => {
  it("searches only that node's subtree on the new branch", async () => {
    // Trial 1: root → e1 (Finish, wrong; followed) and e2 (Search). Trial 2 expands e2 and fails too; trial 3 would go on.
    const { context, run, events, model } = await latsRun(
      [FINISH_DUNMERE, SEARCH_DUNMERE, valueReply(9), valueReply(2), REFLECTION, " Dunmere is a town.\nAction 2: Finish[Dunmere town]", " Dunmere is a town.\nAction 2: Finish[Dunmere town]", valueReply(3), REFLECTION, " Try again.\nAction 3: Finish[nothing]", valueReply(1)],
      { maxTrials: 3, lats: { children: 2 } },
    );
    const log = await events();
    // The checkpoint after trial 1's reflection: trial 2 has not started yet.
    const trial2 = log.find((event) => event.type === "trial-start" && event.data.trial === 2)!;
    const checkpoint = log.filter((event) => event.type === "checkpoint" && event.seq < trial2.seq).at(-1)!;
    const before = model.doStreamCalls.length;
    // Focus on e1 (a judged wrong answer): its subtree has nothing open, so the branch ends at once.
    const closed = await context.service.fork(run.id, { atSeq: checkpoint.seq, replay: "live", edits: [{ kind: "tree-focus", node: "t1.e1" }] });
    await context.workers.untilSettled(closed.branchId);
    const closedState = foldRun((await context.service.events(run.id, 0, closed.branchId)).events);
    expect(closedState.stop).toMatchObject({ reason: "tree-exhausted" });
    expect(model.doStreamCalls.length).toBe(before);

    // An unknown node is refused with the nodes there are.
    await expect(context.service.fork(run.id, { atSeq: checkpoint.seq, replay: "live", edits: [{ kind: "tree-focus", node: "t9.e9" }] })).rejects.toThrow(/No search-tree node "t9.e9".*root, t1\.e1, t1\.e2/);
  });

  it("keeps every new node of the branch under the focused node", async () => {
    const model = queuedMockModel([
      SEARCH_DUNMERE, " Maybe the opera.\nAction 1: Search[The Glass Orchard]", valueReply(9), valueReply(8),
      " Dunmere.\nAction 2: Finish[Dunmere]", REFLECTION,
      // On the fork (focus t1.e2): expansion of t1.e2, value, answer.
      " Dunmere lies on the River Sallow.\nAction 2: Finish[River Sallow]", " Dunmere lies on the River Sallow.\nAction 2: Finish[River Sallow]", valueReply(8),
    ]);
    const context = contextOver(model);
    const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "lats", modelId: "openai:lats-mock", maxTrials: 3, maxStepsPerTrial: 4, lats: { children: 2 } });
    // Pause after trial 1's reflection, then fork from there with the focus.
    await context.service.setBreakpoints(run.id, { afterReflection: true });
    await context.workers.untilSettled(run.rootBranchId);
    const log = (await context.service.events(run.id)).events;
    const checkpoint = log.filter((event) => event.type === "checkpoint").at(-1)!;
    const { branchId } = await context.service.fork(run.id, { atSeq: checkpoint.seq, replay: "live", edits: [{ kind: "tree-focus", node: "t1.e2" }] });
    await context.workers.untilSettled(branchId);
    const fork = foldRun((await context.service.events(run.id, 0, branchId)).events);
    const tree = fork.tree!;
    expect(tree.focus).toBe("t1.e2");
    const created = tree.order.filter((id) => tree.nodes.get(id)!.iteration >= 2);
    expect(created.length).toBeGreaterThan(0);
    for (const id of created) expect(pathToRoot(tree, id)).toContain("t1.e2");
    expect(tree.iterations.find((it) => it.trial === 2)!.selected).toEqual([TREE_ROOT_ID, "t1.e2"]);
  });
});

function pathToRoot(tree: NonNullable<ReturnType<typeof foldRun>["tree"]>, id: string): string[] {
  const out: string[] = [];
  for (let node = tree.nodes.get(id); node; node = node.parent === null ? undefined : tree.nodes.get(node.parent)) out.push(node.id);
  return out;
}

describe("the value template's preview", () => {
  it("renders the value prompt over a trial's trajectory with the reflections it started with", async () => {
    const { events } = await latsRun([FINISH_DUNMERE, SEARCH_DUNMERE, valueReply(9), valueReply(2), REFLECTION, " Dunmere lies on the River Sallow.\nAction 2: Finish[River Sallow]", " Dunmere lies on the River Sallow.\nAction 2: Finish[River Sallow]", valueReply(8)]);
    const { previewPrompt } = await import("@/lib/server/template-preview");
    const preview = previewPrompt(await events(), { role: "value", trial: 2, text: "Judge it.\n{reflections}\nTask: {task}\nSo far:{trajectory}\nThus the correctness score is" });
    const text = preview.messages.map((message) => message.content).join("\n");
    expect(text).toContain("Search[Dunmere]");
    expect(text).toContain("Finish[River Sallow]");
    expect(text).toContain(REFLECTION);
    expect(preview.unknownPlaceholders).toEqual([]);
  });
});
