import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/domain/events";
import { demoContext } from "./helpers";

const LOG = path.resolve("../shared/data/reflexion/noahshinn-reflexion/hotpotqa_runs/root/ReAct/reflexion/100_questions_5_trials.txt");
const { context } = demoContext();
afterAll(() => context.workers.stop());

describe("preview on the paper's imported runs", () => {
  it("renders a template with an imported HotpotQA trial's real question, trajectory, feedback and the authors' reflection in memory", async () => {
    await context.imports.importPath(LOG);
    const runs = await context.service.listRuns(200);
    const run = runs.find((candidate) => candidate.trials >= 2)!;
    const events = (await context.service.events(run.id)).events;
    const reflection = events.find((event): event is Extract<RunEvent, { type: "reflection-end" }> => event.type === "reflection-end" && event.data.trial === 1)!;
    const firstAction = events.find((event): event is Extract<RunEvent, { type: "step-action" }> => event.type === "step-action" && event.data.trial === 1)!;
    const feedback = events.find((event): event is Extract<RunEvent, { type: "evaluation-end" }> => event.type === "evaluation-end" && event.data.trial === 1)!.data.feedback;

    const reflector = await context.templateWorkbench.preview({ text: "Q: {question}\n{scratchpad}\nEvaluator: {feedback}\nReflection:", role: "reflector", runId: run.id, trial: 1 });
    const prompt = reflector.messages[0]!.content;
    expect(prompt).toContain(`Q: ${run.title}`);
    expect(prompt).toContain(`Action 1: ${firstAction.data.text}`);
    expect(prompt).toContain(`Evaluator: ${feedback}`);
    expect(reflector.unknownPlaceholders).toEqual([]);

    const actor = await context.templateWorkbench.preview({ text: "{memory}Question: {question}{scratchpad}", role: "actor", runId: run.id, trial: 2, step: 1 });
    expect(actor.messages[0]!.content).toContain(reflection.data.text);
    expect(actor.messages[0]!.content.trimEnd().endsWith("Thought 1:")).toBe(true);
    expect(actor.promptTokens).toBeGreaterThan(0);
  });
});
