import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { builtinQaTasks } from "@/lib/environments/qa/builtin-tasks";
import { ASCII_PUNCTUATION, evaluateQa, exactMatch, normalizeAnswer } from "@/lib/environments/qa/exact-match";

describe("normalizeAnswer (HotpotQA / SQuAD normalize_answer)", () => {
  it.each([
    // Reference examples from the Reflexion logs (shared/docs/reflexion-reference.md §2.4).
    ['Jonny" Craig', "jonny craig"],
    ["January 10, 1920", "january 10 1920"],
    ["10 January 1920", "10 january 1920"],
    // Articles: whole words only, anywhere, replaced by a space then collapsed.
    ["The Beatles", "beatles"],
    ["A Tale of Two Cities", "tale of two cities"],
    ["an apple and the pear", "apple and pear"],
    ["Theatre Anatomy", "theatre anatomy"],
    ["a a an the", ""],
    // Punctuation is removed, not replaced by a space.
    ["U.S.A.", "usa"],
    ["rock-and-roll", "rockandroll"],
    ["2,317 metres", "2317 metres"],
    ["O'Brien & Sons!", "obrien sons"],
    ["the-end", "theend"],
    ["(the) end", "end"],
    // Unicode punctuation is NOT removed (Python string.punctuation is ASCII only).
    ["“Quoted” — dash", "“quoted” — dash"],
    ["Gesellschaft mit beschränkter Haftung", "gesellschaft mit beschränkter haftung"],
    // Python's \b is Unicode-aware: letters like ñ and é are word characters.
    ["Ñan", "ñan"],
    ["éa", "éa"],
    ["aé", "aé"],
    ["Café a la carte", "café la carte"],
    ["a\u00e9", "a\u00e9"],
    // Unicode NFC comes first (our one addition to the official steps): "a" + U+0301 becomes "á",
    // a single word character, where Python's re would see a whole word "a" before a combining mark.
    ["a\u0301", "\u00e1"],
    ["Zu\u0308rich", "z\u00fcrich"],
    // Whitespace as Python's str.split(): tabs, newlines, NBSP, U+0085 collapse; U+FEFF does not.
    ["  River\t\nSallow\u00a0\u0085 ", "river sallow"],
    ["x\ufeffy", "x\ufeffy"],
    ["", ""],
    ["   ", ""],
    ["?!.", ""],
  ])("%j → %j", (input, expected) => {
    expect(normalizeAnswer(input)).toBe(expected);
  });

  it("removes exactly the 32 characters of Python's string.punctuation", () => {
    expect(ASCII_PUNCTUATION).toHaveLength(32);
    expect(normalizeAnswer(`x${ASCII_PUNCTUATION}y`)).toBe("xy");
  });

  it("is idempotent and never leaves double or edge spaces", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 80 }), (text) => {
        const once = normalizeAnswer(text);
        expect(normalizeAnswer(once)).toBe(once);
        expect(once).not.toMatch(/^ | $| {2}/);
      }),
    );
  });
});

describe("exactMatch", () => {
  it.each([
    ["Jonny Craig", 'Jonny" Craig', true],
    ["10 January 1920", "January 10, 1920", false],
    ["the River Sallow", "River Sallow", true],
    ["River  sallow.", "River Sallow", true],
    ["Sallow", "River Sallow", false],
    ["director, screenwriter, actor", "director screenwriter actor", true],
    ["actor, director, screenwriter", "director, screenwriter, actor", false],
  ])("%j vs gold %j → %s", (prediction, gold, expected) => {
    expect(exactMatch(prediction, gold)).toBe(expected);
  });

  it("never accepts a prediction that is empty after normalisation, even against an empty gold", () => {
    expect(exactMatch("", "")).toBe(false);
    expect(exactMatch("The", "an")).toBe(false);
    expect(exactMatch("?!", "")).toBe(false);
  });

  it.each([
    ["A", "A", true],
    ["a", "A", true],
    [" a ", "A", true],
    ["A.", "A", true],
    ["the the", "The The", true],
    ["The  The!", "The The", true],
    ["The", "A", false],
    ["A", "The The", false],
    ["The The", "The", false],
    ["?!", "?!", true],
    ["!?", "?!", false],
    ["", "A", false],
  ])("a gold answer that normalises to nothing still has a match: %j vs gold %j → %s", (prediction, gold, expected) => {
    expect(exactMatch(prediction, gold)).toBe(expected);
  });

  it("matches a decomposed answer against a precomposed gold answer and the other way round (NFC)", () => {
    const decomposed = "Zu\u0308rich";
    const precomposed = "Z\u00fcrich";
    expect(decomposed).not.toBe(precomposed);
    expect(exactMatch(decomposed, precomposed)).toBe(true);
    expect(exactMatch(precomposed, decomposed)).toBe(true);
    expect(exactMatch("Cafe\u0301 de Flore", "Caf\u00e9 de Flore")).toBe(true);
  });
});

describe("evaluateQa", () => {
  const task = builtinQaTasks.find((candidate) => candidate.id === "qa-builtin-01")!;

  it("passes a correct answer with score 1 and oracle details", () => {
    expect(evaluateQa(task, "the river sallow")).toEqual({
      verdict: "pass",
      score: 1,
      feedback: 'Answer "the river sallow" matches the gold answer by exact match.',
      evaluatorKind: "exact-match",
      oracle: true,
      details: { prediction: "the river sallow", normalizedPrediction: "river sallow", normalizedGold: "river sallow", f1: 1, precision: 1, recall: 1 },
    });
  });

  it("fails a wrong answer without revealing the gold answer in the feedback", () => {
    const verdict = evaluateQa(task, "Dunmere");
    expect(verdict).toMatchObject({ verdict: "fail", score: 0, evaluatorKind: "exact-match", oracle: true });
    expect(verdict.feedback).toBe('Answer "Dunmere" does not match the gold answer by exact match.');
    expect(verdict.feedback).not.toMatch(/sallow/i);
  });

  it("fails a halted trial (no answer)", () => {
    expect(evaluateQa(task, null)).toEqual({
      verdict: "fail",
      score: 0,
      feedback: "No answer: the trial ended without Finish[...]",
      evaluatorKind: "exact-match",
      oracle: true,
      details: { prediction: null, normalizedPrediction: null, normalizedGold: "river sallow", f1: 0, precision: 0, recall: 0 },
    });
  });

  it("passes the answer A against the gold answer A, and says how it compared them", () => {
    const letter = { ...task, answer: "A" };
    const verdict = evaluateQa(letter, "a");
    expect(verdict).toMatchObject({ verdict: "pass", score: 1, details: { normalizedGold: "a", normalizedPrediction: "a" } });
    expect(evaluateQa(letter, "The")).toMatchObject({ verdict: "fail", score: 0 });
    expect(evaluateQa(letter, "The").feedback).not.toMatch(/empty after normalisation/);
  });

  it("passes a decomposed answer against a precomposed gold answer", () => {
    const zurich = { ...task, answer: "Z\u00fcrich" };
    expect(evaluateQa(zurich, "Zu\u0308rich")).toMatchObject({ verdict: "pass", score: 1, details: { f1: 1 } });
  });

  it("fails an answer that normalises to nothing, saying why", () => {
    const verdict = evaluateQa(task, "The.");
    expect(verdict.verdict).toBe("fail");
    expect(verdict.feedback).toMatch(/empty after normalisation/);
  });
});
