import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { pairedExactTest } from "@/lib/domain/paired-test";
import type { AbResult, TemplateListItem, VersionDetailResponse } from "@/lib/domain/template-library";
import { memorySummaries, memorySummaryLine } from "@/lib/graph/memory-summaries";
import { templateInForce } from "@/lib/graph/template-in-force";
import { defaultPreviewRun, previewTrials, recordedCall, sameMessages } from "@/lib/query/template-preview";
import { templateKeys } from "@/lib/query/template-queries";
import { AbResultSection } from "@/components/templates/ab-result";
import { TemplateLibrary } from "@/components/templates/template-library";
import { hasTemplateChoice, templateEditsOf } from "@/components/templates/fork-template-choice";
import { MemoryPanel } from "@/components/memory/memory-panel";
import { emptyRunEventsCache } from "@/lib/query/merge-events";
import { queryKeys } from "@/lib/query/keys";
import { EventLog, makeRunConfig } from "../graph/fixtures";

/** Which version produced a prompt, the preview's trial choices, memory summaries, and the library and A/B views rendered from API data. */

const textOf = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
const render = (client: QueryClient, element: ReactElement) => renderToStaticMarkup(createElement(QueryClientProvider, { client }, element));

/** Trial 1 (one step, fails, reflection), a prompt edit of the reflector, trial 2 with a memory summary before it. */
function runWithEditAndSummary() {
  const log = new EventLog();
  const config = makeRunConfig({
    templates: {
      actor: { id: "qa/react-actor", version: 1, text: "Solve {question}", versionId: "tv-actor-1" },
      reflector: { id: "qa/reflect", version: 1, text: "Reflect on {scratchpad}", versionId: "tv-reflect-1" },
    },
    memoryManagement: { kind: "summarize", tokenBudget: 50, summarizer: { id: "qa/summarize-memory", version: 1, text: "Merge {memory}", versionId: "tv-sum-1" } },
  });
  log.add("run-start", { config });
  log.add("trial-start", { trial: 1, memory: [], evicted: [] });
  log.step(1, 1, "Search first.", { text: "Search[Arthur's Magazine]", type: "Search", argument: "Arthur's Magazine" }, { text: "Arthur's Magazine (1844–1846)…" });
  log.add("evaluation-end", { trial: 1, verdict: "fail", score: 0, feedback: "No answer.", evaluatorKind: "exact-match", oracle: true, details: {} });
  log.add("trial-end", { trial: 1, outcome: "failure", reason: "wrong answer" });
  const firstReflector = log.call("reflector", 1, null, "Reflect on the failed trial", "Use Finish.");
  const firstReflectorEvent = log.events.at(-1)!;
  const reflection = log.add("reflection-end", { trial: 1, text: "Use Finish.", callId: firstReflector });
  const edited = { ...config.templates.reflector, version: 2, text: "Reflect harder on {scratchpad}", versionId: null };
  log.add("prompt-edit", { role: "reflector", oldTemplate: config.templates.reflector, newTemplate: edited, note: null });
  const summaryCall = log.call("reflector", 2, null, "Merge the memory", "Always Finish.");
  const summaryEvent = log.events.at(-1)!;
  log.add("memory-summary", {
    trial: 2,
    before: [{ id: reflection.id, text: "Use Finish.", trial: 1 }],
    after: [{ id: "e-summary", text: "Always Finish.", trial: null }],
    callId: summaryCall,
    tokenBudget: 50,
    beforeTokens: 60,
    afterTokens: 4,
  });
  log.add("trial-start", { trial: 2, memory: [{ id: "e-summary", text: "Always Finish.", trial: null }], evicted: [] });
  log.step(2, 1, "Finish now.", { text: "Finish[Arthur's Magazine]", type: "Finish", argument: "Arthur's Magazine" }, { text: "Episode finished", done: true, answer: "Arthur's Magazine" });
  const secondActorEvent = log.events.find((event) => event.type === "model-call-end" && event.data.role === "actor" && event.data.trial === 2)!;
  return { log, firstReflectorEvent, summaryEvent, secondActorEvent };
}

describe("which template version produced a prompt", () => {
  it("is the run-start version until a prompt edit of that role, then the edited text (no library version)", () => {
    const { log, firstReflectorEvent, secondActorEvent } = runWithEditAndSummary();
    expect(templateInForce(log.events, firstReflectorEvent.id)).toMatchObject({ purpose: "reflector", edits: 0, template: { versionId: "tv-reflect-1" } });
    // The Actor was never edited.
    expect(templateInForce(log.events, secondActorEvent.id)).toMatchObject({ purpose: "actor", edits: 0, template: { versionId: "tv-actor-1" } });
    // A later reflector call sees the edit.
    const later = log.call("reflector", 2, null, "Reflect", "…");
    const laterEvent = log.events.find((event) => event.type === "model-call-end" && event.data.callId === later)!;
    expect(templateInForce(log.events, laterEvent.id)).toMatchObject({ purpose: "reflector", edits: 1, template: { versionId: null, version: 2 } });
  });

  it("is the summariser's template for the Self-Reflection call that wrote a memory summary", () => {
    const { log, summaryEvent } = runWithEditAndSummary();
    expect(templateInForce(log.events, summaryEvent.id)).toMatchObject({ purpose: "summarizer", template: { id: "qa/summarize-memory", versionId: "tv-sum-1" } });
  });

  it("is unknown for a call that is not in the log", () => {
    expect(templateInForce(runWithEditAndSummary().log.events, "nope")).toBeNull();
  });
});

describe("the preview's choices and check", () => {
  it("opens a Self-Reflection preview on the newest run with a failed trial, any other role on the newest run", () => {
    const runs = [
      { id: "solved-first", trials: 1, outcome: "success" },
      { id: "reflected", trials: 2, outcome: "success" },
      { id: "older", trials: 1, outcome: "failure" },
    ];
    expect(defaultPreviewRun(runs, "reflector")?.id).toBe("reflected");
    expect(defaultPreviewRun(runs, "actor")?.id).toBe("solved-first");
    expect(defaultPreviewRun(runs.slice(0, 1), "reflector")?.id).toBe("solved-first");
    expect(defaultPreviewRun([], "reflector")).toBeNull();
  });

  it("offers every trial to the Actor, failed ones to the Self-Reflection, and finds the recorded call to compare with", () => {
    const { log } = runWithEditAndSummary();
    const state = foldRun(log.events);
    expect(previewTrials(state, "actor").map((trial) => trial.trial)).toEqual([1, 2]);
    expect(previewTrials(state, "reflector").map((trial) => trial.trial)).toEqual([1]);
    const actor = recordedCall(state, "actor", 2, 1);
    expect(actor?.trial).toBe(2);
    expect(recordedCall(state, "actor", 2, 2)).toBeNull();
    expect(recordedCall(state, "reflector", 1, 1)?.outputText).toBe("Use Finish.");
    expect(sameMessages(actor!.messages, [...actor!.messages])).toBe(true);
    expect(sameMessages(actor!.messages, [{ role: "user", content: "other" }])).toBe(false);
  });
});

describe("memory summaries", () => {
  it("are shown in the memory panel with the reflections before and the summary after", () => {
    const { log } = runWithEditAndSummary();
    const client = new QueryClient();
    client.setQueryData(queryKeys.runEvents("run-1"), { ...emptyRunEventsCache("ended"), events: log.events, lastSeq: log.events.length });
    const html = render(client, createElement(MemoryPanel, { runId: "run-1", branch: null, state: foldRun(log.events), status: "ended" }));
    const summary = html.slice(html.indexOf('data-testid="memory-summary"'));
    expect(summary).toContain('data-trial="2"');
    expect(textOf(summary)).toContain("Before trial 2: 1 reflection (60 tokens) → 1 summary (4 tokens), budget 50 tokens");
    expect(textOf(summary.slice(summary.indexOf('data-testid="memory-summary-before"')))).toMatch(/^[^]*Trial 1: Use Finish\./);
    expect(textOf(summary.slice(summary.indexOf('data-testid="memory-summary-after"')))).toContain("Always Finish.");
  });

  it("lists each summary with its before and after, and says what it saved", () => {
    const summaries = memorySummaries(runWithEditAndSummary().log.events);
    expect(summaries).toHaveLength(1);
    expect(summaries[0]!.before.map((item) => item.text)).toEqual(["Use Finish."]);
    expect(memorySummaryLine(summaries[0]!)).toBe("1 reflection (60 tokens) → 1 summary (4 tokens), budget 50 tokens");
  });
});

const builtIn: TemplateListItem = {
  id: "qa/reflect",
  name: "HotpotQA Self-Reflection",
  family: "qa",
  role: "reflector",
  strategy: null,
  builtIn: true,
  source: "Reflexion paper, hotpotqa_runs/prompts.py",
  labels: { baseline: "tv-b1" },
  createdAt: "2026-12-01T12:00:00.000Z",
  latestVersion: { id: "tv-b1", templateId: "qa/reflect", number: 1, parentId: null, text: "Reflect on {scratchpad}", message: "seeded", createdAt: "2026-12-01T12:00:00.000Z", builtIn: true },
  versionCount: 1,
};
const mine: TemplateListItem = {
  ...builtIn,
  id: "tpl-1",
  name: "Concrete plan",
  builtIn: false,
  source: null,
  labels: { candidate: "tv-m2" },
  latestVersion: { ...builtIn.latestVersion, id: "tv-m2", templateId: "tpl-1", number: 2, builtIn: false },
  versionCount: 2,
};

describe("the library page", () => {
  it("marks built-ins read-only with their source, and shows labels and version counts", () => {
    const client = new QueryClient();
    client.setQueryData(templateKeys.list(null, null), { templates: [mine, builtIn] });
    const html = render(client, createElement(TemplateLibrary));
    const rows = html.split('data-testid="template-row"').slice(1);
    expect(rows).toHaveLength(2);
    // Built-in first in its group.
    expect(rows[0]).toContain('data-template-id="qa/reflect"');
    expect(rows[0]).toContain("built-in · read-only");
    expect(textOf(rows[0]!)).toContain("from Reflexion paper, hotpotqa_runs/prompts.py");
    expect(rows[0]).toContain('data-label="baseline"');
    expect(textOf(rows[1]!)).toContain("2 versions · newest v2");
    expect(rows[1]).not.toContain("built-in · read-only");
    expect(rows[1]).toContain('data-label="candidate"');
    expect(html).toContain('href="/templates/qa%2Freflect"');
  });

  it("says what to do when the library is empty", () => {
    const client = new QueryClient();
    client.setQueryData(templateKeys.list(null, null), { templates: [] });
    expect(textOf(render(client, createElement(TemplateLibrary)))).toContain("the server seeds the built-in templates on start; restart it.");
  });
});

describe("the A/B result section", () => {
  it("shows the paired test with its sample size and each differing task's two reflections side by side", () => {
    const result: AbResult = {
      role: "reflector",
      armA: { label: "A: built-in v1", versionId: "tv-b1" },
      armB: { label: "B: Concrete plan v2", versionId: "tv-m2" },
      differingTasks: [
        {
          taskId: "hp-3",
          a: { solvedAtTrial: null, reflections: ["I should search.", "Search both."], runId: "run-a" },
          b: { solvedAtTrial: 2, reflections: ["Plan: Search both, then Finish."], runId: "run-b" },
        },
      ],
      pairedTest: pairedExactTest(3, 0, 1),
    };
    const client = new QueryClient();
    client.setQueryData(templateKeys.ab("exp-1", 4), result);
    const version: VersionDetailResponse = { template: { ...mine }, version: mine.latestVersion };
    client.setQueryData(templateKeys.version("tv-m2"), version);
    const html = render(client, createElement(AbResultSection, { experimentId: "exp-1", running: false, done: 4, titles: new Map([["hp-3", "Which magazine came first?"]]) }));
    const text = textOf(html);
    expect(html).toContain('data-n="3"');
    expect(text).toContain("n = 3 tasks, 0 vs 1 discordant (solved by A: built-in v1 only vs B: Concrete plan v2 only), p = 1: no evidence of a difference");
    expect(text).toContain("exact McNemar");
    const task = html.slice(html.indexOf('data-testid="ab-differing-task"'));
    expect(textOf(task)).toContain("Which magazine came first?");
    expect(task.split('data-testid="ab-arm-outcome"')).toHaveLength(3);
    expect(text).toContain("not solved");
    expect(text).toContain("solved at trial 2");
    expect(text).toContain("After trial 2:Search both.");
    expect(text).toContain("Plan: Search both, then Finish.");
    // B's version is named and linked to its template.
    expect(html).toContain('href="/templates/tpl-1"');
    expect(text).toContain("Concrete plan v2");
  });
});

describe("fork with another template version", () => {
  it("turns the picked versions into prompt edits carrying each version's text and id, and nothing when none was picked", async () => {
    const client = new QueryClient();
    const v2: VersionDetailResponse = { template: { ...mine }, version: { ...mine.latestVersion, text: "Plan one concrete step: {scratchpad}" } };
    client.setQueryData(templateKeys.version("tv-m2"), v2);
    expect(hasTemplateChoice({ actor: "", reflector: "tv-m2" })).toBe(true);
    expect(hasTemplateChoice({ actor: "" })).toBe(false);
    const edits = await templateEditsOf(client, { actor: "", reflector: "tv-m2" });
    expect(edits).toEqual([{ kind: "prompt", role: "reflector", text: "Plan one concrete step: {scratchpad}", versionId: "tv-m2", note: "fork with template version tv-m2" }]);
    expect(await templateEditsOf(client, {})).toEqual([]);
  });
});
