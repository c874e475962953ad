import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Strategy } from "@/lib/domain/config";
import { foldRun } from "@/lib/domain/fold-run";
import { strategyBehaviour } from "@/lib/domain/strategies";
import { MemoryPanel } from "@/components/memory";
import { EventLog, makeRunConfig } from "./fixtures";

/**
 * The memory panel says what the engine will do with each memory entry: the
 * strategy's rule (lib/domain/strategies.ts), not the window Ω alone. Under
 * `none` and `last-attempt` the engine puts no reflection into any prompt, so
 * a hand-written entry is not "seen" by the next trial.
 */

const HAND_WRITTEN = { id: "hand-1", text: "Search both magazines, then compare the years.", trial: null };

/** A run paused after trial 1 failed, whose memory was then given one hand-written entry. */
function pausedWithHandWrittenEntry(strategy: Strategy) {
  const log = new EventLog();
  log.add("run-start", { config: makeRunConfig({ strategy }) });
  log.add("trial-start", { trial: 1, memory: [], evicted: [] });
  log.step(1, 1, "Guess.", { text: "Finish[First for Women]", type: "Finish", argument: "First for Women" }, { text: "Episode finished.", done: true, answer: "First for Women" });
  log.add("evaluation-end", { trial: 1, verdict: "fail", score: 0, feedback: "Wrong answer.", evaluatorKind: "exact-match", oracle: true, details: {} });
  log.add("trial-end", { trial: 1, outcome: "failure", reason: "wrong answer" });
  log.add("checkpoint", { trial: 1, digest: "abc" });
  log.add("run-pause", { reason: "breakpoint", detail: "after the evaluation", at: "after-evaluation:1" });
  log.add("memory-edit", { oldMemory: [], newMemory: [HAND_WRITTEN], note: null });
  return foldRun(log.events);
}

function render(strategy: Strategy): string {
  const element = createElement(MemoryPanel, { runId: "run-1", branch: null, state: pausedWithHandWrittenEntry(strategy), status: "paused" });
  return renderToStaticMarkup(createElement(QueryClientProvider, { client: new QueryClient() }, element));
}

/** The `memory-item` element of the "All reflections" list for `id`, opening tag and content. */
function entryIn(html: string, id: string): string {
  const all = html.slice(html.indexOf('data-testid="memory-all"'));
  const start = all.indexOf(`data-memory-id="${id}"`);
  return start < 0 ? "" : all.slice(start, all.indexOf("</li>", start));
}

describe("the memory panel on a hand-written entry", () => {
  it.each(["none", "last-attempt"] as const)("under %s: not in the next trial's prompt, as the engine does", (strategy) => {
    expect(strategyBehaviour(strategy).memoryForTrial([HAND_WRITTEN], 3).inContext).toEqual([]);
    const entry = entryIn(render(strategy), HAND_WRITTEN.id);
    expect(entry).not.toBe("");
    expect(entry).not.toContain("next trial sees it");
    expect(entry).toContain("not in the prompt (strategy)");
    expect(entry).toContain('data-evicted="true"');
  });

  it("under none says that memory edits reach no prompt", () => {
    const html = render("none");
    expect(html).toContain("The entries below reach no prompt under this strategy.");
    expect(html).toContain("memory edits are recorded but no trial sees them");
    expect(html).not.toContain("edit what the next trial will see");
  });

  it.each(["reflexion", "last-attempt-and-reflexion", "cot"] as const)("under %s: in the next trial's context", (strategy) => {
    expect(strategyBehaviour(strategy).memoryForTrial([HAND_WRITTEN], 3).inContext).toEqual([HAND_WRITTEN]);
    const html = render(strategy);
    const entry = entryIn(html, HAND_WRITTEN.id);
    expect(entry).toContain("next trial sees it");
    expect(entry).not.toContain("data-evicted");
    expect(html).not.toContain('data-testid="memory-strategy-note"');
  });
});
