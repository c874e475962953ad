import { afterEach, describe, expect, it } from "vitest";
import { matchKeyFacts } from "@/lib/domain/key-facts";
import { demoReflectionFor, GENERIC_DEMO_REFLECTION, instructionOf, reflectorDepth } from "@/lib/domain/reflector-wording";
import { builtinHouseholdKeyFacts } from "@/lib/environments/household/builtin-key-facts";
import { householdReflectorTemplate } from "@/lib/environments/household/prompts";
import { builtinQaDemoScripts } from "@/lib/environments/qa/builtin-demo-scripts";
import { builtinQaKeyFacts } from "@/lib/environments/qa/builtin-key-facts";
import { qaCotContextReflectorTemplate, qaCotReflectorTemplate, qaReflectorTemplate } from "@/lib/environments/qa/prompts";
import type { ServerContext } from "@/lib/server/app-context";
import { demoContext } from "../templates/helpers";

/** The QA reflector with its instruction replaced (examples, trial and `Reflection:` kept). */
function qaReflectorAsking(instruction: string): string {
  return `${instruction}\n${qaReflectorTemplate.text.slice(qaReflectorTemplate.text.indexOf("Here are some examples:"))}`;
}
const GENERIC_INSTRUCTION = "You tried to answer a question and failed. Write one general, high-level lesson about answering questions well. Write only the lesson.";
const STEP_INSTRUCTION = "You tried to answer a question and failed. Name the step that went wrong and the next action to take instead. Write only the reflection.";

describe("the demo Self-Reflection follows what the reflector's instruction asks", () => {
  it("a plan or a next action is specific; a general lesson, a negated plan or nothing is generic", () => {
    expect(reflectorDepth("diagnose a possible reason for failure and devise a new, concise, high level plan that aims to mitigate the same failure")).toEqual({ depth: "specific", because: "plan" });
    expect(reflectorDepth(STEP_INSTRUCTION).depth).toBe("specific");
    expect(reflectorDepth("Name the failing step.").depth).toBe("specific");
    expect(reflectorDepth(GENERIC_INSTRUCTION)).toEqual({ depth: "generic", because: null });
    expect(reflectorDepth("Write a lesson. Do not write a plan.").depth).toBe("generic");
    expect(reflectorDepth("").depth).toBe("generic");
    // Whole words only: "planet" or "explanation" ask for no plan.
    expect(reflectorDepth("Explain the planet's orbit.").depth).toBe("generic");
  });

  it("every built-in QA and household reflector asks for a plan, so they keep the scripted reflections", () => {
    for (const template of [qaReflectorTemplate, qaCotReflectorTemplate, qaCotContextReflectorTemplate]) {
      expect(reflectorDepth(instructionOf(template.text, ["Here are some examples:", "Previous trial:"])).depth, template.id).toBe("specific");
    }
    expect(reflectorDepth(instructionOf(householdReflectorTemplate.text, ["Here are two examples", "Previous trial:"])).depth).toBe("specific");
  });

  it("the instruction is cut before the examples and the trial, so the task's own words never decide", () => {
    expect(instructionOf("Write a lesson.\nHere are some examples:\nplan plan\nPrevious trial:\nQuestion: next step?", ["Here are some examples:", "Previous trial:"])).toBe("Write a lesson.\n");
    expect(instructionOf("Write a lesson.", ["Previous trial:"])).toBe("Write a lesson.");
    expect(demoReflectionFor("Write a lesson.", "the specific one")).toBe(GENERIC_DEMO_REFLECTION);
    expect(demoReflectionFor("Write a plan.", "the specific one")).toBe("the specific one");
  });

  it("the generic reflection states no key fact of any built-in QA or household task, so it never helps", () => {
    for (const [id, facts] of Object.entries(builtinQaKeyFacts)) {
      expect(matchKeyFacts(facts.react, GENERIC_DEMO_REFLECTION).matched, id).toEqual([]);
      expect(matchKeyFacts(facts.cot, GENERIC_DEMO_REFLECTION).matched, id).toEqual([]);
    }
    for (const [id, facts] of Object.entries(builtinHouseholdKeyFacts)) expect(matchKeyFacts(facts, GENERIC_DEMO_REFLECTION).matched, id).toEqual([]);
  });
});

let context: ServerContext | null = null;
afterEach(async () => {
  await context?.workers.stop();
  context = null;
});

describe("an A/B of two reflector wordings on the demo shows an effect offline", () => {
  it("the step-and-next-action wording writes the scripted reflections and solves at trial 2; the general-lesson wording writes vague ones and stays unsolved", async () => {
    context = demoContext().context;
    const tasks = ["qa-builtin-01", "qa-builtin-02", "qa-builtin-03", "qa-builtin-04"];
    const specific = await context.templates.saveVersion("qa/reflect", { text: qaReflectorAsking(STEP_INSTRUCTION), message: "name the failing step and the next action" });
    const generic = await context.templates.saveVersion("qa/reflect", { text: qaReflectorAsking(GENERIC_INSTRUCTION), message: "a general lesson" });
    const { experimentId } = await context.templateWorkbench.startAb({
      family: "qa",
      role: "reflector",
      versionA: generic.version.id,
      versionB: specific.version.id,
      labelA: "lesson",
      labelB: "next-action",
      taskSet: "builtin",
      taskIds: tasks,
      modelId: "demo",
      maxTrials: 3,
    });
    for (const runId of await context.experiments.runIds(experimentId)) await context.workers.untilSettled((await context.service.getRun(runId)).rootBranchId);

    const summary = await context.experiments.summary(experimentId);
    const curve = Object.fromEntries(summary.arms.map((arm) => [arm.label, arm.successByTrial]));
    expect(curve["next-action"]).toEqual([0, tasks.length, tasks.length]);
    expect(curve.lesson).toEqual([0, 0, 0]);

    const result = await context.templateWorkbench.abResult(experimentId);
    expect(result.pairedTest).toMatchObject({ n: tasks.length, aOnly: 0, bOnly: tasks.length });
    expect(result.differingTasks.map((task) => task.taskId)).toEqual(tasks);
    for (const task of result.differingTasks) {
      // Arm A (general lesson) wrote the vague reflection after every failed trial; arm B the task's scripted one.
      expect(task.a.reflections.length).toBeGreaterThan(0);
      for (const text of task.a.reflections) expect(text).toBe(GENERIC_DEMO_REFLECTION);
      expect(task.b.reflections).toEqual([builtinQaDemoScripts[task.taskId]!.reflection]);
    }
  }, 60_000);
});
