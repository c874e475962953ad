import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ArmResult, ExperimentSummary } from "@/lib/domain/experiment";
import type { Provenance } from "@/lib/domain/provenance";
import { prefillFromExperiment, runTheseTasksHref } from "@/lib/query/experiment-prefill";
import { finalBars, hasCurves, overlayEnvironment, overlayHref, overlaySeries, parseOverlayIds, sharedLabelPrefix } from "@/lib/query/overlay-series";
import { reflectionsPath } from "@/lib/query/paper-queries";
import { FinalBars } from "@/components/experiments/final-bars";
import { groupByFamily, formatBytes } from "@/components/imports/importable-files";
import { PaperFigures } from "@/components/imports/paper-figures";
import { ReflectionCard } from "@/components/reflections/reflection-card";
import { runNodeHref } from "@/components/reflections/focus-node-from-url";

/**
 * The overlay's series and bars (the paper's arms on one chart), the
 * "run these tasks yourself" prefill, the import list's grouping and a
 * reflection card, rendered to static markup.
 */

const render = (element: ReactElement) => renderToStaticMarkup(createElement(QueryClientProvider, { client: new QueryClient() }, element));

function arm(label: string, successByTrial: number[], tasks: number, strategy: ArmResult["strategy"] = "reflexion"): ArmResult {
  return {
    label,
    strategy,
    modelId: "text-davinci-003",
    tasks,
    trials: successByTrial.length,
    successByTrial,
    finished: tasks,
    calls: { live: 0, cached: 0 },
    tokens: { input: 0, output: 0 },
    costUsd: null,
    costByRole: { acting: null, evaluating: null, reflecting: null },
    costToFirstSuccessUsd: null,
    falsePositives: 0,
    halts: 0,
  };
}

const provenance = (label: string): Provenance => ({ kind: "paper-log", label, source: `reflexion/${label}.txt`, recordedBy: "authors", year: 2023, model: "gpt-4", notes: [], logSummary: null });

function summary(id: string, name: string, environment: "qa" | "household" | "code", arms: ArmResult[], recorded: boolean): ExperimentSummary {
  return {
    experiment: {
      id,
      createdAt: "2026-12-01T00:00:00.000Z",
      taskSetName: "paper",
      provenance: recorded ? provenance(name) : null,
      definition: {
        name,
        environment,
        taskSet: "set-1",
        taskIds: Array.from({ length: arms[0]!.tasks }, (_, i) => `t${i}`),
        arms: arms.map((a) => ({ label: a.label, strategy: a.strategy, modelId: a.modelId, maxTrials: a.trials })),
        maxTrials: 5,
        concurrency: 4,
      },
    },
    status: "ended",
    progress: { total: arms.length * arms[0]!.tasks, done: arms.length * arms[0]!.tasks, etaMs: null },
    arms,
    cells: [],
  };
}

describe("overlay series", () => {
  it("keeps unique arm labels, names the experiment where two arms share one, keeps each arm's trials and task count", () => {
    const series = overlaySeries([
      summary("a", "HotpotQA ReAct", "qa", [arm("ReAct", [34, 34, 34, 34, 34], 100, "none")], true),
      summary("b", "HotpotQA ReAct + Reflexion", "qa", [arm("ReAct + Reflexion", [32, 42, 48, 50, 51], 100)], true),
      summary("c", "Mine", "qa", [arm("ReAct", [1, 2], 3, "none")], false),
    ]);
    expect(series.map((s) => s.label)).toEqual(["ReAct (HotpotQA ReAct)", "ReAct + Reflexion", "ReAct (Mine)"]);
    expect(series.map((s) => s.recorded)).toEqual([true, true, false]);
    expect(overlayEnvironment(series)).toBe("qa");
    expect(hasCurves(series)).toBe(true);
    expect(finalBars(series).map((b) => [b.solved, b.tasks, b.percent])).toEqual([
      [34, 100, 34],
      [51, 100, 51],
      [2, 3, 66.7],
    ]);
  });

  it("mixed families have no one metric; one-trial logs draw bars only", () => {
    const rust = overlaySeries([
      summary("r1", "Rust full", "code", [arm("HumanEval-Rs hard 50: Reflexion", [34], 50)], true),
      summary("r2", "Rust no test generation", "code", [arm("HumanEval-Rs hard 50: No test generation", [26], 50)], true),
    ]);
    // The prefix all four ablation labels share is left out; one label alone keeps it.
    expect(rust.map((s) => s.label)).toEqual(["Reflexion", "No test generation"]);
    expect(sharedLabelPrefix(["A: x", "A: y"])).toBe("A: ");
    expect(sharedLabelPrefix(["A: x", "B: y"])).toBe("");
    expect(sharedLabelPrefix(["A: x"])).toBe("");
    expect(sharedLabelPrefix(["A: ", "A: y"])).toBe("");
    expect(hasCurves(rust)).toBe(false);
    expect(overlayEnvironment([...rust, ...overlaySeries([summary("h", "ALFWorld", "household", [arm("Reflexion", [84, 130], 134)], true)])])).toBeNull();
    const html = render(createElement(FinalBars, { bars: finalBars(rust), metric: "pass@1" }));
    expect(html).toContain('data-label="Reflexion" data-solved="34" data-tasks="50"');
    expect(html).toContain("No test generation: 26/50 · 52%");
  });

  it("ids in and out of the URL", () => {
    expect(overlayHref(["a", "b", "a", ""])).toBe("/experiments/overlay?ids=a,b");
    expect(parseOverlayIds(" a, b ,,a")).toEqual(["a", "b"]);
    expect(parseOverlayIds(["a", "c,d"])).toEqual(["a", "c", "d"]);
    expect(parseOverlayIds(undefined)).toEqual([]);
    expect(parseOverlayIds(Array.from({ length: 12 }, (_, i) => `e${i}`).join(","))).toHaveLength(8);
  });
});

describe("run these tasks yourself", () => {
  it("copies the environment, task set, task ids, strategies and trial budget; labels the arms as yours", () => {
    const source = summary("exp-paper", "HotpotQA ReAct + Reflexion (paper)", "qa", [arm("ReAct + Reflexion", [32, 42, 48, 50, 51], 100)], true).experiment;
    const prefill = prefillFromExperiment(source);
    expect(prefill).toMatchObject({
      sourceId: "exp-paper",
      environment: "qa",
      taskSet: "set-1",
      maxTrials: 5,
      arms: [{ label: "You: ReAct + Reflexion", strategy: "reflexion" }],
      name: "Yours: ReAct + Reflexion on the same 100 tasks",
    });
    expect(prefill.taskIds).toEqual(source.definition.taskIds);
    expect(prefill.taskIds).toHaveLength(100);
    expect(runTheseTasksHref("exp paper")).toBe("/experiments/new?from=exp%20paper");
    const long = prefillFromExperiment({ ...source, definition: { ...source.definition, arms: [{ label: "x".repeat(60), strategy: "none", modelId: "demo" }] } });
    expect(long.arms[0]!.label).toHaveLength(60);
  });
});

describe("the import list and the reflections list", () => {
  it("groups logs by family in the paper's order and sizes them", () => {
    const file = (path: string, family: "qa" | "household" | "code") => ({ path, family, label: path, format: "hotpotqa-text" as const, sizeBytes: 1, importedExperimentId: null });
    expect(groupByFamily([file("z", "code"), file("b", "qa"), file("a", "qa"), file("h", "household")]).map((g) => [g.family, g.files.map((f) => f.path)])).toEqual([
      ["qa", ["a", "b"]],
      ["household", ["h"]],
      ["code", ["z"]],
    ]);
    expect([formatBytes(1_760_000), formatBytes(33_400), formatBytes(12)]).toEqual(["1.8 MB", "33 KB", "12 B"]);
  });

  it("links each of the paper's comparisons to the overlay once all its logs are imported", () => {
    const root = "reflexion/noahshinn-reflexion";
    const file = (p: string, id: string | null) => ({ path: `${root}/${p}`, family: "qa" as const, label: p, format: "hotpotqa-text" as const, sizeBytes: 1, importedExperimentId: id });
    const html = render(
      createElement(PaperFigures, {
        files: [
          file("hotpotqa_runs/root/ReAct/base/100_questions_5_trials.txt", "react"),
          file("hotpotqa_runs/root/ReAct/reflexion/100_questions_5_trials.txt", "reflexion"),
          file("alfworld_runs/root/base_run_logs", null),
          file("alfworld_runs/root/reflexion_run_logs", "alf"),
        ],
      }),
    );
    expect(html).toContain(`href="${overlayHref(["react", "reflexion"])}"`);
    expect(html).toMatch(/ALFWorld: ReAct only vs ReAct \+ Reflexion <span[^>]*>\(import 1 more log below\)/);
    expect(html.match(/data-testid="paper-figure"/g)).toHaveLength(2);
  });

  it("builds the API path and renders a reflection that worked with a link to the run at that reflection", () => {
    expect(reflectionsPath({ experimentId: "e 1", q: "  year ", helped: true })).toBe("/api/reflections?experimentId=e+1&q=year&helped=true");
    expect(reflectionsPath({})).toBe("/api/reflections");
    const html = render(
      createElement(ReflectionCard, {
        item: {
          reflectionEventId: "ev-9",
          text: "I should have compared the founding years.",
          originalText: "I should have compared the founding years.",
          edited: false,
          failed: { trial: 1, outcome: "failure", steps: 3, lastActions: ["Search[Arthur's Magazine]", "Finish[First for Women]"], answer: "First for Women", feedback: "Answer is INCORRECT", endReason: null },
          next: { trial: 2, outcome: "success", steps: 2, lastActions: ["Finish[Arthur's Magazine]"], answer: "Arthur's Magazine", feedback: "Answer is CORRECT", endReason: null },
          inNextMemory: true,
          verdict: "helped",
          helped: true,
          runId: "run 7",
          runTitle: "Which magazine was started first?",
          taskId: "hp-1",
          environment: "qa",
          strategy: "reflexion",
          experimentId: "e1",
          arm: "ReAct + Reflexion",
          recordedSource: "reflexion/hotpotqa.txt",
        },
      }),
    ).replace(/&#x27;/g, "'");
    expect(html).toContain('data-verdict="helped"');
    expect(html).toContain("Trial 1 failed");
    expect(html).toContain("Trial 2 succeeded");
    expect(html).toContain("Recorded by the authors");
    expect(html).toContain(`href="${runNodeHref("run 7", "ev-9")}"`);
    expect(runNodeHref("run 7", "ev-9")).toBe("/runs/run%207?node=ev-9");
  });
});
