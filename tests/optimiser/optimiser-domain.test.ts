import { describe, expect, it } from "vitest";
import { lessonsOf, LESSONS_HEADER, withLessons } from "@/lib/domain/optimiser/lessons";
import { BUILT_IN_META_PROMPT, formatFailures, parseProposedTemplate, renderMetaPrompt, type FailedTrialExcerpt } from "@/lib/domain/optimiser/meta-prompt";
import { dominates, paretoFront, pickParent } from "@/lib/domain/optimiser/pareto";
import { splitTasks } from "@/lib/domain/optimiser/split";
import { reflectionHelps } from "@/lib/environments/demo-key-facts";
import { demoOptimiserBook, SPECIFIC_REFLECTION_ASK } from "@/lib/environments/demo-optimiser-book";
import { qaReflectorTemplate } from "@/lib/environments/qa/prompts";
import { withReflectionLessons } from "@/lib/llm/demo-model";

const tasks = Array.from({ length: 10 }, (_, i) => `t${i}`);

describe("splitTasks", () => {
  it("is fixed by the seed, whatever the order the tasks come in, and keeps at least one task on each side", () => {
    const a = splitTasks(tasks, 0.7, 5);
    expect(a.train).toHaveLength(7);
    expect(a.heldOut).toHaveLength(3);
    expect(new Set([...a.train, ...a.heldOut])).toEqual(new Set(tasks));
    const shuffled = splitTasks([...tasks].reverse(), 0.7, 5);
    expect(new Set(shuffled.train)).toEqual(new Set(a.train));
    const other = splitTasks(tasks, 0.7, 6);
    expect(other.train).not.toEqual(a.train);
    expect(splitTasks(["x", "y"], 0.99, 1).heldOut).toHaveLength(1);
    expect(splitTasks(["x", "y"], 0.01, 1).train).toHaveLength(1);
    expect(() => splitTasks([], 0.5, 1)).toThrow(/no tasks/);
    expect(() => splitTasks(tasks, 1, 1)).toThrow(/between 0 and 1/);
  });
});

describe("the Pareto front over train tasks", () => {
  const entry = (key: string, scores: Record<string, number>) => ({ key, scores });
  it("keeps every candidate no other beats on all tasks (equal ones too) and drops the dominated", () => {
    const t = ["a", "b", "c"];
    const start = entry("0:0", { a: 0, b: 0, c: 0 });
    const left = entry("1:0", { a: 1, b: 1, c: 0 });
    const right = entry("1:1", { a: 0, b: 0, c: 1 });
    const twin = entry("2:1", { a: 0, b: 0, c: 1 });
    const worse = entry("2:0", { a: 1, b: 0, c: 0 });
    expect(dominates(left, start, t)).toBe(true);
    expect(dominates(left, right, t)).toBe(false);
    expect(paretoFront([start, left, right, twin, worse], t)).toEqual(["1:0", "1:1", "2:1"]);
  });
  it("picks parents best mean first, taking the front in turn", () => {
    const t = ["a", "b"];
    const front = [entry("1:0", { a: 1, b: 0 }), entry("1:1", { a: 1, b: 1 })];
    const round = (key: string) => Number(key.split(":")[0]);
    expect(pickParent(front, t, 0, round)?.key).toBe("1:1");
    expect(pickParent(front, t, 1, round)?.key).toBe("1:0");
    expect(pickParent(front, t, 2, round)?.key).toBe("1:1");
    expect(pickParent([], t, 0, round)).toBeNull();
  });
});

describe("the meta-prompt", () => {
  const failure: FailedTrialExcerpt = { id: "run-1#1", family: "qa", taskId: "qa-builtin-01", strategy: "reflexion", trial: 1, memory: [], trajectory: "Thought 1: x\nAction 1: Finish[y]", feedback: "Answer is INCORRECT", reflection: "I should search Dunmere." };
  it("fills its four placeholders and leaves any other brace name as written", () => {
    const text = renderMetaPrompt(BUILT_IN_META_PROMPT, { role: "reflector", family: "qa", template: "Q: {question}", failures: formatFailures([failure]) });
    expect(text).toContain("<template>\nQ: {question}\n</template>");
    expect(text).toContain("=== Failed trial 1: qa/qa-builtin-01 (strategy reflexion, trial 1, run run-1) ===");
    expect(text).toContain("Reflection written: I should search Dunmere.");
    expect(text).not.toMatch(/\{(role|family|template|failures)\}/);
  });
  it("reads the last <template> block of a reply, and says so when there is none", () => {
    expect(parseProposedTemplate("Here:\n<template>\nfirst\n</template>\nBetter:\n<template>\nsecond {x}\n</template>")).toBe("second {x}");
    expect(() => parseProposedTemplate("I would rather not.")).toThrow(/no template between <template> and <\/template>.*I would rather not/);
    expect(() => parseProposedTemplate("<template>\n \n</template>")).toThrow(/empty/);
  });
});

describe("lessons in a template", () => {
  it("go before {memory} in an Actor template and before the closing cue of a reflector's; new ones merge into the block", () => {
    const actor = "Examples…\n(END OF EXAMPLES)\n{memory}Question: {question}{scratchpad}";
    const once = withLessons(actor, ["search Dunmere first."]);
    expect(once).toBe(`Examples…\n(END OF EXAMPLES)\n${LESSONS_HEADER}\n- search Dunmere first.\n\n{memory}Question: {question}{scratchpad}`);
    const twice = withLessons(once, ["search Dunmere first.", "answer with the year."]);
    expect(lessonsOf(twice)).toEqual(["search Dunmere first.", "answer with the year."]);
    expect(twice.match(new RegExp(LESSONS_HEADER, "g"))).toHaveLength(1);
    expect(withLessons(twice, ["answer with the year."])).toBe(twice);
    const reflector = withLessons(qaReflectorTemplate.text, ["check the year."]);
    expect(reflector.trimEnd().endsWith("Reflection:")).toBe(true);
    expect(lessonsOf(reflector)).toEqual(["check the year."]);
  });
  it("the demo's reflection restates a reflector template's lessons; Actor prompts are left alone", () => {
    const prompt = `${LESSONS_HEADER}\n- check the year.\n\nPrevious trial: …\nReflection:`;
    expect(withReflectionLessons(prompt, "I answered too early.")).toBe("I answered too early. check the year.");
    expect(withReflectionLessons(`${LESSONS_HEADER}\n- check the year.\n\nThought 1:`, " Search[x]")).toBe(" Search[x]");
    expect(withReflectionLessons("Reflection:", "plain")).toBe("plain");
  });
});

describe("the demo model's answer to the meta-prompt (a scripted stand-in)", () => {
  const failureFor = (taskId: string, memory: string[]): FailedTrialExcerpt => ({ id: `run-${taskId}#1`, family: "qa", taskId, strategy: "reflexion", trial: 1, memory, trajectory: "", feedback: "INCORRECT", reflection: null });
  const prompt = (template: string, failures: FailedTrialExcerpt[]) => renderMetaPrompt(BUILT_IN_META_PROMPT, { role: "actor", family: "qa", template, failures: formatFailures(failures) });

  it("adds the key facts the failed trial's memory lacked, so the demo Actor's memory block states them all", () => {
    const template = "(END OF EXAMPLES)\n{memory}Question: {question}{scratchpad}";
    const reply = demoOptimiserBook.respond(prompt(template, [failureFor("qa-builtin-01", [])]))!;
    const proposed = parseProposedTemplate(reply);
    expect(lessonsOf(proposed).length).toBeGreaterThan(0);
    expect(reflectionHelps({ environment: "qa", taskId: "qa-builtin-01", strategy: "reflexion" }, lessonsOf(proposed).join(" ")).helps).toBe(true);
    // A failure whose memory stated every fact adds nothing for that task.
    const stated = lessonsOf(proposed);
    expect(parseProposedTemplate(demoOptimiserBook.respond(prompt(template, [failureFor("qa-builtin-01", stated)]))!)).toBe(template);
  });

  it("answers without a template when the meta-prompt shows none, and ignores other prompts", () => {
    const reply = demoOptimiserBook.respond(`Improve: x\n\n${formatFailures([failureFor("qa-builtin-01", [])])}`)!;
    expect(reply).toMatch(/offline demo model \(a scripted stand-in\)/);
    expect(() => parseProposedTemplate(reply)).toThrow(/no template/);
    expect(demoOptimiserBook.respond("Question: what?\nThought 1:")).toBeNull();
  });

  it("asks a Self-Reflection template for specific reflections when the failures' reflections were vague, never an Actor template", () => {
    const vague = { ...failureFor("qa-builtin-01", []), reflection: "I should be more careful next time." };
    const reflector = parseProposedTemplate(demoOptimiserBook.respond(prompt(qaReflectorTemplate.text, [vague]))!);
    expect(reflector.startsWith(`${SPECIFIC_REFLECTION_ASK} `)).toBe(true);
    const actor = parseProposedTemplate(demoOptimiserBook.respond(prompt("(END OF EXAMPLES)\n{memory}Question: {question}{scratchpad}", [vague]))!);
    expect(actor).not.toContain(SPECIFIC_REFLECTION_ASK);
    const specific = { ...vague, reflection: lessonsOf(parseProposedTemplate(demoOptimiserBook.respond(prompt(qaReflectorTemplate.text, [failureFor("qa-builtin-01", [])]))!)).join(" ") };
    expect(parseProposedTemplate(demoOptimiserBook.respond(prompt(qaReflectorTemplate.text, [specific]))!)).not.toContain(SPECIFIC_REFLECTION_ASK);
  });
});
