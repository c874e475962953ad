import { describe, expect, it } from "vitest";
import { allowedActions, branchStatus, runStatusSchema, type RunStatus } from "@/lib/domain/status";

/** The one rule for which controls a branch status allows (server refusals and UI buttons read it). */
describe("allowedActions", () => {
  const table: Record<RunStatus, string[]> = {
    queued: ["pause", "cancel", "breakpoints"],
    running: ["pause", "cancel", "breakpoints"],
    pausing: ["cancel", "breakpoints"],
    cancelling: ["cancel", "breakpoints"],
    interrupted: ["pause", "resume", "step", "cancel", "breakpoints"],
    paused: ["resume", "step", "cancel", "edit", "breakpoints"],
    "budget-exhausted": ["resume", "step", "cancel", "edit", "breakpoints"],
    ended: [],
    error: [],
  };

  it.each(runStatusSchema.options)("%s", (status) => {
    const allowed = allowedActions(status);
    expect(Object.keys(allowed).filter((action) => allowed[action as keyof typeof allowed]).sort()).toEqual([...table[status]].sort());
  });

  it("an interrupted branch (its worker died) can be paused: the server does it at once, so the UI offers it", () => {
    const status = branchStatus({ status: "running", pauseRequested: false, cancelRequested: false }, "dead");
    expect(status).toBe("interrupted");
    expect(allowedActions(status).pause).toBe(true);
  });

  it("edits follow the log's pause, budget pauses included", () => {
    const status = branchStatus({ status: "paused", pauseRequested: false, cancelRequested: false, pause: { reason: "budget" } }, "none");
    expect(status).toBe("budget-exhausted");
    expect(allowedActions(status).edit).toBe(true);
  });
});
