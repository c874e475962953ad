import { supportedStrategiesOf } from "@/lib/domain/strategies";
import { builtinCodeDemoScripts } from "@/lib/environments/code/builtin-demo-scripts";
import { builtinHouseholdDemoScripts } from "@/lib/environments/household/builtin-demo-scripts";
import { builtinOpenDemoScripts } from "@/lib/environments/open/builtin-demo-scripts";
import { environmentEntry, runnableEnvironments } from "@/lib/environments/registry";
import { describe, expect, it } from "vitest";
import { METHOD_IDS } from "@/lib/methods/registry";
import { describeConformance, treeSearchScript, type FamilyConformanceScript } from "./conformance-suite";

const fenced = (code: string) => `\`\`\`python\n${code.trimEnd()}\n\`\`\``;
const judged = (scores: Record<string, number>) =>
  JSON.stringify({ scores: Object.entries(scores).map(([criterion, score]) => ({ criterion, score, justification: `scored ${score}` })) });

const household = builtinHouseholdDemoScripts["household-builtin-02"]!;
const code = builtinCodeDemoScripts["code-py-01"]!;
const open = builtinOpenDemoScripts["open-explain-photosynthesis"]!;

/**
 * Each built-in family's conformance script, in call order. The replies are the families' own
 * demo data (a failing path, a reflection, a passing path) sent as a model would send them.
 */
const SCRIPTS: FamilyConformanceScript[] = [
  {
    family: "qa",
    taskId: "qa-builtin-01",
    failingTrial: [" The opera was staged in Dunmere, so that is the answer.\nAction 1: Finish[Dunmere]"],
    reflection: "I answered with the town, but the question asks for the river that runs through it; next time I will search Dunmere and answer with its river.",
    passingTrial: [" The question asks for Dunmere's river, the River Sallow.\nAction 1: Finish[River Sallow]"],
    treeSearch: treeSearchScript({
      failing: [" The opera was staged in Dunmere, so that is the answer.\nAction 1: Finish[Dunmere]"],
      other: " I should look up the town first.\nAction 1: Search[Dunmere]",
      passingFrom: [" Dunmere lies on the River Sallow.\nAction 2: Finish[River Sallow]"],
    }),
    refinedFailingAnswer: "Dunmere",
  },
  {
    family: "household",
    taskId: "household-builtin-02",
    failingTrial: household.naive.map((command) => ` ${command}`),
    reflection: household.reflection,
    passingTrial: household.informed.map((command) => ` ${command}`),
    // The naive path ends at the step limit (no loop long enough for the repetition heuristic).
    request: { maxStepsPerTrial: household.naive.length },
    treeSearch: treeSearchScript({
      failing: household.naive.map((command) => ` ${command}`),
      other: ` ${household.informed[0]}`,
      passingFrom: household.informed.slice(1).map((command) => ` ${command}`),
    }),
    endsWithAnswer: false,
  },
  {
    family: "code",
    taskId: "code-py-01",
    failingTrial: [fenced(code.internalTests.join("\n")), fenced(code.naive)],
    reflection: code.reflection,
    // Trial 2 reuses trial 1's internal tests (the family asks again only when none was runnable): one call.
    passingTrial: [fenced(code.informed)],
    // Two sets of internal tests at the root; trial 2 implements under the second.
    treeSearch: treeSearchScript({
      failing: [fenced(code.internalTests.join("\n")), fenced(code.naive)],
      other: fenced(code.internalTests.slice(0, 2).join("\n")),
      passingFrom: [fenced(code.informed)],
    }),
    refinedFailingAnswer: fenced(code.naive),
  },
  {
    family: "open",
    taskId: "open-explain-photosynthesis",
    failingTrial: [` ${open.thought}\nAction 1: Finish[${open.naive}]`, judged({ accuracy: 5, "plain-words": 5, analogy: 0, length: 5 })],
    reflection: "The judge scored analogy 0/5; next time I will compare the leaf to a kitchen that cooks food from sunlight.",
    passingTrial: [` ${open.thought}\nAction 1: Finish[${open.informed}]`, judged({ accuracy: 5, "plain-words": 5, analogy: 5, length: 5 })],
    // Both samples are answers: trial 2 only has the second judged.
    treeSearch: treeSearchScript({
      failing: [` ${open.thought}\nAction 1: Finish[${open.naive}]`],
      other: ` ${open.thought}\nAction 1: Finish[${open.informed}]`,
      afterFailing: [judged({ accuracy: 5, "plain-words": 5, analogy: 0, length: 5 })],
      passingFrom: null,
      afterPassing: [judged({ accuracy: 5, "plain-words": 5, analogy: 5, length: 5 })],
    }),
    evaluatorReplies: 1,
    refinedFailingAnswer: open.naive,
  },
];

describe("the conformance scripts", () => {
  it("cover every registered built-in family whose runs can be run here (imported traces are never run)", () => {
    expect(SCRIPTS.map((script) => script.family).sort()).toEqual([...runnableEnvironments()].sort());
  });

  it("run every registered method on at least one family (a new method is tested by registering it)", () => {
    const covered = new Set(SCRIPTS.flatMap((script) => supportedStrategiesOf(environmentEntry(script.family).family)));
    expect([...covered].sort()).toEqual([...METHOD_IDS].sort());
  });
});

for (const script of SCRIPTS) describeConformance(script, supportedStrategiesOf(environmentEntry(script.family).family));
