/**
 * The offline demo model's script for one built-in code task (builtin-demo-scripts.ts):
 * plain data, read by the code family's demo script book (demo-script.ts).
 */
export interface CodeDemoScript {
  /**
   * `fail-then-pass`: the naive implementation fails at least one internal test and
   * the hidden tests; after the reflection the informed one passes both.
   * `false-positive`: the internal tests are weak: the naive implementation passes
   * them all but fails the hidden tests, so the loop stops on a wrong program
   * (paper §4, the MBPP lesson).
   */
  kind: "fail-then-pass" | "false-positive";
  /**
   * The assert lines the demo Actor writes for `WriteTests`, one statement each:
   * Python `assert f(...) == ...`; JavaScript/TypeScript
   * `assert.deepStrictEqual(f(...), ...);` (`assert` is `node:assert`). May include
   * a line that does not parse, to show the filter at work.
   */
  internalTests: string[];
  /** First implementation: a complete program that misses the task's edge case. */
  naive: string;
  /** The Self-Reflection: two or three sentences naming the missed case; contains every `lessonKeywords` entry. */
  reflection: string;
  /** The words of `reflection` that carry its lesson (it contains every one); the Actor writes `informed` when the memory states the task's key facts (builtin-key-facts.ts). */
  lessonKeywords: string[];
  /** The implementation written with the lesson: passes the internal and the hidden tests. */
  informed: string;
}
