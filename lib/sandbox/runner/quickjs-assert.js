/*
 * Evaluated INSIDE QuickJS (not a Node module): a minimal `node:assert` for the
 * MultiPL-E JS/TS tests, which call `require('node:assert')` (QuickJS has no Node
 * modules). quickjs-harness.js calls the factory with an `inspect` function and
 * `require("node:assert")` / `require("assert")` return the result.
 *
 * Semantics (as Node's legacy assert):
 * - `assert(value, message)` / `ok`: fails when `value` is falsy.
 * - `equal` / `notEqual`: loose `==` (NaN equals NaN).
 * - `strictEqual` / `notStrictEqual`: `Object.is`.
 * - `deepEqual` / `notDeepEqual`: primitives compared with `==`; objects by own
 *   enumerable keys, recursively; arrays vs non-arrays differ; prototypes ignored;
 *   Date by time, RegExp by source and flags, Map / Set by entries.
 * - `deepStrictEqual` / `notDeepStrictEqual`: as deepEqual with `Object.is` for
 *   primitives and equal prototypes.
 * - `throws(fn, [expected], [message])`: fn must throw; `expected` may be an Error
 *   class (instanceof) or a RegExp (tested against the message). `doesNotThrow`.
 * - `fail(message)`. Failures throw `AssertionError` (name "AssertionError", code
 *   "ERR_ASSERTION"), which the sandbox reports as a test "fail".
 */
// eslint-disable-next-line @typescript-eslint/no-unused-expressions -- evaluated for its value inside QuickJS
(function createAssert(inspect) {
  "use strict";
  var ObjectProto = Object.prototype;
  var getProto = Object.getPrototypeOf;
  var ownKeys = Object.keys;
  var isArray = Array.isArray;
  var StringCtor = String;

  function AssertionError(options) {
    var error = new Error(options.message);
    Object.setPrototypeOf(error, AssertionError.prototype);
    error.actual = options.actual;
    error.expected = options.expected;
    error.operator = options.operator;
    error.code = "ERR_ASSERTION";
    return error;
  }
  AssertionError.prototype = Object.create(Error.prototype, {
    constructor: { value: AssertionError, writable: true, configurable: true },
    name: { value: "AssertionError", writable: true, configurable: true },
  });

  function isNaNValue(x) {
    return typeof x === "number" && x !== x;
  }

  function deepEqualValues(a, b, strict, memo) {
    var aIsObject = a !== null && typeof a === "object";
    var bIsObject = b !== null && typeof b === "object";
    if (!aIsObject || !bIsObject) {
      if (aIsObject || bIsObject) return false;
      return strict ? Object.is(a, b) : a == b || (isNaNValue(a) && isNaNValue(b));
    }
    if (a === b) return true;
    if (strict && getProto(a) !== getProto(b)) return false;
    for (var p = 0; p < memo.length; p += 1) if (memo[p][0] === a && memo[p][1] === b) return true;
    memo.push([a, b]);
    if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
    if (a instanceof RegExp && b instanceof RegExp) return StringCtor(a) === StringCtor(b);
    if (isArray(a) !== isArray(b)) return false;
    if (a instanceof Map && b instanceof Map) {
      if (a.size !== b.size) return false;
      var okMap = true;
      a.forEach(function (value, key) {
        if (!okMap) return;
        if (!b.has(key) || !deepEqualValues(value, b.get(key), strict, memo)) okMap = false;
      });
      return okMap;
    }
    if (a instanceof Set && b instanceof Set) {
      if (a.size !== b.size) return false;
      var okSet = true;
      a.forEach(function (value) {
        if (!okSet || b.has(value)) return;
        var found = false;
        b.forEach(function (other) {
          if (!found && deepEqualValues(value, other, strict, memo)) found = true;
        });
        if (!found) okSet = false;
      });
      return okSet;
    }
    var keysA = ownKeys(a);
    var keysB = ownKeys(b);
    if (keysA.length !== keysB.length) return false;
    for (var i = 0; i < keysA.length; i += 1) {
      if (!ObjectProto.hasOwnProperty.call(b, keysA[i])) return false;
      if (!deepEqualValues(a[keysA[i]], b[keysA[i]], strict, memo)) return false;
    }
    return true;
  }

  function fail(actual, expected, message, operator, defaultText) {
    if (message instanceof Error) throw message;
    throw new AssertionError({
      message: message !== undefined ? StringCtor(message) : defaultText,
      actual: actual,
      expected: expected,
      operator: operator,
    });
  }

  function assert(value, message) {
    if (!value) fail(value, true, message, "==", "The expression evaluated to a falsy value:\n\n  assert(" + inspect(value) + ")");
  }
  assert.ok = assert;
  assert.AssertionError = AssertionError;
  assert.fail = function (message) {
    fail(undefined, undefined, message === undefined ? "Failed" : message, "fail", "Failed");
  };
  assert.equal = function (actual, expected, message) {
    if (!(actual == expected || (isNaNValue(actual) && isNaNValue(expected)))) fail(actual, expected, message, "==", inspect(actual) + " == " + inspect(expected));
  };
  assert.notEqual = function (actual, expected, message) {
    if (actual == expected || (isNaNValue(actual) && isNaNValue(expected))) fail(actual, expected, message, "!=", inspect(actual) + " != " + inspect(expected));
  };
  assert.strictEqual = function (actual, expected, message) {
    if (!Object.is(actual, expected)) fail(actual, expected, message, "strictEqual", "Expected values to be strictly equal:\n\n" + inspect(actual) + " !== " + inspect(expected));
  };
  assert.notStrictEqual = function (actual, expected, message) {
    if (Object.is(actual, expected)) fail(actual, expected, message, "notStrictEqual", "Expected \"actual\" to be strictly unequal to: " + inspect(expected));
  };
  assert.deepEqual = function (actual, expected, message) {
    if (!deepEqualValues(actual, expected, false, [])) fail(actual, expected, message, "deepEqual", "Expected values to be loosely deep-equal:\n\n" + inspect(actual) + "\n\nshould loosely deep-equal\n\n" + inspect(expected));
  };
  assert.notDeepEqual = function (actual, expected, message) {
    if (deepEqualValues(actual, expected, false, [])) fail(actual, expected, message, "notDeepEqual", "Expected \"actual\" not to be loosely deep-equal to: " + inspect(expected));
  };
  assert.deepStrictEqual = function (actual, expected, message) {
    if (!deepEqualValues(actual, expected, true, [])) fail(actual, expected, message, "deepStrictEqual", "Expected values to be strictly deep-equal:\n\n" + inspect(actual) + "\n\nshould equal\n\n" + inspect(expected));
  };
  assert.notDeepStrictEqual = function (actual, expected, message) {
    if (deepEqualValues(actual, expected, true, [])) fail(actual, expected, message, "notDeepStrictEqual", "Expected \"actual\" not to be strictly deep-equal to: " + inspect(expected));
  };
  assert.throws = function (fn, expected, message) {
    if (typeof expected === "string") {
      message = expected;
      expected = undefined;
    }
    try {
      fn();
    } catch (error) {
      if (typeof expected === "function" && expected.prototype !== undefined && !(error instanceof expected)) throw error;
      if (expected instanceof RegExp && !expected.test(StringCtor(error && error.message !== undefined ? error.message : error))) {
        fail(error, expected, message, "throws", "The error message does not match " + StringCtor(expected));
      }
      return;
    }
    fail(undefined, expected, message, "throws", "Missing expected exception.");
  };
  assert.doesNotThrow = function (fn, message) {
    try {
      fn();
    } catch (error) {
      fail(error, undefined, message, "doesNotThrow", "Got unwanted exception: " + inspect(error));
    }
  };
  assert.strict = assert;
  Object.freeze(assert);
  return assert;
});
