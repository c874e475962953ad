import { describe, expect, it } from "vitest";
import { countedTrialOutcome } from "@/lib/domain/experiment-trial-rows";

describe("countedTrialOutcome: a trial as the experiment summary counts it", () => {
  it("success only at the cell's solvedAtTrial; a code false positive (internal pass, run failed) is a failure", () => {
    expect(countedTrialOutcome({ solvedAtTrial: 2, outcome: "success" }, { trial: 2, outcome: "success" })).toBe("success");
    expect(countedTrialOutcome({ solvedAtTrial: 2, outcome: "success" }, { trial: 1, outcome: "failure" })).toBe("failure");
    expect(countedTrialOutcome({ solvedAtTrial: null, outcome: "failure" }, { trial: 1, outcome: "success" })).toBe("failure");
    expect(countedTrialOutcome({ solvedAtTrial: null, outcome: "failure" }, { trial: 3, outcome: "halted" })).toBe("failure");
  });

  it("open while the trial or the run's verdict on it is; cancelled for the trial a cancel cut short", () => {
    expect(countedTrialOutcome({ solvedAtTrial: null, outcome: null }, { trial: 1, outcome: null })).toBeNull();
    expect(countedTrialOutcome({ solvedAtTrial: null, outcome: null }, { trial: 1, outcome: "success" })).toBeNull();
    expect(countedTrialOutcome({ solvedAtTrial: null, outcome: null }, { trial: 1, outcome: "failure" })).toBe("failure");
    expect(countedTrialOutcome({ solvedAtTrial: null, outcome: "cancelled" }, { trial: 2, outcome: null })).toBe("cancelled");
  });
});
