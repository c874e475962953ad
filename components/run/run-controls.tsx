"use client";

import { useCallback, useState } from "react";
import type { RunStatus } from "@/lib/domain/api";
import type { Breakpoints } from "@/lib/domain/config";
import type { RunState } from "@/lib/domain/fold-run";
import { allowedActions } from "@/lib/domain/status";
import { useCancelRun, usePauseRun, useResumeRun, useSetBreakpoints } from "@/lib/query";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { Popover } from "@/components/ui/popover";
import { controlErrorText } from "./run-messages";

/** The five breakpoint switches: test id, label, help, how to read and write the flag. */
const BREAKPOINT_SWITCHES: Array<{
  testId: string;
  label: string;
  help: string;
  get: (breakpoints: Breakpoints) => boolean;
  set: (breakpoints: Breakpoints, on: boolean) => Breakpoints;
}> = [
  {
    testId: "bp-after-reflection",
    label: "After each reflection",
    help: "Before the next trial starts, so you can edit the reflection or the memory.",
    get: (b) => b.afterReflection,
    set: (b, on) => ({ ...b, afterReflection: on }),
  },
  {
    testId: "bp-after-observation",
    label: "After each observation",
    help: "After every Thought → Action → Observation step.",
    get: (b) => b.afterObservation,
    set: (b, on) => ({ ...b, afterObservation: on }),
  },
  {
    testId: "bp-after-evaluation",
    label: "After each evaluation",
    help: "Once the Evaluator has judged a trial, before any reflection.",
    get: (b) => b.afterEvaluation,
    set: (b, on) => ({ ...b, afterEvaluation: on }),
  },
  {
    testId: "bp-before-actor",
    label: "Before every Actor call",
    help: "Stops before each Actor model call, so you can write the next action yourself or change the prompt or model.",
    get: (b) => b.beforeModelCall.actor,
    set: (b, on) => ({ ...b, beforeModelCall: { ...b.beforeModelCall, actor: on } }),
  },
  {
    testId: "bp-before-reflector",
    label: "Before every Self-Reflection call",
    help: "Stops before each reflection is written.",
    get: (b) => b.beforeModelCall.reflector,
    set: (b, on) => ({ ...b, beforeModelCall: { ...b.beforeModelCall, reflector: on } }),
  },
];

function countOn(breakpoints: Breakpoints): number {
  return BREAKPOINT_SWITCHES.filter((entry) => entry.get(breakpoints)).length;
}

/** The five breakpoint switches, sent as one object (the server turns off the kinds left out). */
function BreakpointsPanel({ runId, branch, state, enabled }: { runId: string; branch: string | null; state: RunState; enabled: boolean }) {
  const setBreakpoints = useSetBreakpoints(runId, branch);
  // While a change is on its way, show it (the folded state catches up when its settings-edit arrives).
  const [pending, setPending] = useState<Breakpoints | null>(null);
  const shown = pending ?? state.breakpoints;
  return (
    <div className="w-72 space-y-2">
      <p className="text-[11px] leading-snug text-slate-600">
        Where this branch pauses by itself. Changes apply from the next step, while it runs or is paused.
      </p>
      <ul className="space-y-1.5">
        {BREAKPOINT_SWITCHES.map((entry) => (
          <li key={entry.testId}>
            <label className="flex items-start gap-2" title={entry.help}>
              <input
                type="checkbox"
                role="switch"
                className="switch mt-0.5"
                data-testid={entry.testId}
                checked={entry.get(shown)}
                disabled={!enabled || setBreakpoints.isPending}
                onChange={(event) => {
                  const next = entry.set(shown, event.target.checked);
                  setPending(next);
                  setBreakpoints.mutate(next, { onSettled: () => setPending(null) });
                }}
              />
              <span>
                <span className="block font-medium text-slate-800">{entry.label}</span>
                <span className="block text-[11px] leading-snug text-slate-500">{entry.help}</span>
              </span>
            </label>
          </li>
        ))}
      </ul>
      {!enabled ? <p className="text-[11px] text-slate-500">This branch has finished; its breakpoints can no longer change.</p> : null}
      {setBreakpoints.error ? <Notice tone="error">{setBreakpoints.error.message}</Notice> : null}
    </div>
  );
}

/**
 * Pause, Resume, Step (one action, then pause), Cancel (after a confirmation)
 * and the breakpoints popover, all acting on the branch shown.
 *
 * Pause and cancel are requests the server records at once; the worker acts at
 * its next step boundary (cancel also stops the model call in flight). So Pause
 * reads "Pausing…" from the click until the status moves on and cannot be
 * clicked twice, and Cancel stays enabled until the branch has ended — a hung
 * model call can always be stopped. Which button a status enables is
 * `allowedActions` (lib/domain/status.ts), the rule the server applies: an
 * interrupted branch (its worker died) can be paused, resumed, stepped or cancelled.
 */
export function RunControls({ runId, branch, state, status }: { runId: string; branch: string | null; state: RunState; status: RunStatus | null }) {
  const pause = usePauseRun(runId, branch);
  const resume = useResumeRun(runId, branch);
  const cancel = useCancelRun(runId, branch);
  const [breakpointsOpen, setBreakpointsOpen] = useState(false);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const closeBreakpoints = useCallback(() => setBreakpointsOpen(false), []);
  const closeConfirm = useCallback(() => setConfirmCancel(false), []);

  // "Pausing…" from the click on, until the server's status has moved past running/queued.
  const [pauseClicked, setPauseClicked] = useState(false);
  const [statusSeen, setStatusSeen] = useState(status);
  if (status !== statusSeen) {
    setStatusSeen(status);
    if (status === null || !allowedActions(status).pause) setPauseClicked(false);
  }

  // Which controls the status allows is the server's rule too (lib/domain/status.ts).
  const allowed = status === null ? null : allowedActions(status);
  const canPause = allowed?.pause ?? false;
  const pausing = status === "pausing" || (canPause && (pauseClicked || pause.isPending));
  const canResume = allowed?.resume ?? false;
  const canStep = allowed?.step ?? false;
  const canCancel = allowed?.cancel ?? false;
  const cancelling = status === "cancelling" || cancel.isPending;
  const canSetBreakpoints = allowed?.breakpoints ?? false;
  const resumeBusy = resume.isPending || cancel.isPending;
  const stepping = resume.isPending && resume.variables?.step === true;
  const breakpointCount = countOn(state.breakpoints);
  const failed = pause.error ? { action: "pause" as const, error: pause.error } : resume.error ? { action: stepping ? ("step" as const) : ("resume" as const), error: resume.error } : cancel.error ? { action: "cancel" as const, error: cancel.error } : null;

  const requestPause = () => {
    setPauseClicked(true);
    pause.mutate(undefined, { onError: () => setPauseClicked(false) });
  };

  return (
    <div className="flex flex-col items-end gap-1.5">
      <div className="flex flex-wrap items-center gap-2">
        <Popover
          open={breakpointsOpen}
          onClose={closeBreakpoints}
          data-testid="breakpoints-panel"
          trigger={
            <Button
              size="sm"
              data-testid="breakpoints-toggle"
              aria-expanded={breakpointsOpen}
              onClick={() => setBreakpointsOpen((open) => !open)}
              title="Where the run pauses by itself"
            >
              <span aria-hidden className={breakpointCount > 0 ? "text-red-600" : "text-slate-400"}>●</span>
              Breakpoints{breakpointCount > 0 ? ` (${breakpointCount})` : ""}
            </Button>
          }
        >
          <BreakpointsPanel runId={runId} branch={branch} state={state} enabled={canSetBreakpoints} />
        </Popover>
        <Button
          data-testid="pause-run"
          data-pausing={pausing || undefined}
          size="sm"
          onClick={requestPause}
          disabled={!canPause || pausing}
          title={pausing ? "Pause requested: the run pauses at its next step boundary, once the model call in flight returns." : "Pause at the next step boundary"}
        >
          {pausing ? "Pausing…" : "Pause"}
        </Button>
        <Button
          data-testid="step-run"
          size="sm"
          onClick={() => resume.mutate({ step: true })}
          disabled={!canStep || resumeBusy}
          title="Run one action (a step, an evaluation or a reflection), then pause again"
        >
          {stepping ? "Stepping…" : "Step"}
        </Button>
        <Button data-testid="resume-run" size="sm" variant="primary" onClick={() => resume.mutate()} disabled={!canResume || resumeBusy}>
          {resume.isPending && !stepping ? "Resuming…" : "Resume"}
        </Button>
        <Popover
          open={confirmCancel}
          onClose={closeConfirm}
          data-testid="cancel-confirm"
          trigger={
            <Button
              data-testid="cancel-run"
              data-cancelling={cancelling || undefined}
              size="sm"
              variant="danger"
              // Already cancelling: the decision is made, a click re-sends the request without asking again.
              onClick={() => (status === "cancelling" ? cancel.mutate() : setConfirmCancel((open) => !open))}
              disabled={!canCancel}
              title={cancelling ? "Cancel requested: stopping the model call in flight. Click to send the request again." : undefined}
            >
              {cancelling ? "Cancelling…" : "Cancel"}
            </Button>
          }
        >
          <div className="w-64 space-y-2">
            <p className="leading-snug">
              Cancel {branch ? "this branch" : "the run"}? It ends as <strong>cancelled</strong> now
              {status === "paused" || status === "budget-exhausted" ? "" : "; a model call in flight is stopped"}. Everything recorded so far is kept, and you can still fork from its checkpoints.
            </p>
            <div className="flex justify-end gap-2">
              <Button size="sm" variant="ghost" data-testid="cancel-run-dismiss" onClick={closeConfirm}>
                Keep it
              </Button>
              <Button
                size="sm"
                variant="danger"
                data-testid="cancel-run-confirm"
                onClick={() => {
                  setConfirmCancel(false);
                  cancel.mutate();
                }}
              >
                Cancel {branch ? "branch" : "run"}
              </Button>
            </div>
          </div>
        </Popover>
      </div>
      {failed ? (
        <Notice tone="error" className="max-w-md text-xs" data-testid="control-error">
          {controlErrorText(failed.action, failed.error)}
        </Notice>
      ) : null}
    </div>
  );
}
