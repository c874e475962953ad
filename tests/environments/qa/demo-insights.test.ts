import { describe, expect, it } from "vitest";
import { INSIGHT_MEMORY_PREFIX } from "@/lib/domain/insights";
import { DEMO_INSIGHT_KINDS } from "@/lib/domain/insights-demo";
import { builtinQaTasks, qaDemoScriptBook } from "@/lib/environments/qa";
import { builtinQaDemoScripts } from "@/lib/environments/qa/builtin-demo-scripts";
import { QA_TASK_INSIGHT_KINDS } from "@/lib/environments/qa/demo-insights";
import { scriptedStep } from "@/lib/environments/qa/demo-script";
import { renderMemory } from "@/lib/environments/qa/prompts";

/** Trial 1's Actor prompt for `question` with `memoryTexts` in the memory slot. */
function trialOnePrompt(question: string, memoryTexts: readonly string[]): string {
  return `${renderMemory(memoryTexts.map((text, index) => ({ id: `m${index}`, text, trial: null })))}Question: ${question}\nThought 1:`;
}

const insightOf = (kind: string) => `${INSIGHT_MEMORY_PREFIX}${DEMO_INSIGHT_KINDS.find((k) => k.id === kind)!.insight}`;
const SEEDS = Array.from({ length: 60 }, (_, seed) => seed);

/** Share of (task, seed) draws whose first step is the task's informed one. */
function informedShare(memoryFor: (taskId: string) => string[]): number {
  let informed = 0;
  let total = 0;
  for (const task of builtinQaTasks) {
    const informedStep = scriptedStep(builtinQaDemoScripts[task.id]!.informed, 1);
    for (const seed of SEEDS) {
      total += 1;
      if (qaDemoScriptBook.respond(trialOnePrompt(task.question, memoryFor(task.id)), { seed }) === informedStep) informed += 1;
    }
  }
  return informed / total;
}

describe("the QA demo Actor and carried-in ExpeL insights (a scripted stand-in)", () => {
  it("names a kind for every built-in task, one the demo extraction can write", () => {
    const kinds = new Set(DEMO_INSIGHT_KINDS.map((kind) => kind.id));
    for (const task of builtinQaTasks) expect(kinds.has(QA_TASK_INSIGHT_KINDS[task.id]!)).toBe(true);
  });

  it("without a seed, an insight of another kind, or the right words in a reflection, leave the naive path as it was", () => {
    for (const task of builtinQaTasks) {
      const naive = scriptedStep(builtinQaDemoScripts[task.id]!.naive, 1);
      const kind = QA_TASK_INSIGHT_KINDS[task.id]!;
      const other = DEMO_INSIGHT_KINDS.find((candidate) => candidate.id !== kind && candidate.id !== "wording")!;
      expect(qaDemoScriptBook.respond(trialOnePrompt(task.question, []))).toBe(naive);
      expect(qaDemoScriptBook.respond(trialOnePrompt(task.question, [`${INSIGHT_MEMORY_PREFIX}${other.insight}`]))).toBe(naive);
      // The same sentence as a reflection, not a carried-in insight, is not read as one.
      const asReflection = DEMO_INSIGHT_KINDS.find((candidate) => candidate.id === kind)!.insight;
      expect(qaDemoScriptBook.respond(trialOnePrompt(task.question, [asReflection]))).toBe(naive);
    }
  });

  it("an insight of the task's kind makes the informed first step more likely, but far from sure (seeded, reproducible)", () => {
    const without = informedShare(() => []);
    const withInsight = informedShare((taskId) => [insightOf(QA_TASK_INSIGHT_KINDS[taskId]!)]);
    // About 1/6 lucky without; about 1/3 + 2/3 · 1/6 with the right insight.
    expect(without).toBeGreaterThan(0.05);
    expect(without).toBeLessThan(0.3);
    expect(withInsight).toBeGreaterThan(without + 0.15);
    expect(withInsight).toBeLessThan(0.65);
    expect(informedShare((taskId) => [insightOf(QA_TASK_INSIGHT_KINDS[taskId]!)])).toBe(withInsight);
  });
});
