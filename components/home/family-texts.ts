import type { EnvironmentId } from "@/lib/domain/config";

/** Texts of the new-run form that depend on the task family (pure, so they can be unit-tested). */

/** Shown when the demo model is picked for a task set it has no scripts for (lib/environments/…/demo-script.ts). */
export function demoOnImportedWarning(environment: EnvironmentId): string {
  const fallback =
    environment === "code"
      ? "on other code tasks it writes no internal tests and a labelled placeholder program that raises (NotImplementedError in Python, Error in JavaScript/TypeScript), so the empty suite passes vacuously and the hidden tests fail"
      : environment === "household"
        ? "on other household tasks it only writes 'think: …' (it has no commands for them), so the world's success check never passes"
        : environment === "open"
          ? "on other open tasks it answers Finish[unknown] and, as the judge, gives no JSON, so the run pauses at the first evaluation (judge answer unreadable)"
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
  if (environment === "open") {
    return (
      "The Actor writes its whole answer to an open task in one step (Finish[answer]); there is no gold answer. " +
      "The Evaluator is an LLM judge that scores each rubric criterion 0–5 with a one-line justification, and the trial passes when the weighted score reaches the task's threshold — a model's opinion, not an oracle. " +
      "With Reflexion, a failed trial is followed by a self-reflection on the judge's per-criterion feedback, which the next trial reads from its episodic memory."
    );
  }
  if (environment === "household") {
    return (
      "The Actor acts in a text household (ALFWorld's rules): one command a step — go to, open, take, put, heat, use… or think: … — and the world answers each. " +
      "The Evaluator is the world's own success check after every step (the task's goal holds), not a gold answer; a trial also ends at the step limit or in a loop. " +
      "With Reflexion, a failed trial is followed by a self-reflection that the next trial reads from its episodic memory."
    );
  }
  return (
    "An Actor answers a question with Thought → Action → Observation steps. An Evaluator judges the trial by exact match (EM) with the gold answer; F1 is reported next to it. " +
    "With Reflexion, a failed trial is followed by a self-reflection that the next trial reads from its episodic memory."
  );
}

/**
 * The label of the form's "show what the Evaluator checks" disclosure: the gold
 * answer for QA (exact match), the goal for household (the world's success
 * check — there is no gold answer), the task's reference for code.
 */
export function referenceLabel(environment: EnvironmentId): string {
  if (environment === "household") return "Show the goal (what the world's success check tests after every step; there is no gold answer)";
  if (environment === "code") return "Show the reference (what the hidden tests check)";
  if (environment === "open") return "Show the rubric (what the judge scores; the Actor never sees it)";
  return "Show the gold answer (what the exact-match evaluator compares against)";
}
