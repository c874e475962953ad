import { describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { REFINE_STOP_PHRASE } from "@/lib/domain/self-refine";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { deriveRunGraph } from "@/lib/graph";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext } from "@/lib/server/app-context";
import { queuedMockModel } from "../helpers/mock-model";
import { renderGraphNode } from "../helpers/render-node";

/** A one-trial Self-Refine QA run: Finish[Dunmere], feedback, the refinement "River Sallow", then the stop phrase. */
async function selfRefineRun() {
  const model = queuedMockModel([
    " The opera was staged in Dunmere.\nAction 1: Finish[Dunmere]",
    "The question asks for the river through Dunmere, not the town.",
    "River Sallow",
    `Right. ${REFINE_STOP_PHRASE}`,
  ]);
  const context = createServerContext({ store: new MemoryRunStore(), env: { OPENAI_API_KEY: "sk-test-not-a-key" }, model: createModelPort({ resolveModel: () => model, maxRetries: 0 }) });
  const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "self-refine", modelId: "openai:mock", maxTrials: 1 });
  await context.workers.untilSettled(run.rootBranchId);
  return foldRun((await context.service.events(run.id)).events);
}

describe("Self-Refine rounds in the lanes graph", () => {
  it("draws one node per round in the trial's lane, after the trajectory and before the verdict", async () => {
    const graph = deriveRunGraph(await selfRefineRun());
    const lane = graph.nodes.filter((node) => node.type !== "lane").sort((a, b) => a.position.y - b.position.y);
    const kinds = lane.map((node) => node.type);
    expect(kinds.slice(-3)).toEqual(["refinement", "refinement", "evaluation"]);
    expect(kinds.indexOf("observation")).toBeLessThan(kinds.indexOf("refinement"));
    // The rounds are chained into the lane's flow like its other nodes.
    const [first, second] = lane.filter((node) => node.type === "refinement");
    expect(graph.edges.some((edge) => edge.source === first!.id && edge.target === second!.id)).toBe(true);
  });

  it("shows the feedback and the refined answer, and says when the feedback found nothing left to fix", async () => {
    const graph = deriveRunGraph(await selfRefineRun());
    const [first, second] = graph.nodes.filter((node) => node.type === "refinement");
    const html = renderGraphNode(first!);
    expect(html).toContain("round 1");
    expect(html).toContain("not the town");
    expect(html).toContain("River Sallow");
    expect(renderGraphNode(second!)).toContain("nothing left to fix");
    expect(first!.ariaLabel).toBe("Trial 1, Self-Refine round 1: answer refined");
  });
});
