import { describe, expect, it } from "vitest";
import { demoOnImportedWarning, referenceLabel, runIntro } from "@/components/home/family-texts";

// The new-run form speaks of household tasks in household terms — the Evaluator is
// the world's success check, not a gold answer or exact match.

describe("household wording in the new-run form", () => {
  it("never speaks of a gold answer or exact match for household tasks", () => {
    for (const text of [runIntro("household"), referenceLabel("household"), demoOnImportedWarning("household")]) {
      // "Gold answer" only in a denial ("not a gold answer", "no gold answer").
      expect(text.replace(/\b(?:not a|no) gold answer/g, "")).not.toMatch(/gold answer|exact.match|question/i);
    }
    expect(runIntro("household")).toMatch(/world's own success check/);
    expect(runIntro("household")).toMatch(/think: /);
    expect(referenceLabel("household")).toMatch(/goal/);
    expect(referenceLabel("household")).toMatch(/no gold answer/);
  });

  it("keeps QA's gold answer and exact match, and names F1", () => {
    expect(referenceLabel("qa")).toMatch(/gold answer.*exact-match/);
    expect(runIntro("qa")).toMatch(/exact match \(EM\).*F1/);
    expect(demoOnImportedWarning("qa")).toMatch(/'unknown'/);
  });
});
