import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Actor } from "@/lib/domain/actor";
import type { EventType, RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { deriveRunGraph } from "@/lib/graph";
import { changeLine, changesOfTrial, editedByLine } from "@/lib/graph/change-authors";
import { MemoryPanel } from "@/components/memory";
import { EditedMark, TrialChanges } from "@/components/inspector/change-authors";
import { EventLog, makeRunConfig } from "../graph/fixtures";

/**
 * Edits show their author where the log records one: the reflection node of the inspector and the
 * memory panel say "edited by alice · <time>", the trial's details list who changed what; an edit
 * with no actor (an old log) shows no author at all.
 */
const alice: Actor = { kind: "person", id: "u-alice", name: "alice", userId: "u-alice" };
const bob: Actor = { kind: "token", id: "t-1", name: "bob (token ci)", userId: "u-bob" };

/** A run paused after a failed trial 1 with its reflection; then `edits` by whom (null: no actor recorded). */
function pausedRun(edits: { reflection?: Actor | null; memory?: Actor | null; budget?: Actor | null }) {
  const log = new EventLog();
  log.add("run-start", { config: makeRunConfig() });
  log.add("trial-start", { trial: 1, memory: [], evicted: [] });
  log.step(1, 1, "Guess.", { text: "Finish[First for Women]", type: "Finish", argument: "First for Women" }, { text: "Episode finished.", done: true, answer: "First for Women" });
  log.add("evaluation-end", { trial: 1, verdict: "fail", score: 0, feedback: "Wrong answer.", evaluatorKind: "exact-match", oracle: true, details: {} });
  log.add("trial-end", { trial: 1, outcome: "failure", reason: "wrong answer" });
  const call = log.call("reflector", 1, null, "Reflect", "Compare the founding years.");
  const reflection = log.add("reflection-end", { trial: 1, text: "Compare the founding years.", callId: call });
  log.add("checkpoint", { trial: 1, digest: "abc" });
  log.add("run-pause", { reason: "breakpoint", detail: "after the reflection", at: "after-reflection:1" });
  const by = (event: RunEvent, actor: Actor | null | undefined) => {
    if (actor) log.events[log.events.indexOf(event)] = { ...event, actor };
  };
  const memory = [{ id: reflection.id, text: "Compare the founding years, then answer.", trial: 1 }];
  if (edits.reflection !== undefined) by(log.add("reflection-edit", { reflectionEventId: reflection.id, oldText: "Compare the founding years.", newText: memory[0]!.text, note: null }), edits.reflection);
  if (edits.memory !== undefined) by(log.add("memory-edit", { oldMemory: memory, newMemory: [...memory, { id: "hand-1", text: "Magazines: check both.", trial: null }], note: null }), edits.memory);
  if (edits.budget !== undefined) by(log.add("budget-edit", { oldValue: null, newValue: { usd: 2 }, note: null }), edits.budget);
  return { state: foldRun(log.events), reflectionId: reflection.id, events: log.events };
}

function renderMemoryPanel(state: ReturnType<typeof foldRun>): string {
  return renderToStaticMarkup(createElement(QueryClientProvider, { client: new QueryClient() }, createElement(MemoryPanel, { runId: "run-1", branch: null, state, status: "paused" })));
}

describe("who edited, in the inspector's view model and the memory panel", () => {
  it("the reflection node says who edited it last, and when", () => {
    const { state, reflectionId } = pausedRun({ reflection: alice });
    const node = deriveRunGraph(state).nodes.find((candidate) => candidate.id === reflectionId);
    expect(node?.type).toBe("reflection");
    // The fixture's times are 2026-11-30 12:00:<seq>; seen on another day the date is shown too.
    expect(node?.type === "reflection" && node.data.editedBy).toBe("edited by alice · 2026-11-30 12:00");
    expect(editedByLine(state.trials[0]!.reflection!.editedBy, new Date("2026-11-30T18:00:00Z"))).toBe("edited by alice · 12:00");
  });

  it("the memory panel shows the item's editor and the memory's, a token by its name", () => {
    const { state } = pausedRun({ reflection: alice, memory: bob });
    const html = renderMemoryPanel(state);
    expect(html).toContain('data-testid="edited-by"');
    expect(html).toContain("edited by alice · 2026-11-30 12:00");
    expect(html).toMatch(/data-testid="memory-edited-by"[^>]*>Memory edited by bob \(token ci\) · 2026-11-30 12:00/);
  });

  it("the inspector renders the reflection's author beside its badge, and the trial's changes", () => {
    const { state, reflectionId } = pausedRun({ reflection: alice, budget: bob });
    const node = deriveRunGraph(state).nodes.find((candidate) => candidate.id === reflectionId);
    const data = node?.type === "reflection" ? node.data : null;
    const mark = renderToStaticMarkup(createElement(EditedMark, { edited: data!.edited, editedBy: data!.editedBy }));
    expect(mark).toMatch(/data-testid="inspector-edited-by"[^>]*>edited by alice · 2026-11-30 12:00</);
    const changes = renderToStaticMarkup(createElement(TrialChanges, { state, trial: 1 }));
    expect(changes).toContain("alice edited the reflection · 2026-11-30 12:00");
    expect(changes).toContain("bob (token ci) changed the budget · 2026-11-30 12:00");
    expect(renderToStaticMarkup(createElement(TrialChanges, { state, trial: 2 }))).toBe("");
  });

  it("the trial's details list people's changes since it started, oldest first", () => {
    const { state } = pausedRun({ reflection: alice, memory: bob, budget: alice });
    const lines = changesOfTrial(state, 1).map((change) => changeLine(change, new Date("2026-11-30T13:00:00Z")));
    expect(lines).toEqual(["alice edited the reflection · 12:00", "bob (token ci) edited the memory · 12:00", "alice changed the budget · 12:00"]);
    expect(changesOfTrial(state, 2)).toEqual([]);
    expect(new Set((state.changes ?? []).map((change) => change.type))).toEqual(new Set<EventType>(["reflection-edit", "memory-edit", "budget-edit"]));
  });

  it("edits without an actor (an older log) show no author anywhere", () => {
    const { state, reflectionId } = pausedRun({ reflection: null, memory: null });
    const node = deriveRunGraph(state).nodes.find((candidate) => candidate.id === reflectionId);
    expect(node?.type === "reflection" && node.data.edited).toBe(true);
    expect(node?.type === "reflection" && "editedBy" in node.data).toBe(false);
    expect(state.changes).toBeUndefined();
    const html = renderMemoryPanel(state);
    expect(html).toContain('data-testid="edited-badge"');
    expect(html).not.toContain("edited by");
  });

  it("a later edit with no actor does not keep an earlier edit's author", () => {
    const { state } = pausedRun({ reflection: alice });
    const log = new EventLog();
    const base = pausedRun({ reflection: alice, memory: alice });
    for (const event of base.events) log.events.push(event);
    log.add("memory-edit", { oldMemory: base.state.memory, newMemory: [], note: null });
    expect(foldRun(log.events).memoryEditedBy).toBeUndefined();
    expect(state.trials[0]!.reflection!.editedBy).toEqual({ name: "alice", at: expect.stringMatching(/^2026-11-30T12:00/) as unknown });
  });
});
