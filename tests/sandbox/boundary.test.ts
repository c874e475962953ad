import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandboxPool, type SandboxPool } from "@/lib/sandbox";
import { only, runOne } from "./helpers";

// Values cross between the candidate and the test as plain data. These tests pin
// what survives the trip (types included), so ordinary solutions behave as in the
// official harnesses.

let pool: SandboxPool;

beforeAll(async () => {
  pool = createSandboxPool({ size: 1, timeoutMs: 3000 });
  await pool.warmup();
}, 60_000);

afterAll(async () => {
  await pool?.close();
});

describe("python boundary", () => {
  it("keeps the types of plain data", async () => {
    const code = [
      "from decimal import Decimal",
      "from fractions import Fraction",
      "from collections import OrderedDict, Counter, namedtuple",
      "Point = namedtuple('Point', 'x y')",
      "def f():",
      "    return {'t': (1, 2), 's': {1, 2}, 'fs': frozenset([3]), 'b': b'\\x00\\xff', 'ba': bytearray(b'ab'),",
      "            'c': 1 + 2j, 'n': None, 'big': 2 ** 5000, 'inf': float('-inf'), 'nan': float('nan'), 'r': range(1, 7, 2),",
      "            'd': Decimal('1.10'), 'q': Fraction(1, 3), 'od': OrderedDict(a=1), 'cnt': Counter('aab'), 'pt': Point(1, 2),",
      "            (1, 'k'): 'tuple key', 'bool': True, 'float': 0.1 + 0.2}",
    ].join("\n");
    const test = [
      "import math",
      "from decimal import Decimal",
      "from fractions import Fraction",
      "v = f()",
      "assert type(v) is dict and v['t'] == (1, 2) and type(v['t']) is tuple",
      "assert v['s'] == {1, 2} and type(v['fs']) is frozenset",
      "assert v['b'] == b'\\x00\\xff' and type(v['ba']) is bytearray",
      "assert v['c'] == 1 + 2j and v['n'] is None and v['big'] == 2 ** 5000",
      "assert v['inf'] == float('-inf') and math.isnan(v['nan']) and list(v['r']) == [1, 3, 5]",
      "assert v['d'] == Decimal('1.10') and v['q'] == Fraction(1, 3)",
      "assert v['od'] == {'a': 1} and v['cnt'] == {'a': 2, 'b': 1} and v['pt'] == (1, 2)",
      "assert v[(1, 'k')] == 'tuple key' and v['bool'] is True and v['float'] == 0.1 + 0.2",
    ].join("\n");
    expect(only(await runOne(pool, "python", code, test))).toMatchObject({ status: "pass", message: "" });
  });

  it("passes arguments and keyword arguments, and exhausts generators", async () => {
    const code = "def kinds(*args, **kwargs):\n    return [type(a).__name__ for a in args] + sorted(kwargs)\ndef gen(n):\n    yield from range(n)\ndef mapped(xs):\n    return map(str, xs)\n";
    const test = "assert kinds((1,), {2}, {'a': 1}, [1], x=1, y=2) == ['tuple', 'set', 'dict', 'list', 'x', 'y']\nassert list(gen(3)) == [0, 1, 2]\nassert list(mapped([1, 2])) == ['1', '2']";
    expect(only(await runOne(pool, "python", code, test)).status).toBe("pass");
  });

  it("maps builtin exceptions so tests can catch them", async () => {
    const code = "def f(x):\n    if x < 0:\n        raise ValueError('negative')\n    return {}[x]\n";
    const test = "try:\n    f(-1)\n    assert False\nexcept ValueError as e:\n    assert 'negative' in str(e)\ntry:\n    f(1)\n    assert False\nexcept KeyError:\n    pass";
    expect(only(await runOne(pool, "python", code, test)).status).toBe("pass");
  });

  it("keeps functions, cycles and custom objects where they live (references, as CPython would pass them)", async () => {
    const checks: Array<[string, string]> = [
      ["return lambda: 1", "assert f()() == 1"],
      ["x = []\n    x.append(x)\n    return x", "v = f()\nassert len(v) == 1 and len(v[0]) == 1"],
      ["return object()", "assert f() and f() != f() and f() is not None"],
    ];
    for (const [body, test] of checks) {
      const result = only(await runOne(pool, "python", `def f():\n    ${body}\n`, test));
      expect(result, body).toMatchObject({ status: "pass", message: "" });
    }
  });

  it("uses the candidate's helper functions through stubs (HumanEval/38 style)", async () => {
    const code = "def encode(s):\n    return s[::-1]\ndef decode(s):\n    return encode(s)\n";
    const test = "def check(candidate):\n    for word in ['abc', 'hello']:\n        assert candidate(encode(word)) == word\ncheck(decode)";
    expect(only(await runOne(pool, "python", code, test)).status).toBe("pass");
  });
});

describe("javascript boundary", () => {
  it("keeps undefined, NaN, -0, Infinity, bigint, Map, Set, Date and holes", async () => {
    const code = "function f() { return { u: undefined, nan: NaN, neg: -0, inf: -Infinity, big: 12345678901234567890n, m: new Map([[1, 'a']]), s: new Set([1, 2]), d: new Date(0), holes: [1, , 3], deep: { a: [{ b: null }] } }; }";
    const test = [
      "const assert = require('node:assert');",
      "const v = f();",
      "assert.ok('u' in v && v.u === undefined);",
      "assert.ok(Number.isNaN(v.nan) && Object.is(v.neg, -0) && v.inf === -Infinity);",
      "assert.strictEqual(v.big, 12345678901234567890n);",
      "assert.ok(v.m instanceof Map && v.m.get(1) === 'a' && v.s instanceof Set && v.s.has(2));",
      "assert.ok(v.d instanceof Date && v.d.getTime() === 0);",
      "assert.deepStrictEqual(v.holes, [1, undefined, 3]);",
      "assert.deepStrictEqual(v.deep, { a: [{ b: null }] });",
    ].join("\n");
    expect(only(await runOne(pool, "javascript", code, test))).toMatchObject({ status: "pass", message: "" });
  });

  it("maps builtin errors so tests can catch them", async () => {
    const code = "function f(x) { if (x < 0) throw new RangeError('negative'); return x; }";
    const test = "const assert = require('node:assert');\nassert.throws(() => f(-1), RangeError);\nassert.throws(() => f(-1), /negative/);\nassert.doesNotThrow(() => f(1));";
    expect(only(await runOne(pool, "javascript", code, test)).status).toBe("pass");
  });

  it("implements node:assert semantics (loose vs strict)", async () => {
    const test = [
      "const assert = require('node:assert');",
      "assert.deepEqual(f(), [1, '2']);",
      "assert.deepEqual([1, 2], ['1', '2']);",
      "assert.throws(() => assert.deepStrictEqual([1, 2], ['1', '2']));",
      "assert.notDeepStrictEqual({ a: 1 }, { a: '1' });",
      "assert.equal(1, '1');",
      "assert.throws(() => assert.strictEqual(1, '1'));",
      "assert.throws(() => assert.ok(0));",
      "assert.deepEqual(new Map([[1, [2]]]), new Map([[1, [2]]]));",
    ].join("\n");
    expect(only(await runOne(pool, "javascript", "function f() { return [1, '2']; }", test)).status).toBe("pass");
  });

  it("uses candidate helpers (HumanEval-X/50 style)", async () => {
    const code = "const encodeShift = (s) => s.split('').map((c) => String.fromCharCode(c.charCodeAt(0) + 1)).join('');\nconst decodeShift = (s) => s.split('').map((c) => String.fromCharCode(c.charCodeAt(0) - 1)).join('');";
    const test = "const t = () => { for (const w of ['abc', 'xyz']) console.assert(decodeShift(encodeShift(w)) === w) }\nt()";
    expect(only(await runOne(pool, "javascript", code, test)).status).toBe("pass");
  });
});
