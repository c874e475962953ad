import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { abReadoutLines } from "@/lib/cli/ab-readout";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { MemoryTemplateStore } from "@/lib/db/memory-templates";
import { builtinQaTasks } from "@/lib/environments/qa";
import { qaReflectorTemplate } from "@/lib/environments/qa/prompts";
import { createModelPort } from "@/lib/llm/model-port";
import { isAbExperiment } from "@/lib/query/template-ab";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { flattenMessages, startFakeOpenAIServer, type FakeOpenAIServer } from "../helpers/fake-openai-server";

const TASKS = ["qa-builtin-01", "qa-builtin-02", "qa-builtin-03"];
const answers = new Map(builtinQaTasks.map((task) => [String(task.question), String(task.answer)]));

/**
 * A scripted provider: a Self-Reflection reply names the marker it was prompted with;
 * the Actor answers right only once its memory holds a reflection written under MARKER-B,
 * so arm B solves every task at trial 2 and arm A none.
 */
let lessons = 0;
function respond(prompt: string): string {
  const end = prompt.trimEnd();
  lessons += 1;
  if (end.endsWith("Reflection:")) return prompt.includes("MARKER-B") ? `Lesson ${lessons} written under marker-b: look up the second entity.` : `Lesson ${lessons} written under marker-a: think longer.`;
  const step = /Thought (\d+):$/.exec(end)?.[1] ?? "1";
  const question = [...answers.keys()].find((q) => prompt.includes(q));
  const answer = question && prompt.includes("under marker-b") ? answers.get(question)! : "nothing";
  return ` I answer now.\nAction ${step}: Finish[${answer}]`;
}

let server: FakeOpenAIServer;
let context: ServerContext;

beforeAll(async () => {
  server = await startFakeOpenAIServer({ respond: (messages) => respond(flattenMessages(messages)) });
  const env = { OPENAI_COMPATIBLE_BASE_URL: server.baseUrl };
  context = createServerContext({ store: new MemoryRunStore(), templates: new MemoryTemplateStore(), env, model: createModelPort({ env, maxRetries: 0 }), workers: { pollMs: 10 } });
});
afterAll(async () => {
  await context.workers.stop();
  await server.close();
});

describe("A/B: two reflector versions", () => {
  it("each version's marker reaches only its own arm's Self-Reflection calls; the read-out lists the differing tasks with a paired test", async () => {
    const a = await context.templates.saveVersion("qa/reflect", { text: `MARKER-A\n${qaReflectorTemplate.text}`, message: "A" });
    const b = await context.templates.saveVersion("qa/reflect", { text: `MARKER-B\n${qaReflectorTemplate.text}`, message: "B" });
    await context.templates.moveLabel("qa/reflect", "candidate", b.version.id);
    const { experimentId } = await context.templateWorkbench.startAb({
      family: "qa",
      role: "reflector",
      versionA: a.version.id,
      versionB: "qa/reflect@candidate",
      taskSet: "builtin",
      taskIds: TASKS,
      modelId: "compatible:fake-model",
      maxTrials: 3,
    });
    const runIds = await context.experiments.runIds(experimentId);
    expect(runIds).toHaveLength(TASKS.length * 2);
    for (const runId of runIds) await context.workers.untilSettled((await context.service.getRun(runId)).rootBranchId);

    // What reached the provider: reflection prompts carry exactly one marker; Actor prompts none.
    const prompts = server.chatRequests().map((request) => flattenMessages((request.body?.messages ?? []) as never));
    const reflectionPrompts = prompts.filter((prompt) => prompt.trimEnd().endsWith("Reflection:"));
    // Arm A fails every trial and reflects after each one but the last; arm B reflects once per task.
    expect(reflectionPrompts.length).toBeGreaterThanOrEqual(TASKS.length * 2);
    for (const prompt of reflectionPrompts) expect(Number(prompt.includes("MARKER-A")) + Number(prompt.includes("MARKER-B"))).toBe(1);
    for (const prompt of prompts.filter((p) => !p.trimEnd().endsWith("Reflection:"))) expect(prompt).not.toMatch(/MARKER-[AB]/);
    // …and per arm, from the recorded calls: arm A's only MARKER-A, arm B's only MARKER-B.
    const links = await context.store.experiments.listExperimentRuns(experimentId);
    for (const link of links) {
      const calls = (await context.service.events(link.runId)).events.filter((event) => event.type === "model-call-end" && event.data.role === "reflector");
      expect(calls.length).toBeGreaterThan(0);
      for (const call of calls) {
        const text = call.type === "model-call-end" ? call.data.messages[0]!.content : "";
        expect(text).toContain(link.arm === "A" ? "MARKER-A" : "MARKER-B");
        expect(text).not.toContain(link.arm === "A" ? "MARKER-B" : "MARKER-A");
      }
    }

    const summary = await context.experiments.summary(experimentId);
    expect(summary.arms.map((arm) => [arm.label, arm.successByTrial])).toEqual([
      ["A", [0, 0, 0]],
      ["B", [0, TASKS.length, TASKS.length]],
    ]);
    // The results page asks for the read-out only of an A/B experiment, and this is one.
    expect(isAbExperiment(summary.experiment)).toBe(true);
    const result = await context.templateWorkbench.abResult(experimentId);
    expect(result).toMatchObject({ role: "reflector", armA: { label: "A", versionId: a.version.id }, armB: { label: "B", versionId: b.version.id } });
    expect(result.pairedTest).toMatchObject({ n: 3, aOnly: 0, bOnly: 3, pValue: 0.25 });
    expect(result.differingTasks.map((task) => task.taskId)).toEqual(TASKS);
    for (const task of result.differingTasks) {
      expect(task.a.solvedAtTrial).toBeNull();
      expect(task.a.reflections.length).toBeGreaterThanOrEqual(1);
      for (const text of task.a.reflections) expect(text).toMatch(/^Lesson \d+ written under marker-a/);
      expect(task.b.solvedAtTrial).toBe(2);
      expect(task.b.reflections).toEqual([expect.stringMatching(/^Lesson \d+ written under marker-b/)]);
    }
    // `cli templates ab` prints both arms' reflections per differing task, as the results page shows them.
    const printed = abReadoutLines(result).join("\n");
    for (const task of result.differingTasks) {
      const block = printed.slice(printed.indexOf(`  ${task.taskId}:`));
      expect(block).toMatch(new RegExp(`^  ${task.taskId}: A unsolved, B solved at trial 2\n    A reflections \\(run ${task.a.runId}\\):\n      after trial 1: Lesson \\d+ written under marker-a`));
      expect(block).toContain(`    B reflections (run ${task.b.runId}):\n      after trial 1: ${task.b.reflections[0]}`);
    }
    // Any other experiment is no A/B one.
    const plain = await context.experiments.start({ name: "plain", environment: "qa", taskSet: "builtin", taskIds: ["qa-builtin-01"], arms: [{ label: "x", strategy: "none", modelId: "compatible:fake-model" }], maxTrials: 1 }, { start: false });
    await expect(context.templateWorkbench.abResult(plain.id)).rejects.toThrow(/not a template comparison/);
    // …so its results page never asks for it (no 404 in the console).
    expect(isAbExperiment((await context.experiments.summary(plain.id)).experiment)).toBe(false);
    // Two arms that differ in more than the template version are no A/B one either.
    const differentModels = await context.experiments.start(
      {
        name: "two models",
        environment: "qa",
        taskSet: "builtin",
        taskIds: ["qa-builtin-01"],
        arms: [
          { label: "x", strategy: "reflexion", modelId: "compatible:fake-model", templateVersions: { reflector: a.version.id } },
          { label: "y", strategy: "reflexion", modelId: "demo", templateVersions: { reflector: b.version.id } },
        ],
        maxTrials: 1,
      },
      { start: false },
    );
    expect(isAbExperiment(differentModels)).toBe(false);
    await expect(context.templateWorkbench.abResult(differentModels.id)).rejects.toThrow(/not a template comparison/);
    await expect(context.templateWorkbench.startAb({ family: "qa", role: "reflector", versionA: a.version.id, versionB: a.version.id, taskSet: "builtin", modelId: "demo" })).rejects.toThrow(/same version/);
  });
});
