// The shape of a demo script, apart from the script book (demo-script.ts) so that
// the built-in scripts (builtin-demo-scripts.ts) can name it without importing the book.

/** The demo model's script for one built-in task. */
export interface HouseholdDemoScript {
  /**
   * The words of `reflection` that carry its lesson (it contains every one):
   * removing them makes the reflection stop helping. The Actor itself decides by
   * the task's key facts (builtin-key-facts.ts), which accept other wordings.
   */
  lessonKeywords: string[];
  /** Commands without the lesson. Beyond the end the last one is repeated (a loop the Evaluator stops). */
  naive: string[];
  /** Commands with the lesson; the last one meets the goal. */
  informed: string[];
  /** What the demo Self-Reflection model writes after a failed trial. */
  reflection: string;
}
