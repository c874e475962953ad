import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  EMPTY_PREDICTION_DEVIATION,
  NFC_DEVIATION,
  compareScores,
  findHotpotQaLogs,
  formatAgreement,
  officialScores,
  pairsOfLog,
  type QaPair,
} from "@/scripts/agreement-qa-core";
import { HOTPOTQA_RUNS_ROOT } from "./paper-logs";

// The core of `npm run agreement:qa` on a small sample: hand-made pairs that hit every rule
// of hotpot_evaluate_v1 (and our one EM deviation), and the first trial of one paper log.

const pair = (prediction: string, gold: string, loggedCorrect = false): QaPair => ({ file: "sample", line: 1, trial: 1, prediction, gold, loggedCorrect });

describe("agreement:qa core", () => {
  it("agrees with the Python oracle on the normalisation's corner cases, and explains the empty-prediction deviation", () => {
    const pairs = [
      pair("The River Sallow.", "river sallow"),
      pair("Barack Obama", "Obama"),
      pair("new new york", "new york"),
      pair("yes", "yes it is"),
      pair("No.", "no"),
      pair("Jonny\" Craig", "Jonny Craig"),
      pair("1920–1930", "1920"),
      pair("Ærøskøbing, the Danish town", "ærøskøbing"),
      pair("\u200bSallow", "sallow"),
      pair("the", "a"), // both normalise to "": the official EM is true, ours is not
      pair("A", "A"), // both normalise to "": both EMs are true (ours compares "a" with "a")
    ];
    const official = officialScores(pairs);
    expect(official.map((scores) => scores.em)).toEqual([true, false, false, false, true, true, false, false, false, true, true]);
    expect(official[1]?.f1).toBeCloseTo(2 / 3, 15);
    const report = compareScores(pairs, official, 1, 0);
    expect(report.f1Agreements).toBe(pairs.length);
    expect(report.emAgreements).toBe(pairs.length - 1);
    expect(report.differences).toHaveLength(1);
    expect(report.differences[0]).toMatchObject({ metric: "em", ours: false, official: true, explanation: EMPTY_PREDICTION_DEVIATION });
    expect(formatAgreement(report)).toContain("1 explained by a documented deviation, 0 unexplained");
  });

  it("explains a match found only after Unicode NFC", () => {
    const pairs = [pair("Zu\u0308rich", "Z\u00fcrich"), pair("Z\u00fcrich", "Z\u00fcrich")];
    const official = officialScores(pairs);
    expect(official.map((scores) => scores.em)).toEqual([false, true]);
    const report = compareScores(pairs, official, 1, 0);
    expect(report.differences.filter((difference) => difference.metric === "em")).toMatchObject([{ ours: true, official: false, explanation: NFC_DEVIATION }]);
  });

  it("flags a difference no deviation explains", () => {
    const pairs = [pair("obama", "obama")];
    const forged = [{ em: false, f1: 0.5, precision: 0.5, recall: 0.5, normalizedPrediction: "obama", normalizedGold: "obama" }];
    const report = compareScores(pairs, forged, 1, 0);
    expect(report.differences.map((difference) => [difference.metric, difference.explanation])).toEqual([
      ["em", null],
      ["f1", null],
    ]);
    expect(formatAgreement(report)).toContain("UNEXPLAINED");
  });

  it("reads a paper log's pairs with the importer's parser and agrees on its first trial", () => {
    const files = findHotpotQaLogs(HOTPOTQA_RUNS_ROOT);
    expect(files.length).toBe(7);
    const file = files.find((candidate) => candidate.includes(path.join("ReAct", "base")));
    expect(file).toBeDefined();
    const { pairs, unanswered } = pairsOfLog("ReAct/base", readFileSync(file ?? "", "utf8"));
    const firstTrial = pairs.filter((candidate) => candidate.trial === 1);
    // Trial 1 lists all 100 questions; the halted ones have no Finish and so no pair.
    expect(firstTrial.length + unanswered).toBeGreaterThanOrEqual(100);
    const report = compareScores(firstTrial, officialScores(firstTrial), 1, 0);
    expect(report.differences).toEqual([]);
    expect(report.loggedAgreements).toBe(firstTrial.length);
  });
});
