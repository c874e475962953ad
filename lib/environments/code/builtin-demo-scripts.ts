import { builtinJsCodeDemoScripts } from "./builtin-demo-scripts-js";
import { builtinPythonCodeDemoScripts } from "./builtin-demo-scripts-python";
import type { CodeDemoScript } from "./demo-script-types";

/**
 * The offline demo model's script for each built-in code task (builtin-tasks.ts),
 * keyed by task id. Kept apart from the tasks so the task set stays plain data
 * that any model can be run on.
 *
 * Eighteen tasks are `fail-then-pass`: the naive program fails the internal test
 * that probes the task's edge case (and the hidden tests); the reflection names
 * only what that failing test showed; the informed program passes everything.
 * Two are `false-positive` (`code-py-07`, `code-ts-03`): their internal tests
 * miss the edge case, so the naive program passes them all and still fails the
 * hidden tests; their reflection is what one would write after seeing the hidden
 * failure, used only when planted by hand. Two tasks (`code-py-03`, `code-js-02`)
 * have one internal test line that does not parse, to show the syntax filter.
 * Every internal test that parses agrees with the task's reference solution.
 */
export const builtinCodeDemoScripts: Readonly<Record<string, CodeDemoScript>> = {
  ...builtinPythonCodeDemoScripts,
  ...builtinJsCodeDemoScripts,
};
