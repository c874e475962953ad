// The shape of a demo script, apart from the script book (demo-script.ts) so that
// the built-in scripts (builtin-demo-scripts.ts) can name it without importing the book.

/** One scripted Actor step: the thought text and the action line (`Verb[argument]`). */
export interface QaDemoStep {
  thought: string;
  action: string;
}

/** The demo model's script for one built-in task. */
export interface QaDemoScript {
  /**
   * The words of `reflection` that carry its lesson (it contains every one):
   * removing them makes the reflection stop helping. The Actor itself decides by
   * the task's key facts (builtin-key-facts.ts), which accept other wordings.
   */
  lessonKeywords: string[];
  /** How the `naive` path fails: a wrong `Finish`, or halting (a loop, or the step budget) without an answer. */
  naiveOutcome: "wrong-answer" | "halted";
  /** Steps without the lesson. Beyond its end, the last step is repeated. */
  naive: QaDemoStep[];
  /** Steps with the lesson: correct searches, then `Finish` with the gold answer. */
  informed: QaDemoStep[];
  /** What the demo Self-Reflection model writes after a failed trial. */
  reflection: string;
  /** The one-step chain-of-thought script (strategies `cot` and `cot-gold-context`). */
  cot: QaDemoCotScript;
}

/** The demo model's chain-of-thought script for one built-in task: one Thought and a `Finish` per trial. */
export interface QaDemoCotScript {
  /** The words of the CoT `reflection` that carry its lesson (it contains every one); the Actor decides by the CoT key facts. */
  lessonKeywords: string[];
  /** Without the lesson: a wrong answer, or the right one worded so that exact match fails. */
  naive: QaDemoStep;
  /** With the lesson: `Finish` with the gold answer. */
  informed: QaDemoStep;
  /** What the demo Self-Reflection model writes after a failed CoT trial. */
  reflection: string;
}
