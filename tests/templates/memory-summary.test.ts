import { afterEach, describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { DEFAULT_SUMMARIZER_TEXT, MEMORY_SUMMARY_LIST_HEADER } from "@/lib/domain/memory-summary";
import { templateVersionId } from "@/lib/db/template-store";
import type { ServerContext } from "@/lib/server/app-context";
import { buildSummarizerMessages } from "@/lib/engine/memory-summary";
import { demoMemorySummary } from "@/lib/llm/demo-model";
import { callsOf, demoContext, settled } from "./helpers";

let context: ServerContext | null = null;
afterEach(async () => {
  await context?.workers.stop();
  context = null;
});

type Summary = Extract<RunEvent, { type: "memory-summary" }>;

const UNSCRIPTED = {
  _id: "unscripted-1",
  question: "Which river flows past the village of Tarnwick Mill?",
  answer: "Lune",
  supporting_facts: [["Tarnwick Mill", 0]],
  context: [["Tarnwick Mill", ["Tarnwick Mill is a village on the River Lune."]]],
};

describe("memory summarisation", () => {
  it("over budget, the Self-Reflection model merges the reflections; the next trial sees only the summary", async () => {
    context = demoContext().context;
    // A task the demo model has no script for: it fails every trial, so the memory grows by one reflection a trial.
    const upload = await context.service.importTaskSet("qa", "unscripted.json", JSON.stringify([UNSCRIPTED]));
    const run = await context.service.createRun({ environment: "qa", taskSet: upload.taskSet.id, taskId: "unscripted-1", strategy: "reflexion", modelId: "demo", maxTrials: 4, memoryManagement: { kind: "summarize", tokenBudget: 16 } });
    const runId = run.id;
    const events = await settled(context, runId);
    expect(events.filter((event) => event.type === "memory-summary").length).toBeGreaterThanOrEqual(1);
    const config = (events[0] as Extract<RunEvent, { type: "run-start" }>).data.config;
    expect(config.memoryManagement).toEqual({ kind: "summarize", tokenBudget: 16, summarizer: { id: "qa/summarize-memory", version: 1, text: DEFAULT_SUMMARIZER_TEXT, versionId: templateVersionId("qa/summarize-memory", DEFAULT_SUMMARIZER_TEXT) } });
    const summary = events.find((event): event is Summary => event.type === "memory-summary")!;
    expect(summary.data.before.length).toBeGreaterThanOrEqual(2);
    expect(summary.data.beforeTokens).toBeGreaterThan(16);
    expect(summary.data.after).toEqual([{ id: summary.id, text: expect.stringMatching(/^Merged from \d+ reflections: /), trial: null }]);
    expect(summary.data.afterTokens).toBeGreaterThan(0);
    // The call that wrote it: a Self-Reflection call on the summariser prompt listing the reflections.
    const call = callsOf(events).find((c) => c.data.callId === summary.data.callId)!;
    expect(call.data).toMatchObject({ role: "reflector", trial: summary.data.trial, step: null });
    expect(call.data.messages[0]!.content).toContain(MEMORY_SUMMARY_LIST_HEADER);
    for (const item of summary.data.before) expect(call.data.messages[0]!.content).toContain(item.text);
    // The trial after it starts with the summary as its whole memory, and its Actor prompt shows it.
    const start = events.find((event): event is Extract<RunEvent, { type: "trial-start" }> => event.type === "trial-start" && event.data.trial === summary.data.trial)!;
    expect(start.seq).toBeGreaterThan(summary.seq);
    expect(start.data.memory).toEqual(summary.data.after);
    const actor = callsOf(events).find((c) => c.data.role === "actor" && c.data.trial === summary.data.trial)!;
    expect(actor.data.messages[0]!.content).toContain(summary.data.after[0]!.text);
    // Preview of the summariser equals the recorded call.
    const preview = await context.templateWorkbench.preview({ versionId: "qa/summarize-memory", role: "summarizer", runId, trial: summary.data.trial });
    expect(preview.messages).toEqual(call.data.messages);
    expect(foldRun(events).trials.find((t) => t.trial === summary.data.trial)?.memory).toEqual(summary.data.after);
  });

  it("window management (the default) never summarises and keeps today's Ω", async () => {
    context = demoContext().context;
    const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo", maxTrials: 4, memoryWindow: 1 });
    const events = await settled(context, run.id);
    const config = (events[0] as Extract<RunEvent, { type: "run-start" }>).data.config;
    expect(config.memoryManagement).toBeUndefined();
    expect(events.some((event) => event.type === "memory-summary")).toBe(false);
    for (const event of events) if (event.type === "trial-start") expect(event.data.memory.length).toBeLessThanOrEqual(1);
  });

  it("a run can summarise with a saved summariser version (and refuses a template of another role)", async () => {
    context = demoContext().context;
    const saved = await context.templates.saveVersion("qa/summarize-memory", { text: `${DEFAULT_SUMMARIZER_TEXT.replace("one paragraph", "two short sentences")}`, message: "shorter" });
    const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo", maxTrials: 2, memoryManagement: { kind: "summarize", tokenBudget: 64, summarizerVersionId: "qa/summarize-memory@v2" } }, { start: false });
    const start = (await context.service.events(run.id)).events[0] as Extract<RunEvent, { type: "run-start" }>;
    expect(start.data.config.memoryManagement).toEqual({ kind: "summarize", tokenBudget: 64, summarizer: { id: "qa/summarize-memory", version: 2, text: saved.version.text, versionId: saved.version.id } });
    await expect(
      context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo", memoryManagement: { kind: "summarize", tokenBudget: 64, summarizerVersionId: "qa/reflect" } }),
    ).rejects.toThrow(/qa reflector template; this run needs a qa summarizer template/);
  });

  it("the demo summariser keeps each lesson's first sentence once and does not nest earlier summaries", () => {
    const prompt = (texts: string[]) => buildSummarizerMessages(DEFAULT_SUMMARIZER_TEXT, texts.map((text, i) => ({ id: `m${i}`, text, trial: i + 1 })), 40)[0]!.content;
    expect(demoMemorySummary(prompt(["Search the film first. Then the director.", "Check the year! It was wrong.", "Search the film first."]))).toBe("Merged from 3 reflections: Search the film first. Check the year!");
    expect(demoMemorySummary(prompt(["Merged from 2 reflections: Search the film first. Check the year!", "Search the film first."]))).toBe("Merged from 2 reflections: Search the film first.");
    expect(demoMemorySummary("Question: what?\nThought 1:")).toBeNull();
  });
});
