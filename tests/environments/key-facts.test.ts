import { describe, expect, it } from "vitest";
import { matchKeyFacts, matchesPhrasing, normaliseForFacts, type KeyFact } from "@/lib/domain/key-facts";
import { builtinCodeDemoScripts } from "@/lib/environments/code/builtin-demo-scripts";
import { builtinCodeTasks } from "@/lib/environments/code/builtin-tasks";
import { keyFactsFor, reflectionHelps, type KeyFactTask } from "@/lib/environments/demo-key-facts";
import { builtinHouseholdDemoScripts } from "@/lib/environments/household/builtin-demo-scripts";
import { builtinHouseholdTasks } from "@/lib/environments/household/builtin-tasks";
import { builtinQaDemoScripts } from "@/lib/environments/qa/builtin-demo-scripts";
import { builtinQaTasks } from "@/lib/environments/qa/builtin-tasks";
import { CORRECT_COT_PARAPHRASES, CORRECT_PARAPHRASES, UNHELPFUL_REFLECTIONS } from "../demo/paraphrases";

/** The same edit the demo-script tests make: every lesson keyword replaced by "it". */
function withoutKeywords(text: string, keywords: readonly string[]): string {
  return keywords.reduce((current, keyword) => current.replace(new RegExp(keyword.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi"), "it"), text);
}

interface Case {
  task: KeyFactTask;
  scripted: string;
  lessonKeywords: readonly string[];
}

const cases: Array<[string, Case]> = [
  ...builtinQaTasks.map((task): [string, Case] => {
    const script = builtinQaDemoScripts[task.id]!;
    return [task.id, { task: { environment: "qa", taskId: task.id, strategy: "reflexion" }, scripted: script.reflection, lessonKeywords: script.lessonKeywords }];
  }),
  ...builtinHouseholdTasks.map((task): [string, Case] => {
    const script = builtinHouseholdDemoScripts[task.id]!;
    return [task.id, { task: { environment: "household", taskId: task.id }, scripted: script.reflection, lessonKeywords: script.lessonKeywords }];
  }),
  ...builtinCodeTasks.map((task): [string, Case] => {
    const script = builtinCodeDemoScripts[task.id]!;
    return [task.id, { task: { environment: "code", taskId: task.id }, scripted: script.reflection, lessonKeywords: script.lessonKeywords }];
  }),
];

describe("normaliseForFacts", () => {
  it("folds case, punctuation, diacritics, apostrophes, number words and articles, and stems words", () => {
    expect(normaliseForFacts("The RIVERS, opened!")).toEqual(["river", "open"]);
    expect(normaliseForFacts("Dünmere's café")).toEqual(normaliseForFacts("dunmeres cafe"));
    expect(normaliseForFacts("open drawer one")).toEqual(normaliseForFacts("opening the drawer 1"));
  });

  it("matches a phrasing as consecutive words, or '+' parts within one sentence", () => {
    expect(matchesPhrasing("Next time, search for Dunmere's river.", "river")).toBe(true);
    expect(matchesPhrasing("I went to the drawer and opened nothing.", "open drawer")).toBe(false);
    expect(matchesPhrasing("Wash it. Then go to the sink.", "wash + sink")).toBe(false);
    expect(matchesPhrasing("Wash the soap at the sink.", "wash + sink")).toBe(true);
    expect(matchesPhrasing("anything", "  ")).toBe(false);
  });

  it("needs every fact, and never helps with no facts", () => {
    const facts: KeyFact[] = [
      { id: "a", any: ["alpha"], says: "a" },
      { id: "b", any: ["beta", "gamma"], says: "b" },
    ];
    expect(matchKeyFacts(facts, "Alpha and gamma.")).toEqual({ helps: true, matched: ["a", "b"], missing: [] });
    expect(matchKeyFacts(facts, "Only alpha.")).toEqual({ helps: false, matched: ["a"], missing: ["b"] });
    expect(matchKeyFacts([], "alpha").helps).toBe(false);
  });
});

describe("reflectionHelps per built-in task", () => {
  it("every built-in task of the three families has key facts, and each fact has a phrasing and words for the learner", () => {
    for (const [id, { task }] of cases) {
      const facts = keyFactsFor(task);
      expect(facts, id).not.toBeNull();
      expect(facts!.length, id).toBeGreaterThan(0);
      for (const fact of facts!) {
        expect(fact.any.length, `${id} ${fact.id}`).toBeGreaterThan(0);
        expect(fact.says.length, `${id} ${fact.id}`).toBeGreaterThan(5);
      }
    }
    expect(Object.keys(CORRECT_PARAPHRASES).sort()).toEqual(cases.map(([id]) => id).sort());
  });

  it.each(cases)("%s: the scripted reflection helps", (_, { task, scripted }) => {
    expect(reflectionHelps(task, scripted)).toMatchObject({ known: true, helps: true, missing: [] });
  });

  it.each(cases)("%s: a correct paraphrase in other words helps", (id, { task }) => {
    const result = reflectionHelps(task, CORRECT_PARAPHRASES[id]!);
    expect(result.missing, id).toEqual([]);
    expect(result.helps).toBe(true);
  });

  it("none of these paraphrases contains all of its task's lesson keywords (the old substring rule would reject every one)", () => {
    for (const [id, { lessonKeywords }] of cases) {
      const text = CORRECT_PARAPHRASES[id]!.toLowerCase();
      expect(lessonKeywords.every((keyword) => text.includes(keyword.toLowerCase())), id).toBe(false);
    }
  });

  it.each(cases)("%s: an unhelpful reflection does not help, and says which facts it misses", (_, { task }) => {
    for (const text of UNHELPFUL_REFLECTIONS) {
      const result = reflectionHelps(task, text);
      expect(result.helps).toBe(false);
      expect(result.missing.length).toBeGreaterThan(0);
      expect(result.missing).toEqual(result.facts.filter((fact) => !result.matched.includes(fact.id)).map((fact) => fact.id));
    }
  });

  it.each(cases.filter(([, c]) => c.task.environment !== "code"))("%s: the scripted reflection with its lesson keywords removed does not help", (_, { task, scripted, lessonKeywords }) => {
    expect(reflectionHelps(task, withoutKeywords(scripted, lessonKeywords)).helps).toBe(false);
  });

  it("QA chain-of-thought strategies use the CoT facts: its scripted reflection and a paraphrase help there", () => {
    for (const task of builtinQaTasks) {
      const cotTask: KeyFactTask = { environment: "qa", taskId: task.id, strategy: "cot" };
      expect(reflectionHelps(cotTask, builtinQaDemoScripts[task.id]!.cot.reflection).helps, task.id).toBe(true);
      expect(reflectionHelps(cotTask, "I should be more careful.").helps, task.id).toBe(false);
    }
    for (const [id, text] of Object.entries(CORRECT_COT_PARAPHRASES)) {
      expect(reflectionHelps({ environment: "qa", taskId: id, strategy: "cot-gold-context" }, text).missing, id).toEqual([]);
      // The ReAct lesson of the same task is a different one.
      expect(reflectionHelps({ environment: "qa", taskId: id, strategy: "reflexion" }, text).helps, id).toBe(false);
    }
  });

  it("an uploaded task has no key facts: not known, never helps", () => {
    expect(reflectionHelps({ environment: "qa", taskId: "hotpot-5a8b57f25542995d1e6f1371" }, "Search Dunmere for the river.")).toEqual({
      known: false,
      facts: [],
      helps: false,
      matched: [],
      missing: [],
    });
  });
});
