import { describe, expect, it } from "vitest";
import { judgeVerdictOf, rubricSchema, weightedScore, type Rubric } from "@/lib/domain/judge";
import { extractJsonObject, parseJudgeAnswer } from "@/lib/domain/judge-parse";

const rubric: Rubric = {
  criteria: [
    { id: "facts", description: "Keeps the facts.", weight: 3 },
    { id: "length", description: "Short.", weight: 1 },
  ],
  passThreshold: 0.7,
};

describe("parseJudgeAnswer", () => {
  it("reads the well-formed shape and normalises 0–5 to 0–1", () => {
    const parsed = parseJudgeAnswer('{"scores":[{"criterion":"facts","score":4,"justification":"two of three facts"},{"criterion":"length","score":5,"justification":"31 words"}]}', rubric);
    expect(parsed).toEqual({
      ok: true,
      ignored: [],
      criteria: [
        { id: "facts", description: "Keeps the facts.", weight: 3, rawScore: 4, score: 0.8, justification: "two of three facts" },
        { id: "length", description: "Short.", weight: 1, rawScore: 5, score: 1, justification: "31 words" },
      ],
    });
  });

  it("reads a fenced answer with prose and a reasoning block around it, aliases and numeric strings", () => {
    const answer = [
      "<think>The answer misses the length {maybe}.</think>",
      "Here is my grading:",
      "```json",
      '{"scores":[{"id":"length","score":"2.5","reason":"55 words,\\n too long"},{"name":"FACTS","score":5,"comment":"all there"},{"criterion":"tone","score":3}]}',
      "```",
      "Hope this helps!",
    ].join("\n");
    const parsed = parseJudgeAnswer(answer, rubric);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.criteria.map((c) => [c.id, c.rawScore, c.justification])).toEqual([
      ["facts", 5, "all there"],
      ["length", 2.5, "55 words, too long"],
    ]);
    expect(parsed.ignored).toEqual(["tone"]);
  });

  it("reads an object keyed by criterion id", () => {
    const parsed = parseJudgeAnswer('{"facts":{"score":1,"justification":"none"},"length":3}', rubric);
    expect(parsed.ok && parsed.criteria.map((c) => c.rawScore)).toEqual([1, 3]);
  });

  it.each([
    ["no JSON at all", "The answer is good, 4/5.", "no JSON object"],
    ["JSON that does not parse", '{"scores":[{"criterion":"facts","score":4,}', "does not parse"],
    ["a missing criterion", '{"scores":[{"criterion":"facts","score":4}]}', 'no score for "length"'],
    ["a score off the scale", '{"scores":[{"criterion":"facts","score":9},{"criterion":"length","score":1}]}', "not within 0–5"],
    ["an entry without a score", '{"scores":[{"criterion":"facts","verdict":"good"},{"criterion":"length","score":1}]}', 'entry 1 has no numeric "score"'],
  ])("reports %s", (_what, answer, problem) => {
    const parsed = parseJudgeAnswer(answer, rubric);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem).toContain(problem);
  });

  it("extractJsonObject drops fences and returns null without braces", () => {
    expect(extractJsonObject('```json\n{"a":1}\n```')).toBe('{"a":1}');
    expect(extractJsonObject("nothing here")).toBeNull();
  });
});

describe("weighted verdict", () => {
  it("is Σ w·s / Σ w, compared to the threshold with ≥", () => {
    // (3·0.8 + 1·0.2) / 4 = 0.65
    expect(weightedScore([{ weight: 3, score: 0.8 }, { weight: 1, score: 0.2 }])).toBe(0.65);
    expect(judgeVerdictOf(0.65, 0.7)).toBe("fail");
    expect(judgeVerdictOf(0.7, 0.7)).toBe("pass");
    expect(judgeVerdictOf(weightedScore([{ weight: 1, score: 0.7 }]), 0.7)).toBe("pass");
    expect(judgeVerdictOf(0.6999, 0.7)).toBe("fail");
    expect(weightedScore([])).toBe(0);
  });

  it("rubric schema refuses duplicate ids, empty criteria and thresholds outside 0–1", () => {
    expect(rubricSchema.safeParse(rubric).success).toBe(true);
    expect(rubricSchema.safeParse({ ...rubric, criteria: [rubric.criteria[0], rubric.criteria[0]] }).success).toBe(false);
    expect(rubricSchema.safeParse({ ...rubric, criteria: [] }).success).toBe(false);
    expect(rubricSchema.safeParse({ ...rubric, passThreshold: 1.5 }).success).toBe(false);
    expect(rubricSchema.safeParse({ ...rubric, criteria: [{ id: "x", description: "d", weight: 0 }] }).success).toBe(false);
  });
});
