import { describe, expect, it } from "vitest";
import { supportedStrategiesOf } from "@/lib/domain/strategies";
import { familyDescriptor } from "@/lib/environments/descriptors";
import { availableEnvironments, environmentEntry, registerFamily } from "@/lib/environments/registry";
import { describeConformance, treeSearchScript } from "../conformance-suite";
import { toyArithmeticDescriptor } from "./descriptor";
import { toyArithmeticEnvironment } from "./environment";
import { builtinToyTasks, importToyTasks } from "./tasks";

// The one registry line (docs/adding-a-family.md): descriptor and server parts, by one call.
registerFamily(toyArithmeticDescriptor, { family: toyArithmeticEnvironment, builtinTasks: builtinToyTasks, importTaskSet: importToyTasks, demoKeyFacts: () => null, demoScriptBook: null });

describe("a family defined in a test folder", () => {
  it("is found by both registries once registered, and its importer reports broken records", () => {
    expect(availableEnvironments()).toContain("toy-arithmetic");
    expect(familyDescriptor("toy-arithmetic").label).toBe("Toy arithmetic (test family)");
    const { tasks, problems } = environmentEntry("toy-arithmetic").importTaskSet('[{"id":"a","question":"1+1?","answer":"2"},{"id":"b"}]');
    expect(tasks.map((task) => task.id)).toEqual(["a"]);
    expect(problems).toHaveLength(1);
    expect(() => environmentEntry("toy-arithmetic").importTaskSet("not json")).toThrow(/not JSON/);
    expect(() => environmentEntry("toy-arithmetic").importTaskSet('{"id":"a"}')).toThrow(/not an array/);
  });

  it("cannot be registered twice", () => {
    expect(() => registerFamily(toyArithmeticDescriptor, { family: toyArithmeticEnvironment, builtinTasks: [], importTaskSet: importToyTasks, demoKeyFacts: () => null, demoScriptBook: null })).toThrow(
      /already registered/,
    );
  });
});

describeConformance(
  {
    family: "toy-arithmetic",
    taskId: "toy-01",
    failingTrial: [" Six sevens are about forty.\nAction 1: Finish[40]"],
    reflection: "I guessed instead of calculating; next time I will call Calculate[6*7] before answering.",
    passingTrial: [" I will calculate it.\nAction 1: Calculate[6*7]", " The calculator says 42.\nAction 2: Finish[42]"],
    treeSearch: treeSearchScript({
      failing: [" Six sevens are about forty.\nAction 1: Finish[40]"],
      other: " I will calculate it.\nAction 1: Calculate[6*7]",
      passingFrom: [" The calculator says 42.\nAction 2: Finish[42]"],
    }),
  },
  supportedStrategiesOf(toyArithmeticEnvironment),
);
