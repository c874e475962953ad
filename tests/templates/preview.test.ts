import { afterEach, describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/domain/events";
import type { ServerContext } from "@/lib/server/app-context";
import { callsOf, demoContext, settled } from "./helpers";

let context: ServerContext | null = null;
afterEach(async () => {
  await context?.workers.stop();
  context = null;
});

describe("template preview", () => {
  it("equals the messages the engine recorded for the same trial and step, for the version the run used", async () => {
    context = demoContext().context;
    const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo", maxTrials: 3 });
    const events = await settled(context, run.id);
    const config = (events[0] as Extract<RunEvent, { type: "run-start" }>).data.config;
    const calls = callsOf(events);
    const actorCalls = calls.filter((call) => call.data.role === "actor");
    const reflectorCalls = calls.filter((call) => call.data.role === "reflector");
    // The demo model fails trial 1 and reflects, so trial 2's prompts carry the memory.
    expect(reflectorCalls.length).toBeGreaterThan(0);
    const laterActor = actorCalls.filter((call) => call.data.trial >= 2 && (call.data.step ?? 0) >= 2);
    expect(laterActor.length).toBeGreaterThan(0);
    let compared = 0;
    for (const call of [actorCalls[0]!, ...laterActor.slice(0, 2)]) {
      const preview = await context.templateWorkbench.preview({ versionId: config.templates.actor.versionId!, role: "actor", runId: run.id, trial: call.data.trial, step: call.data.step! });
      expect(preview.messages, `actor trial ${call.data.trial} step ${call.data.step}`).toEqual(call.data.messages);
      expect(preview.promptTokens).toBe(call.data.contextUse?.promptTokens);
      compared += 1;
    }
    for (const call of reflectorCalls) {
      const preview = await context.templateWorkbench.preview({ versionId: config.templates.reflector.versionId!, role: "reflector", runId: run.id, trial: call.data.trial });
      expect(preview.messages, `reflector trial ${call.data.trial}`).toEqual(call.data.messages);
      compared += 1;
    }
    expect(compared).toBeGreaterThanOrEqual(4);
  });

  it("renders unsaved text with the trial's real inputs and names placeholders the engine does not fill", async () => {
    context = demoContext().context;
    const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo", maxTrials: 2 });
    const events = await settled(context, run.id);
    const feedback = events.find((event): event is Extract<RunEvent, { type: "evaluation-end" }> => event.type === "evaluation-end")!.data.feedback;
    const preview = await context.templateWorkbench.preview({ text: "Q: {question}\nF: {feedback}\n{colour} {feedbak}", role: "reflector", runId: run.id, trial: 1 });
    const content = preview.messages[0]!.content;
    expect(content).toContain(`F: ${feedback}`);
    expect(content).toContain("{colour} {feedbak}");
    expect(content).not.toContain("{question}");
    expect(preview.unknownPlaceholders).toEqual(["colour", "feedbak"]);
    expect(preview.variables).toEqual(expect.arrayContaining(["feedback", "question", "scratchpad", "reflectionExamples"]));
    await expect(context.templateWorkbench.preview({ text: "x", role: "reflector", runId: run.id, trial: 9 })).rejects.toThrow(/Trial 9 has not ended/);
    await expect(context.templateWorkbench.preview({ text: "x", role: "actor", runId: run.id, trial: 9 })).rejects.toThrow(/Trial 9 has not started/);
  });
});
