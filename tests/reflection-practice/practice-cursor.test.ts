import { afterAll, describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { deriveRunGraph } from "@/lib/graph";
import { replayPrefix } from "@/lib/graph/replay-cursor";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { practiceCursor } from "@/components/reflection-practice";
import { demoMockModel } from "../helpers/mock-model";

/**
 * "Write your own reflection before seeing the model's": while the learner writes, the page
 * shows the log just after the trial's evaluation — no Self-Reflection node in the graph, no
 * reflection in the memory panel — and a cursor already before that point stays where it is.
 */

const contexts: ServerContext[] = [];
afterAll(async () => {
  for (const context of contexts) await context.workers.stop();
});

describe("the practice cursor", () => {
  it("hides the model's reflection on the trial (graph and memory) and keeps an earlier cursor", { timeout: 60_000 }, async () => {
    const mock = demoMockModel([qaDemoScriptBook]);
    const context = createServerContext({ store: new MemoryRunStore(), model: createModelPort({ resolveModel: () => mock, maxRetries: 0 }), startWorkers: false });
    contexts.push(context);
    const run = await context.service.createRun({ environment: "qa", taskId: "qa-builtin-01", taskSet: "builtin", strategy: "reflexion", modelId: "demo" });
    context.workers.start();
    await context.workers.untilSettled(run.rootBranchId);
    const log = (await context.service.events(run.id)).events;
    const reflectionText = foldRun(log).trials[0]?.reflection?.text;
    expect(reflectionText).toBeTruthy();

    // Live (no cursor) and at the run's end alike: the cursor moves to just after trial 1's evaluation.
    for (const current of [null, log.length]) {
      const hideAt = practiceCursor(log, 1, current);
      expect(hideAt).not.toBeNull();
      const state = foldRun(replayPrefix(log, hideAt));
      expect(state.trials[0]?.evaluation?.verdict).toBe("fail");
      expect(state.trials[0]?.reflection).toBeNull();
      expect(state.memory).toEqual([]);
      const graph = deriveRunGraph(state);
      expect(graph.nodes.some((node) => node.type === "evaluation")).toBe(true);
      expect(graph.nodes.some((node) => node.type === "reflection")).toBe(false);
      expect(JSON.stringify(graph.nodes)).not.toContain(reflectionText);
    }
    // Already before the reflection: kept.
    expect(practiceCursor(log, 1, 3)).toBe(3);
    // No such trial: unchanged.
    expect(practiceCursor(log, 9, null)).toBeNull();
  });
});
