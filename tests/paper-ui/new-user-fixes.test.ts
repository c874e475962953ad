import { QueryClient } from "@tanstack/react-query";
import { createElement, type ReactElement } from "react";
import { describe, expect, it } from "vitest";
import type { ArmResult } from "@/lib/domain/experiment";
import { foldRun } from "@/lib/domain/fold-run";
import type { Provenance } from "@/lib/domain/provenance";
import { queryKeys } from "@/lib/query";
import { NOT_RECORDED, provenanceTitle, RecordedBadge, UNVERIFIED_NOTE } from "@/components/provenance";
import { ArmTable } from "@/components/experiments/arm-table";
import { endLabelMargin, SuccessCurves, yAxisLabel } from "@/components/experiments/success-curves";
import { ForkDialog, modelEditsFor, type ForkTarget } from "@/components/run/fork-dialog";
import { RunHeader } from "@/components/run/run-header";
import { TWO_MODELS } from "../graph/fixtures";
import { importedLog as importedLogOf, importedRunDetail as detail, paperProvenance, renderWithProviders } from "./fixtures";

/**
 * The paper's runs as a new user meets them: the fork of an imported run picks a
 * model, a fork branch's badge says it is a fork, unverified uploads say so,
 * imported runs show "not recorded" instead of zero calls / tokens / cost, and
 * the overlay's axis is neutral when the families differ.
 */


const provenance = paperProvenance();
const importedLog = (forked: boolean) => importedLogOf(provenance, forked, "x");

const decode = (html: string) => html.replace(/&#x27;/g, "'").replace(/&amp;/g, "&").replace(/&quot;/g, '"');
const render = (element: ReactElement, client?: QueryClient): string => decode(renderWithProviders(element, client));




function header(forked: boolean): string {
  return render(
    createElement(RunHeader, {
      runId: "run-1",
      branch: forked ? "branch-2" : null,
      branchRows: [],
      currentBranchId: forked ? "branch-2" : "branch-1",
      onSelectBranch: () => undefined,
      detail,
      state: foldRun(importedLog(forked).events),
      status: forked ? "paused" : "ended",
      activeCall: null,
      connection: "closed",
    }),
  );
}

const target: ForkTarget = {
  nodeKind: "reflection",
  point: { atSeq: 8, trial: 1, checkpointId: "e8" },
  reflection: { eventId: "e8", textAtFork: "Compare the founding years.", currentText: "Compare the founding years." },
};

function forkDialog(withProvenance: boolean): string {
  const client = new QueryClient();
  client.setQueryData(queryKeys.models(), TWO_MODELS);
  return render(
    createElement(ForkDialog, { runId: "run-1", fromBranchId: null, target, onClose: () => undefined, onForked: () => undefined, provenance: withProvenance ? provenance : null }),
    client,
  );
}

describe("forking an imported run", () => {
  it("offers the app's models, the demo model picked and labelled as the scripted stand-in, and names the logged model", () => {
    const html = forkDialog(true);
    expect(html).toContain('data-testid="fork-model"');
    expect(html).toMatch(/<option value="demo" selected="">Demo \(scripted stand-in, offline\)<\/option>/);
    expect(html).toContain('<option value="openai:gpt-4o-mini">GPT-4o mini</option>');
    expect(html).toContain("The authors logged text-davinci-003");
    // Recorded / Live and the reflection text are still there.
    expect(html).toContain('data-testid="fork-replay-live"');
    expect(html).toContain('data-testid="fork-reflection-text"');
  });

  it("sends a model edit for both roles", () => {
    expect(modelEditsFor("demo")).toEqual([
      { kind: "model", role: "actor", modelId: "demo" },
      { kind: "model", role: "reflector", modelId: "demo" },
    ]);
  });

  it("an ordinary run's dialog is unchanged (no model picker)", () => {
    const html = forkDialog(false);
    expect(html).not.toContain("fork-model");
    expect(html).toContain('data-testid="fork-replay-recorded"');
  });
});

describe("the badge of an imported run", () => {
  it("on the recorded branch: the authors' run and the logged model; on a fork: 'Forked from the authors' 2023 run'", () => {
    const root = header(false);
    expect(root).toContain("Recorded by the authors, 2023");
    expect(root).toContain("· text-davinci-003");
    const fork = header(true);
    expect(fork).toContain("Forked from the authors' 2023 run");
    expect(fork).not.toContain("Recorded by the authors, 2023");
    expect(fork).not.toContain("· text-davinci-003");
    expect(fork).toContain('data-forked="true"');
  });

  it("says 'uploaded copy — not verified' only when verified is false (missing: unknown, nothing said)", () => {
    const unverified = { ...provenance, verified: false } as Provenance;
    const html = render(createElement(RecordedBadge, { provenance: unverified }));
    expect(html).toContain(UNVERIFIED_NOTE);
    expect(provenanceTitle(unverified)).toContain(UNVERIFIED_NOTE);
    expect(render(createElement(RecordedBadge, { provenance }))).not.toContain(UNVERIFIED_NOTE);
    expect(render(createElement(RecordedBadge, { provenance: { ...provenance, verified: true } as Provenance }))).not.toContain(UNVERIFIED_NOTE);
  });
});

describe("calls, tokens and cost of imported runs", () => {
  it("the run header shows '—' titled 'not recorded in the published log' instead of 0 / $0", () => {
    const html = header(false);
    expect(html).toMatch(/data-testid="run-totals" data-unrecorded="true"/);
    expect(html).toContain(`title="${NOT_RECORDED}"`);
    expect(html).not.toContain("$0");
  });

  function arm(calls: number): ArmResult {
    return {
      label: "ReAct + Reflexion",
      strategy: "reflexion",
      modelId: "text-davinci-003",
      tasks: 100,
      trials: 5,
      successByTrial: [32, 42, 48, 50, 51],
      finished: 100,
      calls: { live: calls, cached: 0 },
      tokens: { input: calls * 10, output: calls },
      costUsd: calls === 0 ? 0 : 0.01,
      costByRole: { acting: 0, evaluating: 0, reflecting: 0 },
      costToFirstSuccessUsd: null,
      falsePositives: 0,
      halts: 0,
    };
  }

  it("the arm table of an imported experiment shows 'not recorded' instead of zeros; an ordinary one keeps its zeros", () => {
    const recorded = render(createElement(ArmTable, { arms: [arm(0)], environment: "qa", recorded: true }));
    expect(recorded).toContain(`title="${NOT_RECORDED}"`);
    expect(recorded).not.toContain("0 live / 0 cached");
    expect(recorded).not.toContain("$0");
    const ordinary = render(createElement(ArmTable, { arms: [arm(0)], environment: "qa" }));
    expect(ordinary).toContain("0 live / 0 cached");
    expect(ordinary).not.toContain(NOT_RECORDED);
    // A fork's live calls in an imported experiment are shown as usual.
    expect(render(createElement(ArmTable, { arms: [arm(3)], environment: "qa", recorded: true }))).toContain("3 live / 0 cached");
  });
});

describe("the success curves", () => {
  it("name no family's metric on the y axis when the families differ", () => {
    expect(yAxisLabel(null)).toBe("tasks solved (%, cumulative)");
    expect(yAxisLabel("EM")).toBe("EM: tasks solved");
  });

  it("leave room on the right for the longest end label (cut at endLabelMax) and its percentage", () => {
    const long = [{ label: "ReAct + Reflexion (HotpotQA ReAct + Reflexion, text-davinci-003)" }];
    // 24 characters + " 100%" at 12px semibold, 8px from the last point.
    expect(endLabelMargin(long, 24)).toBeGreaterThanOrEqual((24 + 5) * 7.2 + 8);
    expect(endLabelMargin([{ label: "ReAct" }], 24)).toBeLessThan(endLabelMargin(long, 24));
  });

  it("renders with a mixed-family caption", () => {
    const html = render(
      createElement(SuccessCurves, {
        arms: [{ ...({} as ArmResult), label: "A", strategy: "reflexion", modelId: "m", tasks: 1, trials: 1, successByTrial: [1], finished: 1 } as ArmResult],
        environment: "qa",
        mixedFamilies: true,
      }),
    );
    expect(html).toContain("(%, cumulative)");
    expect(html).not.toContain("(EM, cumulative)");
  });
});
