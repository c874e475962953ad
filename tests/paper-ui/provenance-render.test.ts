import { createElement } from "react";
import { describe, expect, it } from "vitest";
import type { RunStatus } from "@/lib/domain/api";
import { foldRun } from "@/lib/domain/fold-run";
import { isRecordedBranch, provenanceTitle, READ_ONLY_NOTE } from "@/components/provenance";
import { RunHeader } from "@/components/run/run-header";
import { SteerPanel } from "@/components/run/steer-panel";
import { EventLog, makeRunConfig } from "../graph/fixtures";
import { importedLog as importedLogOf, importedRunDetail as detail, paperProvenance, renderWithProviders as render } from "./fixtures";

const provenance = paperProvenance(["Reflections were printed on the question line (older template)."]);
/** An imported run: trial 1 fails and is reflected on; optionally forked after the reflection. */
const importedLog = (forked: boolean) => importedLogOf(provenance, forked);

/**
 * An imported run (config.provenance set) renders like any other run, with the
 * "Recorded by the authors, 2023" badge, and no steering on the recorded
 * branch: the controls give way to the read-only note; a fork of it is live.
 */





function header(forked: boolean, status: RunStatus): string {
  return render(
    createElement(RunHeader, {
      runId: "run-1",
      branch: forked ? "branch-2" : null,
      branchRows: [],
      currentBranchId: forked ? "branch-2" : "branch-1",
      onSelectBranch: () => undefined,
      detail,
      state: foldRun(importedLog(forked).events),
      status,
      activeCall: null,
      connection: "closed",
    }),
  );
}

const decode = (html: string) => html.replace(/&#x27;/g, "'").replace(/&amp;/g, "&").replace(/&quot;/g, '"');

describe("an imported run's header", () => {
  it("shows the badge with model, source and notes in its title, and the read-only note instead of Pause / Resume / Cancel", () => {
    const html = decode(header(false, "ended"));
    expect(html).toContain('data-testid="recorded-badge"');
    expect(html).toContain("Recorded by the authors, 2023");
    expect(html).toContain(`title="${provenanceTitle(provenance)}"`);
    expect(provenanceTitle(provenance)).toMatch(/Model: text-davinci-003\nSource: reflexion\/hotpotqa_runs\/.*\nNote: Reflections were printed/);
    expect(html).toContain(READ_ONLY_NOTE);
    for (const control of ["pause-run", "resume-run", "step-run", "cancel-run", "breakpoints-toggle"]) expect(html).not.toContain(`data-testid="${control}"`);
    // It still renders like any run: the trial strip folds the recorded trial.
    expect(html).toMatch(/data-testid="trial-chip" data-trial="1" data-outcome="failure"/);
  });

  it("a fork of it continues live: the controls are back, the badge stays (the config says where it started)", () => {
    const html = header(true, "paused");
    expect(html).toContain('data-testid="resume-run"');
    expect(html).not.toContain('data-testid="read-only-note"');
    expect(html).toContain('data-testid="recorded-badge"');
  });

  it("a run made here has neither badge nor note", () => {
    const log = new EventLog();
    log.add("run-start", { config: makeRunConfig() });
    const html = render(
      createElement(RunHeader, { runId: "run-1", branch: null, branchRows: [], currentBranchId: "branch-1", onSelectBranch: () => undefined, detail, state: foldRun(log.events), status: "paused", connection: "closed" }),
    );
    expect(html).not.toContain("recorded-badge");
    expect(html).not.toContain("read-only-note");
    expect(html).toContain('data-testid="resume-run"');
  });

  it("isRecordedBranch: imported and not a fork", () => {
    expect(isRecordedBranch(provenance, null)).toBe(true);
    expect(isRecordedBranch(provenance, { forkSeq: 3 })).toBe(false);
    expect(isRecordedBranch(null, null)).toBe(false);
  });

  it("isRecordedBranch: every branch that came in a bundle is recorded, forks made here are not", () => {
    const bundled = { ...provenance, kind: "bundle" as const, recordedBy: "bundle" as const, bundleBranchIds: ["branch-1", "branch-2"] };
    expect(isRecordedBranch(bundled, null, "branch-1")).toBe(true);
    expect(isRecordedBranch(bundled, { forkSeq: 3 }, "branch-2")).toBe(true);
    expect(isRecordedBranch(bundled, { forkSeq: 3 }, "branch-9")).toBe(false);
    // The root (no id at hand): recorded, as before.
    expect(isRecordedBranch(bundled, null)).toBe(true);
  });
});

describe("the Steer tab of an imported run", () => {
  it("offers no edit even if the recorded branch were paused, and says to fork", () => {
    const html = render(createElement(SteerPanel, { runId: "run-1", branch: null, state: foldRun(importedLog(false).events), status: "paused" }));
    expect(html).toContain(READ_ONLY_NOTE);
    expect(html).not.toContain('data-testid="inject-action"');
    expect(html).not.toMatch(/The run is paused: change what happens next/);
  });

  it("a fork's Steer tab edits as usual", () => {
    const html = render(createElement(SteerPanel, { runId: "run-1", branch: "branch-2", state: foldRun(importedLog(true).events), status: "paused" }));
    expect(html).not.toContain('data-testid="read-only-note"');
    expect(html).toMatch(/The run is paused: change what happens next/);
    expect(html).toContain('data-testid="inject-action"');
  });
});
