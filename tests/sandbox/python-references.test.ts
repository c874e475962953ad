import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandboxPool, type SandboxPool } from "@/lib/sandbox";
import { only, runOne } from "./helpers";

// Values that are not plain data behave as in CPython (decision 0019): they stay in
// the candidate's interpreter and the test holds a reference; set and dict order
// survive the crossing; set-up code and imports reach both sides. The test's own
// `==` and truth tests still cannot be taken over by the program.

let pool: SandboxPool;

beforeAll(async () => {
  pool = createSandboxPool({ size: 1, warm: ["python"], timeoutMs: 5000 });
  await pool.warmup("python");
}, 60_000);

afterAll(async () => {
  await pool?.close();
});

const status = async (code: string, test: string, setup?: string) => {
  const result = await pool.runTests({ language: "python", code, setup, tests: [{ name: "t", code: test }] });
  return { status: result.tests[0]!.status, message: result.tests[0]!.message };
};

describe("python references: values that cannot be copied", () => {
  it("class instances made by the test through the program's class reach the program again (MBPP Pair)", async () => {
    const code = "class Pair(object):\n    def __init__(self, a, b):\n        self.a = a\n        self.b = b\ndef max_chain_length(arr, n):\n    arr = sorted(arr, key=lambda p: p.b)\n    best, end = 0, float('-inf')\n    for p in arr:\n        if p.a > end:\n            best, end = best + 1, p.b\n    return best\n";
    expect(await status(code, "assert max_chain_length([Pair(5, 24), Pair(15, 25), Pair(27, 40), Pair(50, 60)], 4) == 3")).toEqual({ status: "pass", message: "" });
    // attributes, methods and repr run on the real object and come back as plain data
    expect((await status(code, "p = Pair(1, 2)\nassert p.a == 1 and p.b == 2 and 'Pair object' in repr(p)")).status).toBe("pass");
    expect((await status(code, "assert Pair(1, 2).a == 2")).status).toBe("fail");
  });

  it("a re.Match is truthy, compares unequal to True, and exposes its groups", async () => {
    const code = "import re\ndef text_match(text):\n    return re.search(r'ab+', text)\n";
    expect((await status(code, "assert text_match('xabbb')\nassert not text_match('xyz')\nassert text_match('abb').group(0) == 'abb'")).status).toBe("pass");
    // CPython: `re.Match == True` is False, so this upstream-style assert fails there too.
    expect((await status(code, "assert text_match('ab') == True")).status).toBe("fail");
  });

  it("type objects cross in both directions", async () => {
    const code = "from collections import OrderedDict\ndef remove_datatype(t, dt):\n    return [x for x in t if not isinstance(x, dt)]\ndef kind(x):\n    return type(x)\ndef od():\n    return OrderedDict\n";
    const test = "assert remove_datatype((4, 5, 4, 7.7, 1.2), int) == [7.7, 1.2]\nassert kind(1) is int and kind('') == str\nimport collections\nassert od() is collections.OrderedDict";
    expect(await status(code, test)).toEqual({ status: "pass", message: "" });
  });

  it("generators stay lazy: an endless one can be sliced, a finite one listed", async () => {
    const code = "import itertools\ndef naturals():\n    n = 0\n    while True:\n        yield n\n        n += 1\ndef squares(k):\n    return (i * i for i in range(k))\n";
    const test = "import itertools\ng = naturals()\nassert next(g) == 0 and next(g) == 1\nassert list(itertools.islice(naturals(), 5)) == [0, 1, 2, 3, 4]\nassert list(squares(3000))[-1] == 2999 ** 2\nassert sum(squares(4)) == 14";
    expect(await status(code, test)).toEqual({ status: "pass", message: "" });
  });

  it("test-side callables and set-up class instances reach the program", async () => {
    const setup = "class Node:\n    def __init__(self, data):\n        self.data = data\n        self.left = None\n        self.right = None\nroot = Node(1)\nroot.left = Node(2)\nroot.left.left = Node(3)\n";
    const code = "def max_height(node):\n    if node is None:\n        return 0\n    return 1 + max(max_height(node.left), max_height(node.right))\ndef sort_by(xs, key):\n    return sorted(xs, key=key)\n";
    expect(await status(code, "assert max_height(root) == 3\nassert sort_by([3, 1, 2], lambda x: -x) == [3, 2, 1]", setup)).toEqual({ status: "pass", message: "" });
  });

  it("honours set-up imports on both sides (MBPP sanitized test_imports)", async () => {
    const code = "def big():\n    return sys.maxsize\ndef area(r):\n    return math.pi * r * r\n";
    expect(await status(code, "assert big() == sys.maxsize\nassert math.isclose(area(2), 12.566, rel_tol=0.001)", "import sys\nimport math")).toEqual({ status: "pass", message: "" });
  });
});

describe("python references: the order of sets and dicts", () => {
  it.each([3, 5, 9, 17, 40])("a set of %i items keeps its iteration order in both directions", async (size) => {
    const items = Array.from({ length: size }, (_, i) => (i * 37 + 11) % 200 - 50).join(", ");
    const tuples = Array.from({ length: size }, (_, i) => `(${i % 7}, ${(i * 3) % 11})`).join(", ");
    const code = `def echo(s):\n    return list(s)\ndef make():\n    s = {${items}}\n    t = {${tuples}}\n    return s, list(s), t, list(t)\n`;
    const test = `S = {${items}}\nT = {${tuples}}\nassert echo(S) == list(S)\nassert echo(T) == list(T)\nassert echo(frozenset(T)) == list(frozenset(T))\ns, order, t, torder = make()\nassert list(s) == order and list(t) == torder`;
    expect(await status(code, test)).toEqual({ status: "pass", message: "" });
  });

  it("keeps dict insertion order", async () => {
    const code = "def keys(d):\n    return list(d)\ndef build():\n    return {k: len(k) for k in ['pear', 'apple', 'fig', 'banana']}\n";
    expect((await status(code, "assert keys({'z': 1, 'a': 2, 'm': 3}) == ['z', 'a', 'm']\nassert list(build()) == ['pear', 'apple', 'fig', 'banana']")).status).toBe("pass");
  });
});

describe("python references: the test's operators stay the sandbox's", () => {
  it("an instance whose __eq__ is always True cannot equal test data, in a list or reflected", async () => {
    const code = "class Anything:\n    def __eq__(self, other):\n        return True\n    __hash__ = object.__hash__\ndef f():\n    return Anything()\ndef g():\n    return [Anything()]\n";
    for (const test of ["assert f() == 3", "assert 3 == f()", "assert g() == [3]", "assert f() in [3]"]) {
      const result = await status(code, test);
      expect(result.status, test).toBe("error");
      expect(result.message, test).toMatch(/cannot cross the sandbox boundary/);
    }
  });

  it("a truth value defined by the program is refused, a default one is True", async () => {
    const code = "class Yes:\n    def __bool__(self):\n        return True\nclass Plain:\n    pass\ndef yes():\n    return Yes()\ndef plain():\n    return Plain()\n";
    expect((await status(code, "assert yes()")).message).toMatch(/truth value .* cannot cross the sandbox boundary/);
    expect((await status(code, "assert plain()")).status).toBe("pass");
  });

  it("a reference cannot be used after its test (fresh candidate run per test)", async () => {
    const result = await pool.runTests({
      language: "python",
      code: "class Box:\n    pass\ndef box():\n    return Box()\ndef same(b):\n    return b is not None\n",
      tests: [
        { name: "keep", code: "import builtins\nassert same(box())" },
        { name: "fresh", code: "assert same(box())" },
      ],
    });
    expect(result.tests.map((t) => t.status)).toEqual(["pass", "pass"]);
    expect(only({ ...result, tests: [result.tests[1]!] }).status).toBe("pass");
  });

  it("the harness defined before the snapshot is not reachable from candidate or test code", async () => {
    const code = "import sys\nHIDDEN = '_sandbox_harness' in sys.modules or any(n.startswith('_sandbox') for n in sys.modules)\ndef hidden():\n    return HIDDEN\n";
    expect(await status(code, "import sys\nassert hidden() is False\nassert '_sandbox_harness' not in sys.modules")).toEqual({ status: "pass", message: "" });
  });

  it("a cyclic value stays a reference", async () => {
    expect(only(await runOne(pool, "python", "def f():\n    x = []\n    x.append(x)\n    return x\n", "v = f()\nassert v[0][0][0] is not None and len(v) == 1")).status).toBe("pass");
  });
});
