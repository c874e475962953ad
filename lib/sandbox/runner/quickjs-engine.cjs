"use strict";
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS, run by node directly in the sandbox child */
/**
 * JavaScript engine of a sandbox child: QuickJS (quickjs-emscripten, sync build).
 *
 * Every test gets a fresh QuickJS runtime (memory limit, 256 KiB stack limit,
 * interrupt handler at the deadline) with two contexts:
 *   C runs the candidate program; T runs the test code wrapped as
 *   `(function (console, require, <names>) { { <test> } })`, where each <name> the
 *   test mentions and the candidate declares is bound as in one shared file (the
 *   suites' own harnesses concatenate program and test): a function is a stub that
 *   calls into C through the host with JSON plain data (quickjs-harness.js), the
 *   program's `require("node:assert")` is T's own assert, any other value a plain-data
 *   copy. Candidate code never runs in T: it cannot patch T's prototypes, console or assert.
 * QuickJS has no Node APIs at all; `require` only knows `node:assert` (a shim).
 */

const fs = require("node:fs");
const path = require("node:path");

const RESERVED = new Set(
  ("break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "import in instanceof new null return super switch this throw true try typeof var void while with yield let static " +
    "implements interface package private protected public await async of get set arguments eval undefined NaN Infinity " +
    "console require globalThis").split(" "),
);
const MAX_REPLY_CHARS = 16 * 1024 * 1024;
const STACK_BYTES = 256 * 1024;

/**
 * Identifiers the test code mentions (a superset; the probe keeps the candidate's
 * functions). Names of T's globals (`JSON`, `Math`...) stay T's own, except the entry point.
 */
function mentionedNames(source, testGlobals, entryPoint) {
  const names = new Set();
  for (const match of source.matchAll(/[A-Za-z_$][\w$]*/g)) {
    const name = match[0];
    if (name === entryPoint || (!RESERVED.has(name) && !testGlobals.has(name))) names.add(name);
  }
  return [...names].slice(0, 500);
}

async function createQuickJsEngine(config, sink) {
  const core = require(config.quickjsCore);
  const variant = require(config.quickjsVariant);
  // A runtime whose job was interrupted can leak objects inside QuickJS; freeing it
  // then aborts the whole wasm module. Such a module is dropped (never freed) and a
  // fresh one is instantiated before the next test (~30 ms).
  let QuickJS = await core.newQuickJSWASMModuleFromVariant(variant);
  let tainted = false;
  const harnessSource = fs.readFileSync(path.join(__dirname, "quickjs-harness.js"), "utf8");
  const assertSource = fs.readFileSync(path.join(__dirname, "quickjs-assert.js"), "utf8");
  let dead = null;
  let testGlobals = null;

  function installHarness(ctx, hostFunctions) {
    const host = ctx.newObject();
    for (const [name, implementation] of Object.entries(hostFunctions)) {
      const fn = ctx.newFunction(name, implementation);
      ctx.setProp(host, name, fn);
      fn.dispose();
    }
    const assertFactory = ctx.unwrapResult(ctx.evalCode(assertSource, "assert.js"));
    const factory = ctx.unwrapResult(ctx.evalCode(harnessSource, "harness.js"));
    const api = ctx.unwrapResult(ctx.callFunction(factory, ctx.undefined, host, assertFactory));
    factory.dispose();
    assertFactory.dispose();
    host.dispose();
    return api;
  }

  function writeOut(ctx, handle) {
    const lengthHandle = ctx.getProp(handle, "length");
    const length = ctx.getNumber(lengthHandle);
    lengthHandle.dispose();
    if (sink.stored >= sink.limit) {
      sink.dropped += length;
      return;
    }
    sink.writeText(ctx.getString(handle));
  }

  function describe(ctx, api, errorHandle) {
    const fn = ctx.getProp(api, "describeError");
    const result = ctx.callFunction(fn, ctx.undefined, errorHandle);
    fn.dispose();
    if (result.error) {
      result.error.dispose();
      return { name: "Error", message: "unprintable error", stack: "", assertion: false };
    }
    const text = ctx.getString(result.value);
    result.value.dispose();
    return JSON.parse(text);
  }

  function locate(info, source, file, offset) {
    const match = new RegExp(`${file.replace(".", "\\.")}:(\\d+)`).exec(info.stack || "");
    if (!match) return "";
    const line = Number(match[1]) - offset;
    const text = source.split("\n")[line - 1];
    return text === undefined ? "" : ` (line ${line}: ${text.trim().slice(0, 300)})`;
  }

  function runTest(job, index) {
    const test = job.tests[index];
    const started = Date.now();
    const deadline = started + job.timeoutMs;
    const interrupted = () => Date.now() > deadline;
    const owned = [];
    const own = (handle) => {
      owned.push(handle);
      return handle;
    };
    let assertFailure = null;
    let status = "error";
    let message = "";
    let runtime = null;
    let C = null;
    let T = null;
    try {
      runtime = QuickJS.newRuntime();
      runtime.setMemoryLimit(job.jsHeapLimitBytes);
      runtime.setMaxStackSize(STACK_BYTES);
      runtime.setInterruptHandler(interrupted);
      C = runtime.newContext();
      T = runtime.newContext();
      const cFunctions = new Map();
      const apiC = own(
        installHarness(C, {
          out(text) {
            writeOut(C, text);
          },
          call() {
            throw new Error("not available in the candidate context");
          },
          assertFailed() {},
        }),
      );
      const apiT = own(
        installHarness(T, {
          out(text) {
            writeOut(T, text);
          },
          assertFailed(text, stack) {
            if (assertFailure !== null) return;
            assertFailure = T.getString(text).slice(0, 2000) + locate({ stack: stack ? T.getString(stack) : "" }, test.code, "test.js", 1);
          },
          call(nameHandle, payloadHandle) {
            const fn = cFunctions.get(T.getString(nameHandle));
            if (!fn) throw new Error("unknown candidate function");
            const invoke = C.getProp(apiC, "invoke");
            const payload = C.newString(T.getString(payloadHandle));
            const result = C.callFunction(invoke, C.undefined, fn, payload);
            invoke.dispose();
            payload.dispose();
            if (result.error) {
              const info = describe(C, apiC, result.error);
              result.error.dispose();
              throw new Error(interrupted() ? "interrupted" : `the candidate failed: ${info.name}: ${info.message}`);
            }
            const reply = C.getString(result.value);
            result.value.dispose();
            if (reply.length > MAX_REPLY_CHARS) throw new Error("the candidate's value is too large");
            return T.newString(reply);
          },
        }),
      );
      // C's global require / console for the candidate program.
      for (const [ctx, api] of [[C, apiC]]) {
        for (const name of ["console", "require"]) {
          const value = ctx.getProp(api, name);
          ctx.setProp(ctx.global, name, value);
          value.dispose();
        }
      }
      if (testGlobals === null) {
        const names = T.unwrapResult(T.evalCode("Object.getOwnPropertyNames(globalThis)"));
        testGlobals = new Set(T.dump(names));
        names.dispose();
      }

      const loaded = C.evalCode(job.setup ? `${job.setup}\n${job.code}` : job.code, "candidate.js");
      if (loaded.error) {
        const info = describe(C, apiC, loaded.error);
        loaded.error.dispose();
        status = interrupted() ? "timeout" : "error";
        message = status === "timeout" ? "time limit exceeded while loading the candidate" : `the candidate program failed: ${info.name}: ${info.message}${locate(info, job.code, "candidate.js", job.setup ? job.setup.split("\n").length : 0)}`;
        return finish();
      }
      loaded.value.dispose();
      const asyncFailure = drainJobs();
      if (asyncFailure) asyncFailure.dispose();

      // One namespace, as the suites' own harnesses have it (MultiPL-E and HumanEval-X write the
      // program and the test into one file): every name the test mentions that the program declares
      // reaches the test. A function is a stub into C; the program's `require("node:assert")` is T's
      // own assert; any other value is copied as plain data (getters read in C; a value holding a
      // function, a symbol or a cycle cannot cross and stays undeclared).
      const names = mentionedNames(test.code, testGlobals, job.entryPoint || "");
      const copied = new Map(); // name -> JSON text of the value (quickjs-harness.js encoding)
      const assertNames = new Set();
      if (names.length > 0) {
        const probe = C.evalCode(`[${names.map((n) => `(function(){try{return [true, ${n}]}catch(e){return [false]}})()`).join(",")}]`, "probe.js");
        if (probe.error) {
          probe.error.dispose();
        } else {
          const requireC = C.getProp(apiC, "require");
          const assertId = C.newString("node:assert");
          const assertC = C.callFunction(requireC, C.undefined, assertId);
          requireC.dispose();
          assertId.dispose();
          const cAssert = assertC.error ? null : assertC.value;
          if (assertC.error) assertC.error.dispose();
          const encode = C.getProp(apiC, "encode");
          names.forEach((name, i) => {
            const pair = C.getProp(probe.value, i);
            const declared = C.getProp(pair, 0);
            const isDeclared = C.typeof(declared) === "boolean" && C.dump(declared) === true;
            declared.dispose();
            if (!isDeclared) {
              pair.dispose();
              return;
            }
            const value = C.getProp(pair, 1);
            pair.dispose();
            if (C.typeof(value) === "function") {
              if (cAssert !== null && C.sameValue(value, cAssert)) {
                assertNames.add(name);
                value.dispose();
              } else {
                cFunctions.set(name, own(value));
              }
              return;
            }
            const encoded = C.callFunction(encode, C.undefined, value);
            value.dispose();
            if (encoded.error) {
              encoded.error.dispose();
              return;
            }
            const text = C.getString(encoded.value);
            encoded.value.dispose();
            if (text.length <= MAX_REPLY_CHARS) copied.set(name, text);
          });
          encode.dispose();
          if (cAssert !== null) cAssert.dispose();
          probe.value.dispose();
        }
      }
      const stubNames = [...cFunctions.keys()];
      const paramNames = [...stubNames, ...assertNames, ...copied.keys()];
      const wrapper = T.evalCode(`(function (console, require${paramNames.map((n) => `, ${n}`).join("")}) { {\n${test.code}\n} })`, "test.js");
      if (wrapper.error) {
        const info = describe(T, apiT, wrapper.error);
        wrapper.error.dispose();
        message = `the test code failed to compile: ${info.name}: ${info.message}`;
        return finish();
      }
      const testFn = own(wrapper.value);
      const requireT = own(T.getProp(apiT, "require"));
      const args = [own(T.getProp(apiT, "console")), requireT];
      const makeStub = own(T.getProp(apiT, "makeStub"));
      for (const name of stubNames) {
        const nameHandle = T.newString(name);
        args.push(own(T.unwrapResult(T.callFunction(makeStub, T.undefined, nameHandle))));
        nameHandle.dispose();
      }
      for (const _name of assertNames) {
        const id = T.newString("node:assert");
        args.push(own(T.unwrapResult(T.callFunction(requireT, T.undefined, id))));
        id.dispose();
      }
      const decode = own(T.getProp(apiT, "decode"));
      for (const text of copied.values()) {
        const textHandle = T.newString(text);
        args.push(own(T.unwrapResult(T.callFunction(decode, T.undefined, textHandle))));
        textHandle.dispose();
      }
      const ran = T.callFunction(testFn, T.undefined, ...args);
      let failure = null;
      if (ran.error) failure = ran.error;
      else {
        ran.value.dispose();
        failure = drainJobs();
      }
      if (failure) {
        const info = describe(T, apiT, failure);
        failure.dispose();
        if (interrupted() || info.message === "interrupted") {
          status = "timeout";
          message = "time limit exceeded";
        } else {
          status = info.assertion ? "fail" : "error";
          message = `${info.name}: ${info.message}${locate(info, test.code, "test.js", 1)}`;
        }
      } else if (assertFailure !== null) {
        status = "fail";
        message = assertFailure;
      } else {
        status = "pass";
      }
      return finish();
    } catch (error) {
      status = interrupted() ? "timeout" : "error";
      message = status === "timeout" ? "time limit exceeded" : `sandbox error: ${error && error.message ? error.message : String(error)}`;
      return finish();
    } finally {
      if (interrupted() || status === "timeout") tainted = true;
      if (!tainted) release();
    }

    function release() {
      for (const handle of owned.reverse()) {
        try {
          if (handle.alive) handle.dispose();
        } catch {
          /* ignore */
        }
      }
      try {
        if (T) T.dispose();
        if (C) C.dispose();
        if (runtime) runtime.dispose();
      } catch {
        tainted = true;
      }
    }

    function drainJobs() {
      for (let round = 0; round < 1000 && runtime.hasPendingJob(); round += 1) {
        const result = runtime.executePendingJobs(-1);
        if (result.error) return result.error;
      }
      return null;
    }

    function finish() {
      if (interrupted()) {
        status = "timeout";
        if (!/time limit/.test(message)) message = "time limit exceeded";
      }
      if (assertFailure !== null && status === "pass") {
        status = "fail";
        message = assertFailure;
      }
      return { status, message, durationMs: Date.now() - started, fatal: dead };
    }
  }

  return {
    beginJob() {},
    async prepare() {
      if (!tainted) return;
      QuickJS = await core.newQuickJSWASMModuleFromVariant(variant);
      tainted = false;
    },
    runTest,
    endJob: () => ({ changed: [], fatal: dead }),
    isDead: () => dead,
  };
}

module.exports = { createQuickJsEngine, mentionedNames };
