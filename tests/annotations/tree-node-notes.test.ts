import { afterEach, describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { foldRun } from "@/lib/domain/fold-run";
import { qaDemoScriptBook } from "@/lib/environments/qa";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { demoMockModel } from "../helpers/mock-model";

const contexts: ServerContext[] = [];
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

describe("notes on a LATS search tree's nodes", () => {
  it("every expanded or rollout node names the event that drew it, and a note on it is a tree-node (or observation) note", async () => {
    const mock = demoMockModel([qaDemoScriptBook]);
    const context = createServerContext({ store: new MemoryRunStore(), model: createModelPort({ resolveModel: () => mock, maxRetries: 0 }) });
    contexts.push(context);
    const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "lats", modelId: "demo" });
    await context.workers.untilSettled(run.rootBranchId);
    const events = (await context.service.events(run.id)).events;
    const tree = foldRun(events).tree;
    expect(tree).not.toBeNull();
    const nodes = [...tree!.nodes.values()];
    expect(nodes.filter((node) => node.origin === "root").every((node) => node.eventId === undefined)).toBe(true);
    const byId = new Map<string, (typeof events)[number]>(events.map((event) => [event.id, event]));
    for (const node of nodes.filter((entry) => entry.origin !== "root")) {
      const drawn = byId.get(node.eventId ?? "");
      expect(drawn?.type).toBe(node.origin === "expansion" ? "tree-node" : "step-observation");
    }

    const expansion = nodes.find((node) => node.origin === "expansion")!;
    const created = await context.annotations.create(run.id, { author: "ada", content: { text: "a promising child", tags: ["good-branch"], score: null }, target: { branchId: run.rootBranchId, eventId: expansion.eventId!, kind: "tree-node", trial: null, step: null, seq: null } });
    expect(created.target).toMatchObject({ kind: "tree-node", eventId: expansion.eventId, trial: expansion.iteration });
    expect((await context.annotations.list(run.id)).map((note) => note.id)).toEqual([created.id]);
  });
});
