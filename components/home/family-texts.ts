import type { EnvironmentId } from "@/lib/domain/config";

/** Texts of the new-run form that depend on the task family (pure, so they can be unit-tested). */

/** Shown when the demo model is picked for a task set it has no scripts for (lib/environments/…/demo-script.ts). */
export function demoOnImportedWarning(environment: EnvironmentId): string {
  const fallback =
    environment === "code"
      ? "on other code tasks it writes no internal tests and a labelled placeholder program that raises (NotImplementedError in Python, Error in JavaScript/TypeScript), so the empty suite passes vacuously and the hidden tests fail"
      : "on other tasks it answers 'unknown'";
  return `The demo model has scripts only for the built-in tasks; ${fallback}. Pick a real model (set a provider key on the server) for uploaded tasks.`;
}

/** What a run of the family does, in two sentences, above the form. */
export function runIntro(environment: EnvironmentId): string {
  if (environment === "code") {
    return (
      "The Actor writes internal unit tests for the function once (trial 1), then an implementation; the internal tests run in a sandbox and decide whether the loop goes on. " +
      "The benchmark's hidden tests also run once per trial, for reporting only: the agent never sees them. With Reflexion, a failed trial is followed by a self-reflection " +
      "on the implementation and its failing tests, which the next trial reads together with that implementation."
    );
  }
  return (
    "An Actor answers a question with Thought → Action → Observation steps. An Evaluator judges the trial. With Reflexion, a failed trial is followed by a " +
    "self-reflection that the next trial reads from its episodic memory."
  );
}
