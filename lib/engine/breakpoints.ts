import { draft, type EventDraft } from "@/lib/domain/events";
import type { RunState } from "@/lib/domain/fold-run";
import type { NextAction } from "./decide";

type Action = Exclude<NextAction, { kind: "idle" }>;

/**
 * The pause, if any, that must happen before `next` is performed: after one
 * action when the run was resumed with Step, or at a "before model call"
 * breakpoint. A breakpoint the run was just resumed from does not stop it again
 * (`RunState.resumedFrom`), so Continue moves past it.
 */
export function pauseBefore(state: RunState, next: Action): EventDraft | null {
  if (state.stepping && state.actionsSinceResume > 0) {
    return draft("run-pause", { reason: "step", detail: "Stepped one action.", at: null });
  }
  const calls = state.breakpoints.beforeModelCall;
  if (next.kind === "actor-step" && calls.actor) {
    const pending = state.pendingAction;
    if (pending && pending.trial === next.trial && pending.step === next.step) return null; // no model call: a person wrote it
    const at = `before-call:actor:${next.trial}:${next.step}`;
    if (state.resumedFrom === at) return null;
    return draft("run-pause", { reason: "breakpoint", detail: `Breakpoint: before the Actor call for trial ${next.trial}, step ${next.step}.`, at });
  }
  if ((next.kind === "refine-feedback" || next.kind === "refine-answer") && calls.actor) {
    // Self-Refine's calls are the Actor's model's: its "before an Actor call" breakpoint holds them too.
    const at = `before-call:${next.kind}:${next.trial}:${next.round}`;
    if (state.resumedFrom === at) return null;
    const what = next.kind === "refine-feedback" ? "feedback" : "refinement";
    return draft("run-pause", { reason: "breakpoint", detail: `Breakpoint: before the Self-Refine ${what} call for trial ${next.trial}, round ${next.round}.`, at });
  }
  if (next.kind === "reflect" && calls.reflector) {
    const at = `before-call:reflector:${next.trial}`;
    if (state.resumedFrom === at) return null;
    return draft("run-pause", { reason: "breakpoint", detail: `Breakpoint: before the Self-Reflection call on trial ${next.trial}.`, at });
  }
  return null;
}

/** The pause, if any, right after `done` was performed: after an observation, an evaluation or a reflection. */
export function pauseAfter(state: RunState, done: Action): EventDraft | null {
  const breakpoints = state.breakpoints;
  if (done.kind === "actor-step" && breakpoints.afterObservation) {
    const at = `after-observation:${done.trial}:${done.step}`;
    return draft("run-pause", { reason: "breakpoint", detail: `Breakpoint: after the observation of trial ${done.trial}, step ${done.step}.`, at });
  }
  if (done.kind === "evaluate" && breakpoints.afterEvaluation) {
    const at = `after-evaluation:${done.trial}`;
    return draft("run-pause", { reason: "breakpoint", detail: `Breakpoint: after the evaluation of trial ${done.trial}.`, at });
  }
  if (done.kind === "reflect" && breakpoints.afterReflection) {
    const at = `after-reflection:${done.trial}`;
    return draft("run-pause", { reason: "breakpoint", detail: `Breakpoint: after the reflection on trial ${done.trial}.`, at });
  }
  return null;
}
