import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/domain/errors";
import { joinSentences, parseQaTask } from "@/lib/environments/qa/task";

describe("parseQaTask", () => {
  const valid = {
    id: "t1",
    question: "Q?",
    answer: "A",
    paragraphs: [{ title: "P", sentences: ["A is here."] }],
    supportingTitles: ["P"],
  };

  it("accepts a valid task and keeps optional labels", () => {
    expect(parseQaTask({ ...valid, type: "bridge", level: "hard" })).toEqual({ ...valid, type: "bridge", level: "hard" });
  });

  it("throws AppError invalid-dataset naming every wrong field", () => {
    let caught: unknown;
    try {
      parseQaTask({ ...valid, answer: " ", paragraphs: [{ title: "P", sentences: [] }] });
    } catch (error) {
      caught = error;
    }
    expect(isAppError(caught, "invalid-dataset")).toBe(true);
    const message = (caught as Error).message;
    expect(message).toMatch(/^Not a valid QA task: /);
    expect(message).toContain("answer: the gold answer must not be empty");
    expect(message).toContain("paragraphs.0.sentences: a paragraph needs at least one sentence");
  });

  it("rejects non-objects", () => {
    expect(() => parseQaTask("a question")).toThrow(/\(task\): /);
  });
});

describe("joinSentences", () => {
  it.each([
    [["One.", " Two."], "One. Two."],
    [["One.", "Two."], "One. Two."],
    [["VIVA Polska (earlier \"VIVApolska!\")", " is a channel."], 'VIVA Polska (earlier "VIVApolska!") is a channel.'],
    [["  Lead. ", "Next."], "Lead. Next."],
    [["One.", "", "Two."], "One. Two."],
    [[], ""],
  ])("%j → %j", (sentences, expected) => {
    expect(joinSentences(sentences)).toBe(expected);
  });
});
