import { describe, expect, it } from "vitest";
import { evaluateQa } from "@/lib/environments/qa/exact-match";
import { f1FromNormalized, f1Score } from "@/lib/environments/qa/f1";
import { parseQaTask } from "@/lib/environments/qa/task";

// Every expected value below is worked out by hand from hotpot_evaluate_v1's f1_score:
// precision = overlap / |prediction tokens|, recall = overlap / |gold tokens|, F1 = 2PR / (P + R).

describe("f1Score (hotpot_evaluate_v1 f1_score)", () => {
  it("is 1 for answers equal after normalisation", () => {
    expect(f1Score("The River Sallow.", "river sallow")).toEqual({ f1: 1, precision: 1, recall: 1 });
  });

  it("scores a partial overlap: 'barack obama' vs 'obama' → P 1/2, R 1, F1 2/3", () => {
    const scores = f1Score("Barack Obama", "Obama");
    expect(scores.precision).toBe(0.5);
    expect(scores.recall).toBe(1);
    expect(scores.f1).toBeCloseTo(2 / 3, 15);
  });

  it("drops articles and punctuation before counting: 'the cat, a dog' vs 'dog cat bird' → P 1, R 2/3, F1 0.8", () => {
    const scores = f1Score("the cat, a dog", "dog cat bird");
    expect(scores.precision).toBe(1);
    expect(scores.recall).toBeCloseTo(2 / 3, 15);
    expect(scores.f1).toBeCloseTo(0.8, 15);
  });

  it("counts repeated tokens as a multiset (Counter &): 'new new york' vs 'new york' → overlap 2, P 2/3, R 1, F1 0.8", () => {
    const scores = f1Score("new new york", "new york");
    expect(scores.precision).toBeCloseTo(2 / 3, 15);
    expect(scores.recall).toBe(1);
    expect(scores.f1).toBeCloseTo(0.8, 15);
    // The other way round: gold repeats, the prediction's one "new" matches once: P 1, R 1/2, F1 2/3.
    const reverse = f1Score("new", "new new");
    expect(reverse).toEqual({ f1: (2 * 1 * 0.5) / 1.5, precision: 1, recall: 0.5 });
  });

  it("applies the yes/no/noanswer special case: any difference scores 0 even with token overlap", () => {
    expect(f1Score("yes", "yes it is")).toEqual({ f1: 0, precision: 0, recall: 0 });
    expect(f1Score("no way", "no")).toEqual({ f1: 0, precision: 0, recall: 0 });
    expect(f1Score("noanswer", "noanswer given")).toEqual({ f1: 0, precision: 0, recall: 0 });
    expect(f1Score("No.", "no")).toEqual({ f1: 1, precision: 1, recall: 1 });
    // Not special: "yes sir" vs "yes ma'am" → normalised "yes sir" / "yes maam", overlap 1: P 1/2, R 1/2, F1 1/2.
    expect(f1Score("yes sir", "yes ma'am")).toEqual({ f1: 0.5, precision: 0.5, recall: 0.5 });
  });

  it("scores empty predictions 0, as the official script does (no tokens, no overlap)", () => {
    expect(f1Score("", "anything")).toEqual({ f1: 0, precision: 0, recall: 0 });
    expect(f1Score("the", "")).toEqual({ f1: 0, precision: 0, recall: 0 });
    expect(f1FromNormalized("", "")).toEqual({ f1: 0, precision: 0, recall: 0 });
  });

  it("keeps Unicode dashes and quotes as part of tokens (only ASCII punctuation goes)", () => {
    // "1920–1930" keeps its en dash: one token, no overlap with "1920".
    expect(f1Score("1920–1930", "1920")).toEqual({ f1: 0, precision: 0, recall: 0 });
    // "1920-1930" loses its hyphen: "19201930", still no overlap.
    expect(f1Score("1920-1930 era", "era")).toEqual({ f1: 2 / 3, precision: 0.5, recall: 1 });
  });
});

describe("evaluateQa reports F1 next to EM", () => {
  const task = parseQaTask({ id: "t", question: "Who?", answer: "Barack Obama", paragraphs: [{ title: "Obama", sentences: ["Barack Obama is a person."] }], supportingTitles: ["Obama"] });

  it("adds f1, precision and recall to the evaluation details without changing the verdict", () => {
    const verdict = evaluateQa(task, "Obama");
    expect(verdict.verdict).toBe("fail");
    expect(verdict.details).toMatchObject({ f1: 2 / 3, precision: 1, recall: 0.5 });
  });

  it("reports 0 when the trial ended without an answer", () => {
    expect(evaluateQa(task, null).details).toMatchObject({ f1: 0, precision: 0, recall: 0 });
  });
});
