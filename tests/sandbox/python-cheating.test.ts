import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSandboxPool, type SandboxPool } from "@/lib/sandbox";
import { expectHealthy, only, runOne } from "./helpers";

// Programs that try to turn a wrong answer into a "pass". Every one of them
// implements `add` wrongly; none may pass, and the pool must stay usable.

let pool: SandboxPool;

beforeAll(async () => {
  pool = createSandboxPool({ size: 2, warm: ["python"], timeoutMs: 2000, killGraceMs: 1000, timeScale: 1 });
  await pool.warmup("python");
}, 60_000);

afterAll(async () => {
  await pool?.close();
});

// After every cheating attempt, a normal program must still pass.
afterEach(async () => {
  await expectHealthy(pool, "python");
});

const HIDDEN = "def check(candidate):\n    assert candidate(2, 3) == 5\n    assert abs(candidate(0.5, 0.25) - 0.75) < 1e-9\n\ncheck(add)\n";
const cheat = (code: string) => runOne(pool, "python", code, HIDDEN);

describe("python sandbox: early exits", () => {
  it.each([
    ["sys.exit(0) at import", "import sys\ndef add(a, b):\n    return 0\nsys.exit(0)\n"],
    ["sys.exit(0) inside the call", "import sys\ndef add(a, b):\n    sys.exit(0)\n"],
    ["os._exit(0) inside the call", "import os\ndef add(a, b):\n    os._exit(0)\n"],
    ["raise SystemExit from a finally", "def add(a, b):\n    try:\n        return 0\n    finally:\n        raise SystemExit(0)\n"],
    ["atexit hook + exit", "import atexit, sys\natexit.register(lambda: print('PASS'))\ndef add(a, b):\n    sys.exit(0)\n"],
    ["KeyboardInterrupt raised on purpose", "def add(a, b):\n    raise KeyboardInterrupt\n"],
  ])("%s is not a pass", async (_name, code) => {
    const result = await cheat(code);
    expect(result.verdict).toBe("fail");
    expect(only(result).status).not.toBe("pass");
    await expectHealthy(pool, "python");
  });
});

describe("python sandbox: patched builtins and objects", () => {
  it("a patched builtins.abs / AssertionError / __import__ does not reach the test", async () => {
    const code = [
      "import builtins",
      "builtins.abs = lambda x: 0",
      "builtins.AssertionError = type('Quiet', (Exception,), {})",
      "_real_import = builtins.__import__",
      "def add(a, b):",
      "    return a - b",
    ].join("\n");
    const result = only(await cheat(code));
    expect(result.status).toBe("fail");
    expect(result.message).toMatch(/AssertionError.*candidate\(2, 3\) == 5/);
  });

  it("a top-level function named like a builtin does not replace it in the test", async () => {
    const code = "def abs(x):\n    return 0\ndef add(a, b):\n    return a - b\n";
    const test = "assert abs(add(0.5, 0.25) - 0.75) < 1e-9";
    expect(only(await runOne(pool, "python", code, test)).status).toBe("fail");
    // ...unless it is the function under test (MBPP has a task whose entry point is `sum`).
    const mbpp = await pool.runTests({ language: "python", entryPoint: "sum", code: "def sum(xs):\n    return 42\n", tests: [{ name: "t", code: "assert sum([1]) == 42" }] });
    expect(mbpp.verdict).toBe("pass");
  });

  it("a return value whose __eq__ is always True does not pass", async () => {
    const code = "class Anything:\n    def __eq__(self, other):\n        return True\n    def __sub__(self, other):\n        return 0\ndef add(a, b):\n    return Anything()\n";
    const result = only(await cheat(code));
    expect(result.status).toBe("error");
    expect(result.message).toMatch(/cannot cross the sandbox boundary/);
  });

  it("an int subclass with a lying __eq__ arrives as its plain value", async () => {
    const code = "class Liar(int):\n    def __eq__(self, other):\n        return True\n    __hash__ = int.__hash__\ndef add(a, b):\n    return Liar(42)\n";
    const result = only(await cheat(code));
    expect(result.status).toBe("fail");
  });

  it("patching stdlib modules the test imports has no effect on the test", async () => {
    const code = "import math\nmath.isclose = lambda *a, **k: True\nmath.fabs = lambda x: 0.0\ndef add(a, b):\n    return 1000\n";
    const test = "import math\nassert math.isclose(add(1, 2), 3)\n";
    expect(only(await runOne(pool, "python", code, test)).status).toBe("fail");
  });
});

describe("python sandbox: swallowed exceptions and fake output", () => {
  it("swallowing its own exceptions just returns a wrong value", async () => {
    const code = "def add(a, b):\n    try:\n        raise ValueError('boom')\n    except BaseException:\n        pass\n";
    expect(only(await cheat(code)).status).toBe("fail");
  });

  it("an exception raised by the candidate is an error, even when the test expects another type", async () => {
    const result = only(await cheat("def add(a, b):\n    raise ValueError('nope')\n"));
    expect(result.status).toBe("error");
    expect(result.message).toMatch(/ValueError: nope/);
  });

  it("printing fake PASS / result text does not change the verdict", async () => {
    const code = 'import sys\nprint(\'{"type":"test","status":"pass"}\')\nprint("PASS: all tests passed")\nsys.stderr.write("OK\\n")\ndef add(a, b):\n    print("PASS")\n    return -1\n';
    const result = only(await cheat(code));
    expect(result.status).toBe("fail");
    expect(result.output).toContain("PASS");
  });

  it("the verdict is pass only when every test passed", async () => {
    const result = await pool.runTests({
      language: "python",
      code: "def add(a, b):\n    return a + b\n",
      tests: [
        { name: "ok", code: "assert add(1, 1) == 2" },
        { name: "wrong", code: "assert add(1, 1) == 3" },
        { name: "ok again", code: "assert add(2, 2) == 4" },
      ],
    });
    expect(result.tests.map((test) => test.status)).toEqual(["pass", "fail", "pass"]);
    expect(result.verdict).toBe("fail");
  });
});
