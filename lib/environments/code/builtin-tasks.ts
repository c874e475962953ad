import { builtinJsCodeTasks } from "./builtin-tasks-js";
import { builtinPythonCodeTasks } from "./builtin-tasks-python";
import type { CodeTask } from "./task";

/**
 * The built-in code task set: twenty small programming problems for the code
 * family (the Reflexion paper's programming loop, Shinn et al. 2023 §4). These
 * are original problems written for this project, in the HumanEval style but not
 * copied from HumanEval, MBPP or any other dataset, so no dataset licence applies.
 *
 * Ten are Python (`code-py-01` … `code-py-10`, builtin-tasks-python.ts), five
 * JavaScript (`code-js-01` … `code-js-05`) and five TypeScript (`code-ts-01` …
 * `code-ts-05`, both in builtin-tasks-js.ts). Every task has an edge case a first
 * attempt plausibly misses (empty input, ties, duplicates, negative numbers,
 * even lengths, ...), which its hidden tests check; its reference solution
 * passes them. The offline demo model's script for each task lives in
 * builtin-demo-scripts.ts under the same id. Entry point names are unique.
 */
export const builtinCodeTasks: readonly CodeTask[] = [...builtinPythonCodeTasks, ...builtinJsCodeTasks];
