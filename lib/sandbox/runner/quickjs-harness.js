/*
 * Evaluated INSIDE QuickJS (not a Node module), once in each context of a test:
 * the candidate context C and the test context T. The expression evaluates to a
 * function that receives host callbacks and returns the harness API.
 *
 * Values cross between C and T only as JSON text with tags (encode/decode), so
 * the test never holds an object the candidate created: no getters, no Proxies,
 * no patched prototypes, no functions. Every JSON object in the encoding is a tag:
 *   {"$t":"undef"} {"$t":"num","v":"NaN"|"Infinity"|"-Infinity"|"-0"}
 *   {"$t":"bigint","v":"12"} {"$t":"obj","v":[[key,value],...]} {"$t":"map","v":[[k,v],...]}
 *   {"$t":"set","v":[...]} {"$t":"date","v":ms}
 * Arrays are JSON arrays (holes become undefined), strings/booleans/null are JSON.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-expressions -- evaluated for its value inside QuickJS
(function createHarness(host, createAssert) {
  "use strict";
  var MAX_DEPTH = 400;
  var MAX_ITEMS = 2000000;
  var MAX_CHARS = 16 * 1024 * 1024;
  var ObjectProto = Object.prototype;
  var ownKeys = Object.keys;
  var isArray = Array.isArray;
  var stringify = JSON.stringify;
  var parse = JSON.parse;
  var StringCtor = String;

  function boundary(message) {
    return new TypeError(message + " (values crossing the sandbox boundary must be plain data)");
  }

  function encodeValue(value, depth, budget) {
    if (depth > MAX_DEPTH) throw boundary("value is nested too deeply");
    budget.items += 1;
    if (budget.items > MAX_ITEMS) throw boundary("value is too large");
    var type = typeof value;
    if (value === null || type === "boolean") return value;
    if (type === "string") {
      budget.chars += value.length;
      if (budget.chars > MAX_CHARS) throw boundary("value is too large");
      return value;
    }
    if (type === "number") {
      if (value !== value) return { $t: "num", v: "NaN" };
      if (value === Infinity) return { $t: "num", v: "Infinity" };
      if (value === -Infinity) return { $t: "num", v: "-Infinity" };
      if (value === 0 && 1 / value < 0) return { $t: "num", v: "-0" };
      return value;
    }
    if (type === "undefined") return { $t: "undef" };
    if (type === "bigint") return { $t: "bigint", v: StringCtor(value) };
    if (type === "function") throw boundary("a function cannot cross the sandbox boundary");
    if (type === "symbol") throw boundary("a symbol cannot cross the sandbox boundary");
    if (budget.seen.indexOf(value) >= 0) throw boundary("a value that contains itself cannot cross the sandbox boundary");
    budget.seen.push(value);
    try {
      if (isArray(value)) {
        var length = value.length;
        if (length > MAX_ITEMS) throw boundary("array is too large");
        var items = [];
        for (var i = 0; i < length; i += 1) items.push(encodeValue(value[i], depth + 1, budget));
        return items;
      }
      if (value instanceof Date) return { $t: "date", v: value.getTime() };
      if (value instanceof Map) {
        var entries = [];
        value.forEach(function (v, k) {
          entries.push([encodeValue(k, depth + 1, budget), encodeValue(v, depth + 1, budget)]);
        });
        return { $t: "map", v: entries };
      }
      if (value instanceof Set) {
        var members = [];
        value.forEach(function (v) {
          members.push(encodeValue(v, depth + 1, budget));
        });
        return { $t: "set", v: members };
      }
      if (value instanceof Promise) throw boundary("a Promise cannot cross the sandbox boundary (async candidates are not supported)");
      var keys = ownKeys(value);
      var pairs = [];
      for (var j = 0; j < keys.length; j += 1) pairs.push([keys[j], encodeValue(value[keys[j]], depth + 1, budget)]);
      return { $t: "obj", v: pairs };
    } finally {
      budget.seen.pop();
    }
  }

  function encode(value) {
    return stringify(encodeValue(value, 0, { items: 0, chars: 0, seen: [] }));
  }

  function decodeNode(node) {
    if (isArray(node)) {
      var out = [];
      for (var i = 0; i < node.length; i += 1) out.push(decodeNode(node[i]));
      return out;
    }
    if (node === null || typeof node !== "object") return node;
    var v = node.v;
    switch (node.$t) {
      case "undef":
        return undefined;
      case "num":
        return v === "NaN" ? NaN : v === "Infinity" ? Infinity : v === "-Infinity" ? -Infinity : -0;
      case "bigint":
        return BigInt(v);
      case "date":
        return new Date(v);
      case "map": {
        var map = new Map();
        for (var m = 0; m < v.length; m += 1) map.set(decodeNode(v[m][0]), decodeNode(v[m][1]));
        return map;
      }
      case "set": {
        var set = new Set();
        for (var s = 0; s < v.length; s += 1) set.add(decodeNode(v[s]));
        return set;
      }
      case "obj": {
        var object = {};
        for (var k = 0; k < v.length; k += 1) {
          Object.defineProperty(object, StringCtor(v[k][0]), { value: decodeNode(v[k][1]), writable: true, enumerable: true, configurable: true });
        }
        return object;
      }
      default:
        throw new TypeError("unknown boundary tag");
    }
  }

  function decode(text) {
    return decodeNode(parse(text));
  }

  function describeError(error) {
    var name = "Error";
    var message = "";
    try {
      if (error !== null && typeof error === "object") {
        name = StringCtor(error.name);
        message = StringCtor(error.message);
      } else {
        name = "Thrown";
        message = StringCtor(error);
      }
    } catch {
      message = "<unprintable>";
    }
    return { name: name.slice(0, 200), message: message.slice(0, 2000) };
  }

  /** C side: calls `fn` with decoded args, returns JSON {ok} or {$exc}. */
  function invoke(fn, payload) {
    var result;
    try {
      result = fn.apply(undefined, decode(payload));
    } catch (error) {
      return stringify({ $exc: describeError(error) });
    }
    try {
      return stringify({ ok: encodeValue(result, 0, { items: 0, chars: 0, seen: [] }) });
    } catch (error) {
      return stringify({ $exc: describeError(error) });
    }
  }

  // ---- console (output goes to the host's capped sink) ----
  function formatValue(value, depth) {
    var type = typeof value;
    if (type === "string") return depth === 0 ? value : "'" + value + "'";
    if (type === "function") return "[Function" + (value.name ? ": " + value.name : " (anonymous)") + "]";
    if (type === "bigint") return StringCtor(value) + "n";
    if (type === "symbol") return value.toString();
    if (value === null || type !== "object") return StringCtor(value);
    if (depth > 3) return isArray(value) ? "[Array]" : "[Object]";
    try {
      if (isArray(value)) {
        var parts = [];
        for (var i = 0; i < value.length && i < 100; i += 1) parts.push(formatValue(value[i], depth + 1));
        if (value.length > 100) parts.push("... " + (value.length - 100) + " more items");
        return parts.length === 0 ? "[]" : "[ " + parts.join(", ") + " ]";
      }
      if (value instanceof Error) return StringCtor(value.name) + ": " + StringCtor(value.message);
      var keys = ownKeys(value);
      var fields = [];
      for (var j = 0; j < keys.length && j < 100; j += 1) fields.push(keys[j] + ": " + formatValue(value[keys[j]], depth + 1));
      return fields.length === 0 ? "{}" : "{ " + fields.join(", ") + " }";
    } catch {
      return "[unprintable]";
    }
  }

  function formatArgs(args) {
    var parts = [];
    for (var i = 0; i < args.length; i += 1) parts.push(formatValue(args[i], 0));
    return parts.join(" ");
  }

  function print() {
    host.out(formatArgs(arguments) + "\n");
  }

  var consoleObject = Object.freeze({
    log: print,
    info: print,
    warn: print,
    error: print,
    debug: print,
    trace: print,
    assert: function assert(condition) {
      if (condition) return;
      var rest = Array.prototype.slice.call(arguments, 1);
      var text = "Assertion failed" + (rest.length > 0 ? ": " + formatArgs(rest) : "");
      host.out(text + "\n");
      var where = "";
      try {
        where = StringCtor(new Error().stack);
      } catch {
        where = "";
      }
      host.assertFailed(text, where);
    },
  });

  var assert = createAssert(function inspect(value) {
    try {
      return formatValue(value, 1);
    } catch {
      return "[unprintable]";
    }
  });

  function requireShim(name) {
    var id = StringCtor(name);
    if (id === "assert" || id === "node:assert" || id === "assert/strict" || id === "node:assert/strict") return assert;
    throw new Error("Cannot find module '" + id + "' (the sandbox has no Node modules; only node:assert is provided)");
  }

  var ERRORS = { Error: Error, TypeError: TypeError, RangeError: RangeError, SyntaxError: SyntaxError, ReferenceError: ReferenceError, EvalError: EvalError, URIError: URIError };

  /** T side: a function that forwards a call to candidate function `name` in C. */
  function makeStub(name) {
    return function () {
      var reply = parse(host.call(name, encode(Array.prototype.slice.call(arguments))));
      if (ObjectProto.hasOwnProperty.call(reply, "ok")) return decodeNode(reply.ok);
      var info = reply.$exc || { name: "Error", message: "unknown failure" };
      var Ctor = ObjectProto.hasOwnProperty.call(ERRORS, info.name) ? ERRORS[info.name] : Error;
      var error = new Ctor(info.message);
      if (Ctor === Error && info.name !== "Error") error.name = "Candidate" + StringCtor(info.name);
      throw error;
    };
  }

  function isAssertionError(error) {
    return error instanceof assert.AssertionError;
  }

  return Object.freeze({
    encode: encode,
    decode: decode,
    invoke: invoke,
    makeStub: makeStub,
    console: consoleObject,
    require: requireShim,
    isAssertionError: isAssertionError,
    describeError: function (error) {
      var info = describeError(error);
      var stack = "";
      try {
        stack = error && typeof error === "object" && error.stack ? StringCtor(error.stack) : "";
      } catch {
        stack = "";
      }
      return stringify({ name: info.name, message: info.message, stack: stack.slice(0, 4000), assertion: error instanceof assert.AssertionError });
    },
  });
});
