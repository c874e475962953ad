import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunDetailResponse, RunStatus } from "@/lib/domain/api";
import { foldRun } from "@/lib/domain/fold-run";
import type { CallActivity } from "@/lib/domain/status";
import { ApiRequestError } from "@/lib/query/fetch-json";
import { RunUiStoreProvider } from "@/lib/store";
import { formatElapsed } from "@/components/ui/format";
import { RunControls } from "@/components/run/run-controls";
import { RunHeader } from "@/components/run/run-header";
import { callInFlightLabel, controlErrorText, statusExplanation } from "@/components/run/run-messages";
import { EventLog, makeRunConfig } from "./fixtures";

/**
 * The run controls and header for every status the server reports
 * (lib/domain/status.ts), rendered to static markup: Cancel is never disabled
 * while the run is live, Pause reads "Pausing…" while a pause waits for the
 * step boundary, and the header says what a queued / pausing / cancelling
 * run is doing and how long the call in flight has run.
 */

function render(element: ReactElement): string {
  const client = new QueryClient();
  return renderToStaticMarkup(createElement(QueryClientProvider, { client }, createElement(RunUiStoreProvider, null, element)));
}

function runningState() {
  const log = new EventLog();
  log.add("run-start", { config: makeRunConfig() });
  log.add("trial-start", { trial: 1, memory: [], evicted: [] });
  return foldRun(log.events);
}

/** The opening tag of the element with `data-testid="<testId>"`, and its whole text (nested elements included). */
function element(html: string, testId: string): { tag: string; text: string } | null {
  const open = new RegExp(`<([a-z]+)[^>]*data-testid="${testId}"[^>]*>`).exec(html);
  if (!open) return null;
  const name = open[1] ?? "";
  const tags = new RegExp(`<(/?)${name}\\b[^>]*>`, "g");
  tags.lastIndex = open.index + open[0].length;
  let depth = 1;
  let end = html.length;
  for (let match = tags.exec(html); match; match = tags.exec(html)) {
    depth += match[1] === "/" ? -1 : 1;
    if (depth === 0) {
      end = match.index;
      break;
    }
  }
  const inner = html.slice(open.index + open[0].length, end);
  return { tag: open[0], text: inner.replace(/<[^>]+>/g, "").replace(/&amp;/g, "&") };
}
const disabled = (html: string, testId: string) => / disabled=""/.test(element(html, testId)?.tag ?? "");

function controls(status: RunStatus): string {
  return render(createElement(RunControls, { runId: "run-1", branch: null, state: runningState(), status }));
}

describe("RunControls for each status", () => {
  it.each<RunStatus>(["queued", "running", "pausing", "cancelling", "interrupted", "paused", "budget-exhausted"])("Cancel is enabled while the branch is %s", (status) => {
    expect(disabled(controls(status), "cancel-run")).toBe(false);
  });

  it.each<RunStatus>(["ended", "error"])("Cancel is disabled once the branch has %s", (status) => {
    expect(disabled(controls(status), "cancel-run")).toBe(true);
  });

  it("reads Pausing… and cannot be clicked again while a pause waits for the step boundary; Cancel stays enabled", () => {
    const html = controls("pausing");
    expect(element(html, "pause-run")?.text).toBe("Pausing…");
    expect(disabled(html, "pause-run")).toBe(true);
    expect(disabled(html, "cancel-run")).toBe(false);
    expect(disabled(html, "resume-run")).toBe(true);
  });

  it("offers Pause while running, queued or interrupted, Resume and Step while paused or interrupted", () => {
    expect(disabled(controls("running"), "pause-run")).toBe(false);
    expect(disabled(controls("queued"), "pause-run")).toBe(false);
    expect(element(controls("running"), "pause-run")?.text).toBe("Pause");
    for (const status of ["paused", "interrupted"] as const) {
      const html = controls(status);
      // The server pauses an interrupted branch (its worker died) at once, so the UI offers it too.
      expect(disabled(html, "pause-run")).toBe(status === "paused");
      expect(disabled(html, "resume-run")).toBe(false);
      expect(disabled(html, "step-run")).toBe(false);
    }
  });

  it("labels Cancel Cancelling… while the server is cancelling", () => {
    expect(element(controls("cancelling"), "cancel-run")?.text).toBe("Cancelling…");
    expect(element(controls("running"), "cancel-run")?.text).toBe("Cancel");
  });
});

describe("the run header: status words and the call in flight", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const detail: RunDetailResponse["run"] = {
    id: "run-1",
    rootBranchId: "branch-1",
    experiment: null,
    createdAt: "2026-11-30T12:00:00.000Z",
    environment: "qa",
    taskId: "hp-1",
    title: "Which magazine was started first?",
    strategy: "reflexion",
    modelId: "compatible:fake-model",
    status: "running",
    activeCall: null,
    setting: null,
    trials: 0,
    outcome: null,
  };
  const call: CallActivity = { role: "actor", trial: 2, step: 3, startedAt: "2026-11-30T12:00:00.000Z", retry: null };
  const header = (status: RunStatus, activeCall: CallActivity | null) =>
    render(
      createElement(RunHeader, {
        runId: "run-1",
        branch: null,
        branchRows: [],
        currentBranchId: null,
        onSelectBranch: () => undefined,
        detail,
        state: runningState(),
        status,
        activeCall,
        connection: "live",
      }),
    );

  it("shows which call is in flight and for how long", () => {
    vi.useFakeTimers({ now: Date.parse(call.startedAt) + 14_400 });
    const html = header("running", call);
    expect(element(html, "call-in-flight")?.text).toBe("Actor call · trial 2 step 3 · 14 s");
    expect(element(html, "call-in-flight")?.tag).toContain('data-trial="2"');
  });

  it("shows the live stream's dot while the run runs, and none once it is paused", () => {
    expect(element(header("running", null), "stream-connection")).toMatchObject({ text: "live" });
    expect(element(header("running", null), "stream-connection")?.tag).toContain('data-connection="live"');
    expect(element(header("paused", null), "stream-connection")).toBeNull();
  });

  it("keeps showing the call while pausing (the pause waits for it), and hides a stale one when paused", () => {
    vi.useFakeTimers({ now: Date.parse(call.startedAt) + 61_000 });
    expect(element(header("pausing", call), "call-elapsed")?.text).toBe("1 min 01 s");
    expect(element(header("paused", call), "call-in-flight")).toBeNull();
    expect(element(header("running", null), "call-in-flight")).toBeNull();
  });

  it.each<[RunStatus, RegExp]>([
    ["queued", /free worker slot \(REFLEXION_CONCURRENCY\)/],
    ["pausing", /next step boundary/],
    ["cancelling", /ends as cancelled/],
    ["interrupted", /Resume/],
  ])("explains %s under the status pill", (status, words) => {
    const html = header(status, null);
    expect(element(html, "run-status")?.tag).toContain(`data-status="${status}"`);
    expect(element(html, "status-explanation")?.text).toMatch(words);
  });

  it("adds no explanation where the pill and banners say enough", () => {
    for (const status of ["running", "paused", "ended", "error"] as const) expect(statusExplanation(status)).toBeNull();
    expect(element(header("running", null), "status-explanation")).toBeNull();
  });
});

describe("call and error wording", () => {
  it("names the call: Actor with its step, Self-Reflection with its trial", () => {
    expect(callInFlightLabel({ role: "actor", trial: 1, step: 2 })).toBe("Actor call · trial 1 step 2");
    expect(callInFlightLabel({ role: "reflector", trial: 3, step: null })).toBe("Self-reflection call · trial 3");
  });

  it("formats running times in whole seconds, then minutes, then hours", () => {
    expect(formatElapsed(-300)).toBe("0 s");
    expect(formatElapsed(999)).toBe("0 s");
    expect(formatElapsed(14_999)).toBe("14 s");
    expect(formatElapsed(125_000)).toBe("2 min 05 s");
    expect(formatElapsed(3_725_000)).toBe("1 h 02 min");
  });

  it("says what to do when a control request fails", () => {
    expect(controlErrorText("pause", new ApiRequestError(0, "network", "Could not reach the server. Is it running?"))).toMatch(/Check that it is still running, then try again/);
    const conflict = controlErrorText("cancel", new ApiRequestError(409, "conflict", "Run r1 has ended; there is nothing to cancel."));
    expect(conflict).toBe("Run r1 has ended; there is nothing to cancel. Nothing was changed; the status above is the current one.");
    expect(controlErrorText("resume", new Error("boom"))).toBe("Could not resume the run: boom. Try again; if it keeps failing, the server log says why.");
  });
});
