/**
 * Public types of the code sandbox (lib/sandbox). See
 * docs/decisions/0006-code-sandbox.md for what isolates what.
 */

/** A language the sandbox runs. TypeScript is transpiled (esbuild) and runs as JavaScript. */
export type SandboxLanguage = "python" | "javascript" | "typescript";

/** The two kinds of sandbox child process: Pyodide (Python) or QuickJS (JavaScript). */
export type SandboxEngine = "python" | "javascript";

/**
 * One test: code run after the candidate program, in a fresh namespace of its own that
 * holds the program's top-level names, as the official harnesses run program and test in
 * one namespace (human-eval `execution.py` `check_correctness`: `exec(prompt + completion +
 * test + check(entry_point))`; MBPP: the program, then its `test_list` asserts; MultiPL-E /
 * HumanEval-X: one concatenated file). A test may use a module the program imported
 * (`sys.getsizeof` after the program's `import sys`), its constants, or its
 * `require("node:assert")`. Each name reaches the test in a form that keeps the test's own
 * operations trusted: modules and names imported from them are the test interpreter's
 * own, functions are stubs that run in the program's interpreter, other values are
 * plain-data copies (docs/decisions/0006-code-sandbox.md). Verdicts stay per test.
 *
 * Python: each test runs in a fresh, empty working directory of the interpreter's
 * in-memory file system, where the program may write (removed afterwards); `import
 * socket` works and every socket operation raises an `OSError` (PermissionError).
 */
export interface SandboxTest {
  /** Shown in results and feedback. */
  name: string;
  /**
   * Test code. It passes when it runs to completion without raising / throwing.
   * Python: plain statements (`assert add(1, 2) == 3`, or a HumanEval `check` plus
   * `check(add)`). JavaScript: statements; `console.assert` failures and
   * `require("node:assert")` assertion errors count as failures.
   */
  code: string;
}

/** What {@link SandboxPool.runTests} runs. */
export interface RunTestsRequest {
  language: SandboxLanguage;
  /**
   * Trusted set-up code (e.g. `from typing import *`, MBPP `test_setup_code`), run
   * before the candidate program AND before each test (Python: in both
   * interpreters; JavaScript: prepended to the candidate program).
   */
  setup?: string;
  /** The untrusted candidate program (a complete module defining the entry point). */
  code: string;
  /**
   * The function under test. Optional: every top-level function of the candidate is
   * available to the tests, except those named like a builtin / global (`abs`, `len`,
   * `JSON`...), which the tests keep using as builtins so a candidate cannot redefine
   * them. The entry point is exempt from that rule (MBPP has a task named `sum`).
   */
  entryPoint?: string;
  /** At least one test; tests run in order, each against a fresh run of `code`. */
  tests: SandboxTest[];
  /** Per-test wall-clock limit in ms (default: the pool's, 3000 ms). */
  timeoutMs?: number;
}

/**
 * - `pass`: the test ran to completion without an error.
 * - `fail`: an assertion failed (Python `AssertionError`, JS `console.assert` / `node:assert`).
 * - `error`: anything else: the candidate did not load, raised, exited, crashed the
 *   sandbox, exceeded the memory limit, returned something that is not plain data.
 * - `timeout`: the per-test time limit was reached.
 */
export type TestStatus = "pass" | "fail" | "error" | "timeout";

/** The outcome of one test. */
export interface TestResult {
  name: string;
  status: TestStatus;
  /** Empty on pass; otherwise what went wrong, with the failing test line when known. */
  message: string;
  /** Captured stdout + stderr of candidate and test, capped (see `maxOutputBytes`). */
  output: string;
  /** Wall-clock time of the test inside the sandbox, in ms. */
  durationMs: number;
}

/** The outcome of {@link SandboxPool.runTests}. */
export interface RunTestsResult {
  /** `pass` only when every test ran to completion and passed. */
  verdict: "pass" | "fail";
  /** One result per requested test, in request order. */
  tests: TestResult[];
  /** Wall-clock time of the whole request (queueing included), in ms. */
  durationMs: number;
}

/** Something the pool did, for logs and tests. */
export interface SandboxEvent {
  type: "spawn" | "ready" | "exit" | "kill" | "recycle" | "isolation" | "startup-failed" | "snapshot" | "calibration";
  engine?: SandboxEngine;
  /** OS process id of the spawned child (the namespace wrapper when OS isolation is on). */
  pid?: number;
  /** Human-readable detail: why a worker was killed or recycled, start-up time, ... */
  detail?: string;
}

/** Options of {@link createSandboxPool}. All have defaults. */
export interface SandboxPoolOptions {
  /** Worker processes per engine (default 2). */
  size?: number;
  /** Engines started (pre-warmed) at creation; others start on first use (default both). */
  warm?: SandboxEngine[];
  /** Default per-test time limit in ms (default 3000). */
  timeoutMs?: number;
  /** Extra time after the deadline before the parent kills a child that did not stop, in ms (default 1500). */
  killGraceMs?: number;
  /** Output kept per test, in bytes (default 65536); the rest is counted and dropped. */
  maxOutputBytes?: number;
  /** Resident memory limit per child process, in bytes, checked from the parent every 100 ms. */
  memoryLimitBytes?: Partial<Record<SandboxEngine, number>>;
  /** QuickJS heap limit per test, in bytes (default 64 MiB). */
  jsHeapLimitBytes?: number;
  /** V8 old-space limit of each child, in MiB (`--max-old-space-size`, default 256). */
  v8HeapLimitMb?: number;
  /**
   * OS isolation (fresh network/PID/mount/IPC namespaces as user `nobody`, via
   * util-linux `unshare` + `setpriv`): `auto` uses it when available and warns once
   * otherwise (default), `required` throws when unavailable, `off` never uses it.
   */
  osIsolation?: "auto" | "required" | "off";
  /** A worker is replaced after this many jobs (default 500). */
  maxJobsPerWorker?: number;
  /** Time a child may take to load its engine, in ms (default 60000). */
  startupTimeoutMs?: number;
  /**
   * Persisted Pyodide memory snapshot (decision 0019): `true` (default) keeps it in
   * `$REFLEXION_SANDBOX_CACHE` or `node_modules/.cache/reflexion-playground`, a string
   * names another folder, `false` never reads or writes one (every pool boots Pyodide).
   * A cached file is loaded only when its SHA-256 matches its manifest and its key
   * matches this build (Pyodide, runner sources, Node); otherwise it is rebuilt.
   */
  snapshotCache?: boolean | string;
  /**
   * Scales every per-test time limit by the measured speed of Pyodide relative to
   * CPython (decision 0019 "Time limits"): `"auto"` (default) measures it once per
   * process, a number fixes it, `1` turns scaling off.
   */
  timeScale?: "auto" | number;
  /** Override where the runner scripts and node_modules are (defaults: next to this file / `<cwd>/node_modules`). */
  paths?: { runnerDir?: string; nodeModulesDir?: string };
  /** Receives pool events (spawn, kill, recycle, isolation fallback...). */
  onEvent?: (event: SandboxEvent) => void;
}

/** How the pool isolates its children (see {@link SandboxPool.info}). */
export interface SandboxIsolationInfo {
  /** True when children run in fresh network/PID/mount namespaces as `nobody`. */
  os: boolean;
  /** Why OS isolation is on or off, in words. */
  detail: string;
  /** Node's permission-model flag used for the children. */
  permissionFlag: string;
}

/** A pool of pre-warmed sandbox child processes. */
export interface SandboxPool {
  /** Runs the tests against the candidate program; never throws for anything the code does. */
  runTests(request: RunTestsRequest): Promise<RunTestsResult>;
  /** Resolves when at least one worker of `engine` (default: every warm engine) is ready. */
  warmup(engine?: SandboxEngine): Promise<void>;
  /** Isolation and worker counts, for logs and the UI. */
  info(): { isolation: SandboxIsolationInfo; workers: Record<SandboxEngine, number>; queued: number };
  /** Kills every child; pending requests reject. */
  close(): Promise<void>;
}
