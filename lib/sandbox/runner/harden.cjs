"use strict";
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS, run by node directly in the sandbox child */
/**
 * Process-level hardening for a sandbox child (runs before any untrusted code).
 *
 * The child is already started with Node's permission model (no fs write, fs read
 * limited to the engine packages and this folder, no child processes), an empty
 * environment, `--disallow-code-generation-from-strings` (no `eval` / `Function`
 * constructor anywhere in the process) and, when available, inside fresh network /
 * PID / mount / IPC namespaces as user `nobody`. This module closes what is left
 * at the JavaScript level:
 *
 * - `process.binding` shim: the permission model denies `process.binding`, which
 *   Pyodide's start-up calls for `constants`; answer that one, refuse the rest.
 * - network: Node 20's permission model does not cover sockets, so remove the web
 *   networking globals and refuse to load `net`, `http`, `tls`, ... through
 *   `require`, `Module._load` and `process.getBuiltinModule`.
 * - dangerous `process` members (`dlopen`, `kill`, `binding`, ...).
 * - `lockdown()`: freeze the JavaScript intrinsics (Object, Array, Function, JSON,
 *   Error, ... and their prototypes) so code that reaches a JS object through the
 *   Pyodide bridge cannot change how the runner or the other interpreter behave.
 */

const Module = require("node:module");
const os = require("node:os");
const fs = require("node:fs");

const BLOCKED_MODULES = new Set([
  "net", "http", "https", "http2", "dgram", "dns", "dns/promises", "tls", "child_process", "cluster",
  "inspector", "inspector/promises", "worker_threads", "vm", "v8", "repl", "module", "wasi", "trace_events",
]);

function isBlocked(request) {
  const name = String(request).replace(/^node:/, "");
  return BLOCKED_MODULES.has(name) || name === "ws" || name.startsWith("undici");
}

/** Answers `process.binding("constants")` (needed by Pyodide under the permission model). */
function installBindingShim() {
  const original = process.binding.bind(process);
  process.binding = function binding(name) {
    if (name === "constants") return { os: os.constants, fs: fs.constants, ...fs.constants };
    return original(name);
  };
}

/** Removes networking globals and refuses to load networking / process / vm modules. */
function closeNetwork() {
  for (const name of ["fetch", "WebSocket", "EventSource", "XMLHttpRequest", "Request", "Response", "Headers", "FormData", "navigator"]) {
    try {
      delete globalThis[name];
    } catch {
      // non-configurable in some Node versions: overwrite instead
      try {
        Object.defineProperty(globalThis, name, { value: undefined, writable: false, configurable: false });
      } catch {
        /* ignore */
      }
    }
  }
  const originalLoad = Module._load;
  Module._load = function guardedLoad(request, parent, isMain) {
    if (isBlocked(request)) throw new Error(`the sandbox does not allow loading '${request}'`);
    return originalLoad.call(this, request, parent, isMain);
  };
  if (typeof process.getBuiltinModule === "function") {
    const originalGet = process.getBuiltinModule.bind(process);
    process.getBuiltinModule = function getBuiltinModule(id) {
      if (isBlocked(id)) throw new Error(`the sandbox does not allow loading '${id}'`);
      return originalGet(id);
    };
  }
}

/** Deletes `process` members that reach native code, other processes or the module system. */
function stripProcess() {
  const refuse = () => {
    throw new Error("not available in the sandbox");
  };
  for (const name of ["dlopen", "_linkedBinding", "binding", "kill", "getBuiltinModule", "setuid", "setgid", "seteuid", "setegid", "setgroups", "initgroups", "chdir", "_debugProcess", "_debugEnd", "_startProfilerIdleNotifier", "_stopProfilerIdleNotifier", "openStdin", "loadEnvFile"]) {
    try {
      Object.defineProperty(process, name, { value: refuse, writable: false, configurable: false });
    } catch {
      /* ignore */
    }
  }
  try {
    Object.defineProperty(process, "mainModule", { value: undefined, writable: false, configurable: false });
  } catch {
    /* ignore */
  }
  try {
    Object.defineProperty(process, "env", { value: Object.freeze({}), writable: false, configurable: false });
  } catch {
    /* ignore */
  }
  const originalRequire = Module.prototype.require;
  Module.prototype.require = function guardedRequire(id) {
    if (isBlocked(id)) throw new Error(`the sandbox does not allow require('${id}')`);
    return originalRequire.call(this, id);
  };
}

const INTRINSIC_ROOTS = [
  "Object", "Function", "Array", "Number", "parseFloat", "parseInt", "Boolean", "String", "Symbol", "Date", "Promise",
  "RegExp", "Error", "AggregateError", "EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError",
  "JSON", "Math", "Intl", "ArrayBuffer", "Uint8Array", "Int8Array", "Uint16Array", "Int16Array", "Uint32Array", "Int32Array",
  "Float32Array", "Float64Array", "Uint8ClampedArray", "BigUint64Array", "BigInt64Array", "DataView", "Map", "BigInt", "Set",
  "WeakMap", "WeakSet", "Proxy", "Reflect", "FinalizationRegistry", "WeakRef", "decodeURI", "decodeURIComponent", "encodeURI",
  "encodeURIComponent", "escape", "unescape", "isFinite", "isNaN", "SharedArrayBuffer", "Atomics", "WebAssembly", "TextEncoder",
  "TextDecoder", "structuredClone", "queueMicrotask", "setTimeout", "clearTimeout", "setInterval", "clearInterval",
  "setImmediate", "clearImmediate", "atob", "btoa",
];

/**
 * Freezes every object reachable from the standard intrinsics (constructors,
 * prototypes, iterator and generator prototypes, their properties). `Error` stays
 * extensible-free but keeps a writable `stackTraceLimit` (V8 and Pyodide assign it);
 * `Error.prepareStackTrace` is pinned to `undefined` so nobody can hook stack
 * formatting. Returns the number of frozen objects.
 */
function lockdown() {
  const seen = new Set();
  const stack = [];
  for (const name of INTRINSIC_ROOTS) if (globalThis[name] !== undefined) stack.push(globalThis[name]);
  stack.push(
    Object.getPrototypeOf(function* () {}),
    Object.getPrototypeOf(async function () {}),
    Object.getPrototypeOf(async function* () {}),
    Object.getPrototypeOf([][Symbol.iterator]()),
    Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())),
    Object.getPrototypeOf(new Map()[Symbol.iterator]()),
    Object.getPrototypeOf(new Set()[Symbol.iterator]()),
    Object.getPrototypeOf(""[Symbol.iterator]()),
    Object.getPrototypeOf(/a/[Symbol.matchAll]("")),
    Object.getPrototypeOf(Uint8Array),
  );
  Object.defineProperty(Error, "prepareStackTrace", { value: undefined, writable: false, configurable: false });
  while (stack.length > 0) {
    const object = stack.pop();
    if ((typeof object !== "object" && typeof object !== "function") || object === null || seen.has(object)) continue;
    seen.add(object);
    for (const key of Reflect.ownKeys(object)) {
      const descriptor = Object.getOwnPropertyDescriptor(object, key);
      if (!descriptor) continue;
      if ("value" in descriptor) stack.push(descriptor.value);
      else stack.push(descriptor.get, descriptor.set);
    }
    stack.push(Object.getPrototypeOf(object));
    if (object === Error) {
      for (const key of Reflect.ownKeys(Error)) {
        if (key === "stackTraceLimit") continue;
        const descriptor = Object.getOwnPropertyDescriptor(Error, key);
        if (descriptor && descriptor.configurable) {
          if ("value" in descriptor) descriptor.writable = false;
          descriptor.configurable = false;
          Object.defineProperty(Error, key, descriptor);
        }
      }
      Object.preventExtensions(Error);
    } else {
      Object.freeze(object);
    }
  }
  return seen.size;
}

module.exports = { installBindingShim, closeNetwork, stripProcess, lockdown, isBlocked };
