"use strict";
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS, run by node directly in the sandbox child */
/**
 * Python engine of a sandbox child: two Pyodide interpreters in this process.
 *
 * - C runs the candidate program; T runs the test code. T sees the candidate's
 *   top-level callables as stubs; every call crosses as JSON plain data through
 *   the bridge below (py_codec.py, py_harness.py), so candidate code never
 *   executes inside T. Both run py_guard.py's audit hook.
 * - A tiny timer thread writes SIGINT (2) into the shared interrupt buffer of both
 *   interpreters at the per-test deadline: Python raises KeyboardInterrupt, the
 *   test is reported as "timeout" and the interpreters stay usable. Code that
 *   swallows KeyboardInterrupt keeps running until the parent kills the process.
 * - Between jobs the interrupt flag is left at 2, so a callback the candidate
 *   scheduled for later (asyncio, ...) is interrupted at its first bytecode.
 */

const fs = require("node:fs");
const path = require("node:path");
const { Worker } = require("node:worker_threads");

// Deadline timer thread. Idle, it also watches for the app dying: without OS
// isolation there is no parent-death signal, and a loop that swallows
// KeyboardInterrupt would otherwise outlive the app.
const TIMER_SOURCE = `
const { workerData } = require("node:worker_threads");
const a = new Int32Array(workerData);
const parent = process.ppid;
let g = Atomics.load(a, 1);
let deadline = 0;
for (;;) {
  const slice = deadline > 0 ? Math.min(1000, Math.max(0, deadline - Date.now())) : 1000;
  if (Atomics.wait(a, 1, g, slice) !== "timed-out") {
    g = Atomics.load(a, 1);
    const t = Atomics.load(a, 2);
    deadline = t > 0 ? Date.now() + t : 0;
    continue;
  }
  if (deadline > 0 && Date.now() >= deadline) { Atomics.store(a, 0, 2); Atomics.add(a, 3, 1); deadline = 0; }
  if (process.ppid !== parent) process.kill(process.pid, "SIGKILL");
}`;

// Imported before the memory snapshot so every interpreter starts with them loaded.
const PRELOAD = [
  "abc", "array", "base64", "binascii", "bisect", "cmath", "collections", "collections.abc", "copy", "dataclasses",
  "datetime", "decimal", "enum", "fractions", "functools", "gc", "hashlib", "heapq", "io", "itertools", "json", "math",
  "numbers", "operator", "random", "re", "statistics", "string", "struct", "textwrap", "traceback", "types", "typing",
  "unicodedata",
].map((name) => `import ${name}`).join("\n") +
  // `from typing import *` (the code family's set-up, as in the reference executor) materialises
  // typing's lazily created aliases; doing it before the baseline keeps that from counting as a
  // change made by user code (which would recycle the interpreter after every job).
  '\nexec("from typing import *", {})' +
  // Emscripten sets `_` to the runner's host path; the sandbox promises an empty environment.
  '\nimport os as _os\n_os.environ.pop("_", None)\ndel _os';

// The sandbox harness (py_codec.py, py_refs.py, py_harness.py, py_guard.py; one shared namespace).
const HARNESS_FILES = ["py_codec.py", "py_refs.py", "py_harness.py", "py_guard.py"].map((file) => [file, fs.readFileSync(path.join(__dirname, file), "utf8")]);
// Defines the harness before the memory snapshot (compiled once, not per child), as module
// `_sandbox_harness`; loadHarness() removes it from sys.modules before any user code runs.
const HARNESS_PRELOAD = [
  "import sys as _s, types as _t",
  "_m = _t.ModuleType('_sandbox_harness')",
  `for _n, _c in ${JSON.stringify(HARNESS_FILES)}:`,
  "    exec(compile(_c, '<' + _n + '>', 'exec'), _m.__dict__)",
  "_s.modules['_sandbox_harness'] = _m",
  "del _s, _t, _m, _n, _c",
].join("\n");

function isPythonError(error) {
  return Boolean(error) && typeof error === "object" && error.constructor && error.constructor.name === "PythonError";
}

function describeJsError(error) {
  const text = error && error.message ? String(error.message) : String(error);
  return text.split("\n").filter(Boolean).slice(-3).join(" | ").slice(0, 1000);
}

/**
 * During start-up only (before any untrusted code, before harden.lockdown()):
 * `WebAssembly.instantiate` compiles Pyodide's 10 MB wasm binary once and
 * instantiates both interpreters from that one module, instead of compiling it
 * twice (decision 0019 "Fast start"). Returns the function that restores the original.
 */
let precompiled = null;

/**
 * Starts compiling Pyodide's wasm binary now (e.g. while the snapshot is still arriving over
 * IPC); the next start-up's shareWasmModule() uses this module.
 */
function precompilePyodide(config) {
  require("node:v8").setFlagsFromString("--liftoff-only");
  try {
    precompiled ??= WebAssembly.compile(fs.readFileSync(path.join(config.pyodideDir, "pyodide.asm.wasm"))).catch(() => null);
  } catch {
    precompiled = null; // start-up compiles the bytes Pyodide reads itself
  }
}

function shareWasmModule() {
  // Baseline-compile Pyodide's wasm only (decision 0019): V8's background tier-up of the 10 MB
  // module competed for the cores and made a cold pool ~1.5–2× slower on 2 cores, for ~10 % in
  // steady state. Set at run time, so a V8 without the flag ignores it instead of failing to start.
  require("node:v8").setFlagsFromString("--liftoff-only");
  const original = WebAssembly.instantiate;
  let compiled = precompiled;
  WebAssembly.instantiate = async function instantiate(source, imports) {
    if (source instanceof WebAssembly.Module || !source || typeof source.byteLength !== "number" || source.byteLength < 1_000_000) {
      return original.call(WebAssembly, source, imports);
    }
    let compiledModule = compiled ? await compiled : null;
    if (!compiledModule) {
      compiled = WebAssembly.compile(source);
      compiledModule = await compiled;
    }
    return { instance: await original.call(WebAssembly, compiledModule, imports), module: compiledModule };
  };
  return () => {
    WebAssembly.instantiate = original;
  };
}

/**
 * Loads both interpreters and the harness. `sink` receives stdout/stderr of both.
 * With `snapshot` (bytes of a Pyodide memory snapshot made by an earlier child at
 * its start-up, before any untrusted code), both load from it; without, this child
 * makes one and exposes it as `engine.snapshot` for the parent to reuse.
 * @returns {Promise<{ beginJob(): void, runTest(job, index): object, endJob(): object, blockBetweenJobs(): void }>}
 */
async function createPythonEngine(config, sink, snapshot) {
  const { loadPyodide } = require(path.join(config.pyodideDir, "pyodide.js"));
  const options = { jsglobals: {}, env: { HOME: "/home/pyodide" }, stdout: () => {}, stderr: () => {} };
  let T;
  let C;
  let made = null;
  const t0 = Date.now();
  const phases = [];
  const mark = (what) => phases.push(`${what} ${Date.now() - t0} ms`);
  const restoreInstantiate = shareWasmModule();
  try {
    if (snapshot) {
      // Both interpreters from the parent's memory snapshot (~0.3 s each instead of ~3 s).
      [T, C] = await Promise.all([loadPyodide({ ...options, _loadSnapshot: snapshot }), loadPyodide({ ...options, _loadSnapshot: snapshot })]);
    } else {
      T = await loadPyodide({ ...options, _makeSnapshot: true });
      T.runPython(PRELOAD);
      T.runPython(HARNESS_PRELOAD);
      try {
        made = T.makeMemorySnapshot();
      } catch {
        made = null;
      }
      C = await loadPyodide(made ? { ...options, _loadSnapshot: made } : options);
    }
  } finally {
    restoreInstantiate();
  }
  mark(snapshot ? "interpreters from snapshot" : "interpreters booted");
  for (const py of [T, C]) {
    py.setStdout({ write: (bytes) => sink.writeBytes(bytes), isatty: false });
    py.setStderr({ write: (bytes) => sink.writeBytes(bytes), isatty: false });
  }

  const control = new Int32Array(new SharedArrayBuffer(16));
  T.setInterruptBuffer(new Int32Array(control.buffer, 0, 1));
  C.setInterruptBuffer(new Int32Array(control.buffer, 0, 1));
  const timer = new Worker(TIMER_SOURCE, { eval: true, workerData: control.buffer });
  await new Promise((resolve, reject) => {
    timer.once("online", resolve);
    timer.once("error", reject);
  });
  timer.unref();

  const arm = (ms) => {
    Atomics.store(control, 0, 0);
    Atomics.store(control, 2, Math.max(1, ms));
    Atomics.add(control, 1, 1);
    Atomics.notify(control, 1);
  };
  const disarm = () => {
    Atomics.store(control, 2, 0);
    Atomics.add(control, 1, 1);
    Atomics.notify(control, 1);
  };
  const fired = () => Atomics.load(control, 3);

  // Warm the lazy paths (random device, json, traceback) before the process is sealed.
  const warm = "import os, random, json, traceback\nos.urandom(8); random.random(); json.dumps([1])\ntry:\n    raise ValueError('x')\nexcept ValueError:\n    traceback.format_exc()\n";
  T.runPython(warm);
  C.runPython(warm);
  mark("warm");
  // Time-limit calibration (lib/sandbox/calibration.ts), trusted code before the baseline.
  let calibrationMs = null;
  if (typeof config.calibrate === "string") {
    const ns = T.globals.get("dict")();
    calibrationMs = Number(T.runPython(`${config.calibrate}\n_calibrate()`, { globals: ns }));
    ns.destroy();
    mark("calibration");
  }

  const loadHarness = (py) => {
    // One private namespace (not a module on sys.path). Normally it was defined before the
    // memory snapshot (HARNESS_PRELOAD) and is taken off sys.modules here, before any user
    // code; _seal() then takes the baseline and installs the audit hook.
    const scratch = py.globals.get("dict")();
    let ns = py.runPython("import sys as _s\n_h = _s.modules.pop('_sandbox_harness', None)\n_h.__dict__ if _h is not None else None", { globals: scratch });
    scratch.destroy();
    if (!ns) {
      ns = py.globals.get("dict")();
      for (const [file, source] of HARNESS_FILES) py.runPython(source, { globals: ns, filename: `<${file}>` });
    }
    ns.get("_seal")();
    const exports = ns.get("EXPORTS");
    const pick = (name) => exports.get(name);
    const names = ["c_load", "c_call", "c_op", "c_init", "t_init", "t_run", "t_callback", "reset_state"];
    return Object.fromEntries(names.map((name) => [name, pick(name)]));
  };
  const hc = loadHarness(C);
  mark("harness C");
  const ht = loadHarness(T);
  mark("harness T");

  let dead = null; // set when an interpreter hit a non-Python error (fatal, exit())
  const guard = (fn) => {
    try {
      return { value: fn() };
    } catch (error) {
      if (isPythonError(error)) return { pythonError: error };
      dead = describeJsError(error);
      return { fatal: dead };
    }
  };

  // Replies of one interpreter to the other are JSON strings (py_codec.py); a JavaScript-level
  // failure becomes an exception payload, so neither side ever sees the other's objects.
  const crossing = (call, who) => {
    const result = guard(call);
    if ("value" in result) return result.value;
    if (result.pythonError && /KeyboardInterrupt/.test(String(result.pythonError.type))) {
      return JSON.stringify({ $exc: { type: "KeyboardInterrupt", builtin: true, exception: false, interrupt: true, msg: "" } });
    }
    return JSON.stringify({ $exc: { type: "SandboxError", builtin: false, exception: false, interrupt: false, msg: result.fatal || `the ${who} interpreter failed` } });
  };
  // T calls candidate functions (stubs) and operations on references (py_refs.py) in C ...
  ht.t_init((name, payload) => crossing(() => (name === "$op" ? hc.c_op(payload) : hc.c_call(name, payload)), "candidate"));
  // ... and C calls test-side callables (key functions, lambdas) back in T.
  hc.c_init((payload) => crossing(() => ht.t_callback(payload), "test"));

  function runTest(job, index) {
    const test = job.tests[index];
    const started = Date.now();
    const firedBefore = fired();
    arm(job.timeoutMs);
    let status = "error";
    let message = "";
    const loaded = guard(() => hc.c_load(job.setup || "", job.code));
    if ("value" in loaded) {
      const info = JSON.parse(loaded.value);
      if (info.error !== undefined) {
        status = info.interrupt ? "timeout" : "error";
        message = info.interrupt ? "time limit exceeded while loading the candidate" : `the candidate program failed: ${info.error}`;
      } else {
        const ran = guard(() => ht.t_run(job.setup || "", test.code, loaded.value, job.entryPoint || ""));
        if ("value" in ran) {
          const verdict = JSON.parse(ran.value);
          status = verdict.status;
          message = verdict.message;
        } else if (ran.pythonError) {
          status = /KeyboardInterrupt/.test(String(ran.pythonError.type)) ? "timeout" : "error";
          message = status === "timeout" ? "time limit exceeded" : describeJsError(ran.pythonError);
        } else {
          message = `the sandbox interpreter stopped: ${ran.fatal}`;
        }
      }
    } else if (loaded.pythonError) {
      status = /KeyboardInterrupt/.test(String(loaded.pythonError.type)) ? "timeout" : "error";
      message = status === "timeout" ? "time limit exceeded while loading the candidate" : describeJsError(loaded.pythonError);
    } else {
      message = `the sandbox interpreter stopped: ${loaded.fatal}`;
    }
    disarm();
    Atomics.store(control, 0, 0);
    // A deadline that fired during this test wins, whatever the code did with the interrupt.
    if (fired() !== firedBefore) {
      status = "timeout";
      message = message && !/time limit/.test(message) ? `time limit exceeded (${message})` : "time limit exceeded";
    }
    return { status, message, durationMs: Date.now() - started, fatal: dead };
  }

  function endJob() {
    Atomics.store(control, 0, 0);
    const changed = [];
    for (const [name, harness] of [["candidate", hc], ["test", ht]]) {
      const reset = guard(() => harness.reset_state());
      if ("value" in reset) {
        for (const item of JSON.parse(reset.value)) changed.push(`${name}: ${item}`);
      } else {
        changed.push(`${name}: reset failed`);
      }
    }
    return { changed, fatal: dead };
  }

  return {
    beginJob() {
      // The flag is left at 2 between jobs; Python consumes it when any code runs
      // (a callback scheduled by the last job). Only then restore the baseline again.
      const somethingRan = Atomics.load(control, 0) !== 2;
      Atomics.store(control, 0, 0);
      if (somethingRan) {
        guard(() => hc.reset_state());
        guard(() => ht.reset_state());
      }
    },
    runTest,
    endJob,
    blockBetweenJobs() {
      Atomics.store(control, 0, 2);
    },
    isDead: () => dead,
    /** Time of the calibration workload in ms (null unless config.calibrate). */
    calibrationMs,
    /** Start-up timings, e.g. "interpreters from snapshot 420 ms, harness 610 ms". */
    phases: phases.join(", "),
    /** The memory snapshot this child made at start-up (null when it was given one). */
    snapshot: made,
  };
}

module.exports = { createPythonEngine, precompilePyodide };
