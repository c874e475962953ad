/**
 * How much one request may ask a shared server to hold or queue: tasks per experiment, runs per
 * experiment, tasks per uploaded task set and the decompressed size of a task set file. Each is
 * checked before anything is stored, and each refusal names the limit and how to narrow the request
 * (docs/limits.md). The sizes of real benchmarks set the floor: HotpotQA's dev set has 7,405
 * questions (~46 MB of JSON with its contexts), MBPP ~1,000 problems, HumanEval 164, ALFWorld 134.
 */

/** Most tasks one experiment may run (its `taskIds`, or every task of its set when it names none). */
export const MAX_EXPERIMENT_TASKS = 2_000;

/** Most runs one experiment may create: tasks × arms × repeats. */
export const MAX_EXPERIMENT_RUNS = 10_000;

/** Most tasks one uploaded task set may hold: above HotpotQA's dev set (7,405). */
export const MAX_TASK_SET_TASKS = 10_000;

/** Most decompressed megabytes (MiB) of a task set file, below the generic `REFLEXION_MAX_INFLATED_MB` (128). */
export const MAX_TASK_SET_INFLATED_MB = 64;

/** Most task summaries one `GET /api/tasks` answers with; `offset` pages through the rest. */
export const MAX_TASKS_PAGE = 1_000;
