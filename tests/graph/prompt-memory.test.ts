import { describe, expect, it } from "vitest";
import type { Strategy } from "@/lib/domain/config";
import { foldRun } from "@/lib/domain/fold-run";
import { carriesLastAttempt, deriveRunGraph, locateMemoryInPrompt, memoryExpectation, missingMemory, promptText } from "@/lib/graph";
import { EventLog, makeRunConfig } from "./fixtures";

const LESSON = "Search the exact title Port Averly, then search the founder to find the ship.";

describe("locateMemoryInPrompt", () => {
  it("cuts the prompt around every occurrence of each memory item", () => {
    const prompt = `Reflections:\n- ${LESSON}\n- Answer with the ship only.\nQuestion: …`;
    const located = locateMemoryInPrompt(prompt, [
      { id: "r1", text: LESSON },
      { id: "r2", text: "Answer with the ship only." },
      { id: "r3", text: "Never shown." },
    ]);
    expect(located.occurrences).toEqual({ r1: 1, r2: 1, r3: 0 });
    expect(located.segments.map((segment) => segment.memoryId)).toEqual([null, "r1", null, "r2", null]);
    expect(located.segments.map((segment) => segment.text).join("")).toBe(prompt);
    expect(located.matches[0]).toEqual({ memoryId: "r1", start: prompt.indexOf(LESSON), end: prompt.indexOf(LESSON) + LESSON.length });
  });

  it("matches across different whitespace (families fold reflections onto one line or wrap them)", () => {
    const wrapped = "Search the exact title Port Averly,\n  then search the founder to find the ship.";
    const located = locateMemoryInPrompt(`- ${LESSON}`, [{ id: "r1", text: wrapped }]);
    expect(located.occurrences.r1).toBe(1);
    const reverse = locateMemoryInPrompt(`Reflections:\n${wrapped}`, [{ id: "r1", text: LESSON }]);
    expect(reverse.occurrences.r1).toBe(1);
  });

  it("finds a 60 KB reflection (a model's reply the output limit allows) and one of 2 MB, wrapped differently in the prompt", () => {
    // A pattern built from such a text overflowed the regular-expression stack and crashed the run page.
    for (const words of [10_000, 300_000]) {
      const text = Array.from({ length: words }, (_, index) => `I answered the (${index}) question [wrongly]?`).join(" ");
      const prompt = `Reflections:\n- ${text.replaceAll(" ", "\n  ")}\nQuestion: …`;
      const located = locateMemoryInPrompt(prompt, [{ id: "r1", text }]);
      expect(located.occurrences.r1).toBe(1);
      expect(located.segments.map((segment) => segment.text).join("")).toBe(prompt);
      expect(located.matches[0]?.start).toBe("Reflections:\n- ".length);
      expect(located.matches[0]?.end).toBe(prompt.length - "\nQuestion: …".length);
    }
  });

  it("escapes regex characters, ignores empty texts and keeps a prompt without memory whole", () => {
    const located = locateMemoryInPrompt("Use Search[Port Averly] (exact title).", [
      { id: "a", text: "Search[Port Averly] (exact" },
      { id: "b", text: "   " },
    ]);
    expect(located.occurrences).toEqual({ a: 1, b: 0 });
    expect(locateMemoryInPrompt("", []).segments).toEqual([{ text: "", memoryId: null }]);
  });

  it("does not double-mark overlapping items", () => {
    const located = locateMemoryInPrompt("abc def ghi", [
      { id: "long", text: "abc def" },
      { id: "short", text: "def ghi" },
    ]);
    expect(located.matches.map((match) => match.memoryId)).toEqual(["long"]);
    expect(located.occurrences).toEqual({ long: 1, short: 0 });
  });
});

describe("memoryExpectation", () => {
  it("knows what each strategy puts in the Actor prompt from trial 2 on", () => {
    expect(memoryExpectation("none")).toEqual({ reflections: false, lastAttempt: false });
    expect(memoryExpectation("reflexion")).toEqual({ reflections: true, lastAttempt: false });
    expect(memoryExpectation("cot")).toEqual({ reflections: true, lastAttempt: false });
    expect(memoryExpectation("cot-gold-context")).toEqual({ reflections: true, lastAttempt: false });
    expect(memoryExpectation("last-attempt")).toEqual({ reflections: false, lastAttempt: true });
    expect(memoryExpectation("last-attempt-and-reflexion")).toEqual({ reflections: true, lastAttempt: true });
    expect(memoryExpectation("something-new")).toEqual({ reflections: false, lastAttempt: false });
  });
});

/** A two-trial run whose trial 2 Actor prompt is `trial2Prompt` and whose trial 2 starts with `memory`. */
function runWithTrial2Prompt(options: { strategy?: Strategy; trial2Prompt: string; memory?: boolean }) {
  const log = new EventLog();
  log.add("run-start", { config: makeRunConfig({ strategy: options.strategy ?? "reflexion" }) });
  log.add("trial-start", { trial: 1, memory: [], evicted: [] });
  log.step(1, 1, "I will search for the founder directly.", { text: "Search[founder of Port Averly]", type: "Search", argument: "founder of Port Averly" }, { text: "Could not find [founder of Port Averly]." });
  log.add("evaluation-end", { trial: 1, verdict: "fail", score: 0, feedback: "No answer.", evaluatorKind: "exact-match", oracle: true, details: {} });
  log.add("trial-end", { trial: 1, outcome: "halted", reason: "step budget" });
  const call = log.call("reflector", 1, null, "Reflect", LESSON);
  const reflection = log.add("reflection-end", { trial: 1, text: LESSON, callId: call });
  log.add("checkpoint", { trial: 1, digest: "d" });
  const memory = options.memory === false ? [] : [{ id: reflection.id, text: LESSON, trial: 1 }];
  log.add("trial-start", { trial: 2, memory, evicted: [] });
  const callId = log.call("actor", 2, 1, options.trial2Prompt, "Thought.\nAction 1: Search[Port Averly]");
  log.add("step-thought", { trial: 2, step: 1, text: "Thought.", callId });
  const state = foldRun(log.events);
  const trial2 = state.trials[1];
  const trial1 = state.trials[0];
  const actorCall = state.calls[callId];
  if (!trial1 || !trial2 || !actorCall) throw new Error("fixture");
  return { state, trial1, trial2, prompt: promptText(actorCall.messages) };
}

describe("missingMemory", () => {
  it("says nothing when the trial's reflections are in the Actor prompt", () => {
    const { trial1, trial2, prompt } = runWithTrial2Prompt({ trial2Prompt: `Reflections:\n- ${LESSON}\nQuestion: … Thought 1:` });
    expect(missingMemory({ strategy: "reflexion", trial: trial2, previousTrial: trial1, prompt, step: 1 })).toBeNull();
  });

  it("warns when the trial started with reflections but none of them reached the prompt", () => {
    const { trial1, trial2, prompt } = runWithTrial2Prompt({ trial2Prompt: "Question: … Thought 1:" });
    const warning = missingMemory({ strategy: "reflexion", trial: trial2, previousTrial: trial1, prompt, step: 1 });
    expect(warning?.kind).toBe("reflections-not-in-prompt");
    expect(warning?.message).toMatch(/1 reflection in context/);
    expect(warning?.message).toMatch(/\{memory\}/);
    // The same holds for strategies that are not supposed to use memory: the reflections were in context.
    expect(missingMemory({ strategy: "none", trial: trial2, previousTrial: trial1, prompt, step: 1 })?.kind).toBe("reflections-not-in-prompt");
  });

  it("warns when a memory strategy's trial-2 prompt carries no memory at all", () => {
    const { trial1, trial2, prompt } = runWithTrial2Prompt({ trial2Prompt: "Question: … Thought 1:", memory: false });
    expect(missingMemory({ strategy: "reflexion", trial: trial2, previousTrial: trial1, prompt, step: 1 })).toMatchObject({ kind: "no-memory-in-prompt" });
    expect(missingMemory({ strategy: "cot", trial: trial2, previousTrial: trial1, prompt, step: 1 })?.message).toMatch(/empty memory/);
    // ReAct only expects nothing.
    expect(missingMemory({ strategy: "none", trial: trial2, previousTrial: trial1, prompt, step: 1 })).toBeNull();
    // Trial 1 never expects memory.
    expect(missingMemory({ strategy: "reflexion", trial: trial1, previousTrial: null, prompt, step: 1 })).toBeNull();
  });

  it("accepts the previous attempt as memory for the last-attempt strategies", () => {
    const withAttempt = runWithTrial2Prompt({
      strategy: "last-attempt",
      memory: false,
      trial2Prompt: "Previous trial:\nThought 1: I will search for the founder directly.\nAction 1: Search[founder of Port Averly]\nObservation 1: Could not find [founder of Port Averly].\n\nQuestion: … Thought 1:",
    });
    expect(carriesLastAttempt(withAttempt.prompt, withAttempt.trial1, withAttempt.trial2, 1)).toBe(true);
    expect(missingMemory({ strategy: "last-attempt", trial: withAttempt.trial2, previousTrial: withAttempt.trial1, prompt: withAttempt.prompt, step: 1 })).toBeNull();

    const without = runWithTrial2Prompt({ strategy: "last-attempt", memory: false, trial2Prompt: "Question: … Thought 1:" });
    expect(carriesLastAttempt(without.prompt, without.trial1, without.trial2, 1)).toBe(false);
    expect(missingMemory({ strategy: "last-attempt", trial: without.trial2, previousTrial: without.trial1, prompt: without.prompt, step: 1 })?.message).toMatch(
      /previous attempt/,
    );
  });

  it("flags the trial header in the graph when its first Actor prompt misses the memory", () => {
    const missing = runWithTrial2Prompt({ trial2Prompt: "Question: … Thought 1:" });
    const header = (state: typeof missing.state) => deriveRunGraph(state).nodes.find((node) => node.type === "trial" && node.data.trial === 2);
    const flagged = header(missing.state);
    expect(flagged?.type === "trial" && flagged.data.memoryMissing).toBe(true);
    expect(flagged?.ariaLabel).toMatch(/missing from the Actor prompt/);
    const fine = header(runWithTrial2Prompt({ trial2Prompt: `Reflections:\n- ${LESSON}\nThought 1:` }).state);
    expect(fine?.type === "trial" && fine.data.memoryMissing).toBe(false);
  });
});
