import { describe, expect, it } from "vitest";
import { runEventSchema } from "@/lib/domain/events";
import { formatEventLine } from "@/lib/cli/format-event";

/** `cli run --env open` prints the judge's per-criterion scores under its verdict. */
describe("CLI line of a judged evaluation", () => {
  it("names the judge model, the weighted score against the threshold and one line per criterion", () => {
    const data = {
      trial: 1,
      verdict: "fail",
      score: 0.57,
      feedback: "…",
      evaluatorKind: "llm-judge",
      oracle: false,
      details: {},
      judge: {
        criteria: [
          { id: "subject", description: "d", weight: 2, rawScore: 5, score: 1, justification: "31 characters" },
          { id: "why", description: "d", weight: 3, rawScore: 0, score: 0, justification: "no body" },
        ],
        weightedScore: 0.4,
        threshold: 0.8,
        callId: "c2",
        callIds: ["c1", "c2"],
        modelId: "openai:gpt-4o-mini",
        templateId: "open/judge",
        attempts: 2,
        firstProblem: "no JSON object in the answer",
      },
    };
    const event = runEventSchema.parse({ type: "evaluation-end", data, id: "e1", runId: "r", branchId: "b", seq: 5, schemaVersion: 1, occurredAt: "2026-01-01T00:00:00Z", causedBy: null });
    expect(formatEventLine(event)!.split("\n")).toEqual([
      "  Evaluator (LLM judge openai:gpt-4o-mini, a model's opinion, not an oracle): FAIL — weighted score 0.40 < threshold 0.80 (asked 2 times: no JSON object in the answer)",
      "    - subject ×2: 5/5  31 characters",
      "    - why ×3: 0/5  no body",
    ]);
  });
});
