// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createElement, type ReactElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunStatus } from "@/lib/domain/api";
import { foldRun } from "@/lib/domain/fold-run";
import { allowedActions, runStatusSchema } from "@/lib/domain/status";
import { RunUiStoreProvider } from "@/lib/store";
import { MemoryPanel } from "@/components/memory";
import { RunControls } from "@/components/run/run-controls";
import { EventLog, makeRunConfig } from "./fixtures";

/**
 * The run page's controls and edit panels in a DOM (happy-dom + Testing Library): the buttons a
 * status enables are exactly `allowedActions(status)` — an interrupted branch offers Pause, as the
 * server allows — and an edit refused as stale (409 `stale-edit`) shows what changed with Reload
 * and Re-apply, and Re-apply sends the same edit against the newest seq.
 */

const client = () => new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
const wrap = (queryClient: QueryClient, element: ReactElement) => createElement(QueryClientProvider, { client: queryClient }, createElement(RunUiStoreProvider, null, element));

function mount(element: ReactElement, queryClient = client()) {
  return render(wrap(queryClient, element));
}

function runningState() {
  const log = new EventLog();
  log.add("run-start", { config: makeRunConfig() });
  log.add("trial-start", { trial: 1, memory: [], evicted: [] });
  return foldRun(log.events);
}

const button = (testId: string) => screen.getByTestId(testId) as HTMLButtonElement;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("RunControls offer what allowedActions says", () => {
  it.each(runStatusSchema.options)("%s", (status: RunStatus) => {
    mount(createElement(RunControls, { runId: "run-1", branch: null, state: runningState(), status }));
    const allowed = allowedActions(status);
    expect(button("pause-run").disabled).toBe(!allowed.pause);
    expect(button("resume-run").disabled).toBe(!allowed.resume);
    expect(button("step-run").disabled).toBe(!allowed.step);
    expect(button("cancel-run").disabled).toBe(!allowed.cancel);
  });

  it("an interrupted branch offers Pause, and clicking it asks the server to pause", async () => {
    const calls: string[] = [];
    vi.stubGlobal("fetch", async (input: string, init?: { method?: string }) => {
      calls.push(`${init?.method ?? "GET"} ${input}`);
      return new Response(JSON.stringify({ status: "paused" }), { status: 200, headers: { "content-type": "application/json" } });
    });
    mount(createElement(RunControls, { runId: "run-1", branch: null, state: runningState(), status: "interrupted" }));
    expect(button("pause-run").disabled).toBe(false);
    fireEvent.click(button("pause-run"));
    await waitFor(() => expect(calls).toContain("POST /api/runs/run-1/pause"));
  });
});

/** A run paused after trial 1's reflection: seq of its newest event, and the state. */
function pausedAfterReflection() {
  const log = new EventLog();
  log.add("run-start", { config: makeRunConfig() });
  log.add("trial-start", { trial: 1, memory: [], evicted: [] });
  log.step(1, 1, "Guess.", { text: "Finish[First for Women]", type: "Finish", argument: "First for Women" }, { text: "Episode finished.", done: true, answer: "First for Women" });
  log.add("evaluation-end", { trial: 1, verdict: "fail", score: 0, feedback: "Wrong answer.", evaluatorKind: "exact-match", oracle: true, details: {} });
  log.add("trial-end", { trial: 1, outcome: "failure", reason: "wrong answer" });
  const call = log.call("reflector", 1, null, "Reflect", "Search both first.");
  log.add("reflection-end", { trial: 1, text: "Search both magazines first.", callId: call });
  log.add("checkpoint", { trial: 1, digest: "abc" });
  log.add("run-pause", { reason: "breakpoint", detail: "after the reflection", at: "after-reflection:1" });
  return { log, state: foldRun(log.events) };
}

describe("a stale edit in the memory panel", () => {
  it("shows the server's list of what changed, with Reload and Re-apply; Re-apply sends the edit against the newest seq", async () => {
    const { state } = pausedAfterReflection();
    const bodies: Array<{ baseSeq?: number; text?: string }> = [];
    const stale = `The run changed after your edit was started (it was made against seq ${state.lastSeq}; the run is at seq ${state.lastSeq + 1}): seq ${state.lastSeq + 1}: a reflection was edited (now "Compare the years."). Reload to see the current values, then re-apply your edit.`;
    vi.stubGlobal("fetch", async (input: string, init?: { method?: string; body?: string }) => {
      if (init?.method === "POST" && input === "/api/runs/run-1/edits") {
        bodies.push(JSON.parse(init.body ?? "{}") as { baseSeq?: number });
        if (bodies.length === 1) return new Response(JSON.stringify({ error: { code: "stale-edit", message: stale } }), { status: 409, headers: { "content-type": "application/json" } });
      }
      return new Response(JSON.stringify({ error: { code: "not-found", message: "not in this fake" } }), { status: 404, headers: { "content-type": "application/json" } });
    });
    const queryClient = client();
    const view = mount(createElement(MemoryPanel, { runId: "run-1", branch: null, state, status: "paused" }), queryClient);
    fireEvent.change(screen.getByTestId("reflection-editor"), { target: { value: "Search both magazines, then compare." } });
    fireEvent.click(button("save-reflection"));
    const notice = await screen.findByTestId("stale-edit");
    expect(notice.textContent).toContain("Not saved: this run changed while you were editing.");
    expect(notice.textContent).toContain("a reflection was edited");
    expect(bodies[0]).toMatchObject({ baseSeq: state.lastSeq, text: "Search both magazines, then compare." });

    // The other client's edit arrives; the draft made here is kept, and Re-apply sends it against the new seq.
    const moved = { ...state, lastSeq: state.lastSeq + 1 };
    view.rerender(wrap(queryClient, createElement(MemoryPanel, { runId: "run-1", branch: null, state: moved, status: "paused" })));
    expect((screen.getByTestId("reflection-editor") as HTMLTextAreaElement).value).toBe("Search both magazines, then compare.");
    fireEvent.click(button("stale-edit-reapply"));
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]).toMatchObject({ baseSeq: state.lastSeq + 1, text: "Search both magazines, then compare." });
  });

  it("Reload drops the draft and shows the current text", async () => {
    const { state } = pausedAfterReflection();
    vi.stubGlobal("fetch", async () => new Response(JSON.stringify({ error: { code: "stale-edit", message: "The run changed after your edit was started." } }), { status: 409, headers: { "content-type": "application/json" } }));
    mount(createElement(MemoryPanel, { runId: "run-1", branch: null, state, status: "paused" }));
    fireEvent.change(screen.getByTestId("reflection-editor"), { target: { value: "Mine." } });
    fireEvent.click(button("save-reflection"));
    fireEvent.click(await screen.findByTestId("stale-edit-reload"));
    expect((screen.getByTestId("reflection-editor") as HTMLTextAreaElement).value).toBe("Search both magazines first.");
    expect(screen.queryByTestId("stale-edit")).toBeNull();
  });
});
