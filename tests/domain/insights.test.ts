import { describe, expect, it } from "vitest";
import { DEMO_CLOSING_INSIGHT, DEMO_FALLBACK_INSIGHT, DEMO_INSIGHT_KINDS, insightsDemoBook } from "@/lib/domain/insights-demo";
import { InsightsParseError, INSIGHTS_PROMPT_MARKER, MAX_INSIGHTS, noInsightsNote, parseInsights, renderInsightsPrompt, type TaskExperience } from "@/lib/domain/insights";
import { memoryForTrial } from "@/lib/domain/next-trial";
import type { MemoryItem } from "@/lib/domain/events";

describe("parseInsights (ExpeL §4.2: the model's list of insights)", () => {
  it("reads numbered lines in their order and ignores a preamble and a closing note", () => {
    const reply = "Here are my insights:\n\n1. Search exact titles.\n2) Answer with the attribute asked for.\n(3) Reread the question.\nThat is all.";
    expect(parseInsights(reply)).toEqual(["Search exact titles.", "Answer with the attribute asked for.", "Reread the question."]);
  });

  it("reads bulleted lines, markdown bold, 'Insight n:' labels and indented continuation lines", () => {
    const reply = "- **Insight 1:** Search exact titles,\n  not descriptions.\n* Check the unit.\n• Give the bare value.";
    expect(parseInsights(reply)).toEqual(["Search exact titles, not descriptions.", "Check the unit.", "Give the bare value."]);
  });

  it("keeps a repeated insight once (case and spaces folded) and at most max", () => {
    expect(parseInsights("1. Check the unit.\n2. check  the UNIT.\n3. Reread.")).toEqual(["Check the unit.", "Reread."]);
    const many = Array.from({ length: MAX_INSIGHTS + 3 }, (_, i) => `${i + 1}. Rule number ${i + 1}`).join("\n");
    expect(parseInsights(many)).toHaveLength(MAX_INSIGHTS);
  });

  it("refuses a reply without a list, quoting what came back", () => {
    expect(() => parseInsights("I cannot see any pattern in these trajectories.")).toThrow(InsightsParseError);
    expect(() => parseInsights("I cannot see any pattern in these trajectories.")).toThrow(/no numbered or bulleted list.*"I cannot see any pattern/u);
    expect(() => parseInsights("   ")).toThrow(/an empty reply/u);
  });
});

const tasks: TaskExperience[] = [
  {
    taskId: "t1",
    task: "Which river runs through the town X?",
    failures: [{ runId: "r1", trial: 1, trajectory: "Thought 1: …\nAction 1: Finish[X]", reflection: "I answered the town, but the question asks for the river." }],
    successes: [{ runId: "r1", trial: 2, trajectory: "Action 1: Search[X]\nAction 2: Finish[River Y]", reflection: null }],
  },
];

describe("renderInsightsPrompt", () => {
  it("shows each task's failed trajectory with its reflection, then its successful one, and ends with the marker", () => {
    const prompt = renderInsightsPrompt("Question answering", tasks, 4);
    expect(prompt).toContain("Question answering tasks");
    expect(prompt).toContain("at most 4 general insights");
    const failed = prompt.indexOf("Failed trajectory (trial 1):");
    const reflection = prompt.indexOf("Reflection: I answered the town");
    const success = prompt.indexOf("Successful trajectory (trial 2):");
    expect(failed).toBeGreaterThan(0);
    expect(reflection).toBeGreaterThan(failed);
    expect(success).toBeGreaterThan(reflection);
    expect(prompt.trimEnd().endsWith(INSIGHTS_PROMPT_MARKER)).toBe(true);
  });
});

describe("the demo model's extraction book (a scripted stand-in)", () => {
  it("writes one insight per kind of mistake the reflections name, plus the closing habit, as a list the parser reads", () => {
    const reply = insightsDemoBook.respond(renderInsightsPrompt("Question answering", tasks));
    expect(reply).not.toBeNull();
    const bridge = DEMO_INSIGHT_KINDS.find((kind) => kind.id === "bridge")!;
    expect(parseInsights(reply!)).toEqual([bridge.insight, DEMO_CLOSING_INSIGHT]);
  });

  it("still writes two insights when the reflections name no kind it knows (another family's wording)", () => {
    const household: TaskExperience[] = [{ taskId: "h1", task: "put a clean mug on the shelf", failures: [{ runId: "r", trial: 1, trajectory: "> go to shelf 1", reflection: "I forgot to clean the mug in the sinkbasin first." }], successes: [] }];
    expect(parseInsights(insightsDemoBook.respond(renderInsightsPrompt("Household", household))!)).toEqual([DEMO_FALLBACK_INSIGHT, DEMO_CLOSING_INSIGHT]);
  });

  it("answers no other prompt", () => {
    expect(insightsDemoBook.respond("Question: Which river?\nThought 1:")).toBeNull();
  });
});

describe("insights in the memory a trial sees", () => {
  const item = (id: string): MemoryItem => ({ id, text: id, trial: null });
  it("stay in context ahead of the reflections whatever Ω, and drop out with the reflections under a method without memory", () => {
    const memory = [item("insight:a"), item("insight:b"), item("r1"), item("r2"), item("r3")];
    const expel = memoryForTrial({ strategy: "expel", memoryWindow: 1, memoryManagement: undefined }, memory);
    expect(expel.inContext.map((m) => m.id)).toEqual(["insight:a", "insight:b", "r3"]);
    expect(expel.evicted.map((m) => m.id)).toEqual(["r1", "r2"]);
    const none = memoryForTrial({ strategy: "none", memoryWindow: 1, memoryManagement: undefined }, memory);
    expect(none.inContext).toEqual([]);
  });

  it("a run without insights is windowed exactly as before", () => {
    const memory = [item("r1"), item("r2"), item("r3")];
    expect(memoryForTrial({ strategy: "reflexion", memoryWindow: 2, memoryManagement: undefined }, memory).inContext.map((m) => m.id)).toEqual(["r2", "r3"]);
  });
});

describe("noInsightsNote", () => {
  it("says how to extract insights, naming the store", () => {
    expect(noInsightsNote("insights-qa", "qa")).toBe("memory store 'insights-qa' has no insights for the qa family; extract them with `cli insights extract --experiment <id> --store insights-qa`");
    expect(noInsightsNote(null, "qa")).toMatch(/names no insights store \(--insights <store>\).*cli insights extract/u);
  });
});
