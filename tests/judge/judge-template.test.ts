import { describe, expect, it } from "vitest";
import { runConfigSchema } from "@/lib/domain/config";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { driveRun } from "@/lib/engine/run-engine";
import { builtinOpenTasks, openDemoScriptBook, openEnvironment, openJudgeTemplate } from "@/lib/environments/open";
import { createModelPort } from "@/lib/llm/model-port";
import { previewPrompt } from "@/lib/server/template-preview";
import { builtInSeeds } from "@/lib/server/template-seeds";

/** The judge template in the library (role `evaluator`) and its preview, which equals the judge's recorded prompt. */
describe("judge template", () => {
  it("is seeded as a built-in of the open family with role evaluator", () => {
    const seed = builtInSeeds().find((s) => s.template.id === "open/judge");
    expect(seed).toMatchObject({ template: { family: "open", role: "evaluator", builtIn: true, name: "Open tasks Judge" }, text: openJudgeTemplate.text });
    // No other family gets a judge template.
    expect(builtInSeeds().filter((s) => s.template.role === "evaluator").map((s) => s.template.family)).toEqual(["open"]);
  });

  it("the preview of the run's own judge template equals the recorded judge prompt; an edited one shows the edit", async () => {
    const task = builtinOpenTasks[0]!;
    const store = new MemoryRunStore();
    const config = runConfigSchema.parse({
      environment: "open", taskSetName: "builtin", taskId: task.id, task, strategy: "reflexion", maxTrials: 2, maxStepsPerTrial: 2,
      models: { actor: { modelId: "demo", maxOutputTokens: 512 }, reflector: { modelId: "demo" } },
      templates: openEnvironment.defaultTemplates,
    });
    const run = await store.createRun({ config, title: task.id });
    await driveRun({ log: store, model: createModelPort({ demoScriptBooks: [openDemoScriptBook], maxRetries: 0 }), environmentFor: () => openEnvironment }, { runId: run.id, branchId: run.rootBranchId });
    const events = await store.list(run.id, run.rootBranchId);
    const state = foldRun(events);
    for (const trial of [1, 2]) {
      const recorded = Object.values(state.calls).find((c) => c.role === "evaluator" && c.trial === trial)!;
      const preview = previewPrompt(events, { text: openJudgeTemplate.text, role: "evaluator", trial });
      expect(preview.messages).toEqual(recorded.messages);
      expect(preview.unknownPlaceholders).toEqual([]);
    }
    const edited = previewPrompt(events, { text: `Be lenient. {criteria} {answr}`, role: "evaluator", trial: 1 });
    expect(edited.messages[0]!.content).toContain("Be lenient. - accuracy (weight 3)");
    expect(edited.unknownPlaceholders).toEqual(["answr"]);
  });
});
