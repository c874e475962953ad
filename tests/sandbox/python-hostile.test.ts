import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandboxPool, type SandboxPool } from "@/lib/sandbox";
import { expectHealthy, only, runOne, SECRET_NAME, SECRET_VALUE, startTrapServer, type TrapServer } from "./helpers";

// Hostile Python programs: each must end as a non-pass (or be harmless) and the
// next normal run must still pass. Resource limits are reduced to keep the suite fast.

let pool: SandboxPool;
let trap: TrapServer;
const probeFile = path.join(os.tmpdir(), `sandbox-probe-${process.pid}-${Date.now()}`);

beforeAll(async () => {
  process.env[SECRET_NAME] = SECRET_VALUE;
  trap = await startTrapServer();
  pool = createSandboxPool({ size: 2, warm: ["python"], timeoutMs: 1500, killGraceMs: 1000, timeScale: 1, memoryLimitBytes: { python: 700 * 2 ** 20 } });
  await pool.warmup("python");
}, 60_000);

afterAll(async () => {
  await pool?.close();
  await trap?.close();
  delete process.env[SECRET_NAME];
  fs.rmSync(probeFile, { force: true });
});

const py = (code: string, test = "assert f() is not None", timeoutMs?: number) => runOne(pool, "python", code, test, timeoutMs);

describe("python sandbox: file system, processes, environment", () => {
  it("cannot read /etc/passwd", async () => {
    const result = only(await py("def f():\n    return open('/etc/passwd').read()\n", "print(f())"));
    expect(result.status).toBe("error");
    expect(result.output + result.message).not.toContain("root:");
    await expectHealthy(pool, "python");
  });

  it("cannot write a file (not even to its own virtual /tmp)", async () => {
    const code = `def f():\n    with open(${JSON.stringify(probeFile)}, 'w') as handle:\n        handle.write('x')\n    return 1\n`;
    const result = only(await py(code));
    expect(result.status).toBe("error");
    expect(result.message).toMatch(/PermissionError/);
    expect(fs.existsSync(probeFile)).toBe(false);
    await expectHealthy(pool, "python");
  });

  it("cannot run commands with os.system or subprocess", async () => {
    const system = only(await py(`import os\ndef f():\n    return os.system('touch ${probeFile}')\n`));
    expect(system.status).toBe("error");
    expect(system.message).toMatch(/os\.system is not allowed/);
    const sub = only(await py("import subprocess\ndef f():\n    return subprocess.run(['id']).returncode\n"));
    expect(sub.status).toBe("error");
    expect(fs.existsSync(probeFile)).toBe(false);
    await expectHealthy(pool, "python");
  });

  it("never sees the parent's environment variables", async () => {
    const result = only(await py("import os\ndef f():\n    return dict(os.environ)\n", "print(f())"));
    expect(result.status).toBe("pass");
    expect(result.output).not.toContain(SECRET_VALUE);
    expect(result.output).not.toContain(SECRET_NAME);
    // Nor a host path: Emscripten's default `_` (the runner's path) is removed.
    expect(result.output).not.toContain(process.cwd());
    expect(result.output).not.toContain("'_':");
  });
});

describe("python sandbox: network", () => {
  it("cannot reach a local HTTP server with urllib or socket", async () => {
    const viaUrllib = only(await py(`import urllib.request\ndef f():\n    return urllib.request.urlopen(${JSON.stringify(trap.url)}).read()\n`, "print(f())"));
    expect(viaUrllib.status).toBe("error");
    const viaSocket = only(await py(`import socket\ndef f():\n    s = socket.create_connection(('127.0.0.1', ${trap.port}))\n    s.send(b'GET / HTTP/1.0\\r\\n\\r\\n')\n    return s.recv(100)\n`, "print(f())"));
    expect(viaSocket.status).toBe("error");
    expect(viaUrllib.output + viaSocket.output).not.toContain("secret-from-host");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(trap.connections()).toBe(0);
    await expectHealthy(pool, "python");
  });
});

describe("python sandbox: the JavaScript bridge", () => {
  it("cannot import js or pyodide_js", async () => {
    for (const name of ["js", "pyodide_js", "pyodide.ffi", "_pyodide_core", "ctypes"]) {
      const result = only(await py(`import ${name}\ndef f():\n    return 1\n`));
      expect(result.status, name).toBe("error");
      expect(result.message, name).toMatch(/not allowed in the sandbox/);
    }
  });

  it("finds no usable JavaScript object by walking reachable module globals (Function constructor escape)", async () => {
    const hunt = [
      "import sys, asyncio",
      "def f():",
      "    hits, tried, seen = [], 0, set()",
      "    todo = list(object.__subclasses__())",
      "    try:",
      "        todo.append(type(asyncio.get_event_loop()))",
      "    except Exception:",
      "        pass",
      "    while todo:",
      "        cls = todo.pop()",
      "        if id(cls) in seen: continue",
      "        seen.add(id(cls))",
      "        try: todo.extend(cls.__subclasses__())",
      "        except Exception: pass",
      "        for value in list(getattr(cls, '__dict__', {}).values()):",
      "            g = getattr(value, '__globals__', None)",
      "            if not isinstance(g, dict): continue",
      "            for obj in list(g.values()):",
      "                if 'Js' not in type(obj).__name__: continue",
      "                tried += 1",
      "                try:",
      "                    fn = obj.constructor.constructor('return globalThis.process.getBuiltinModule(\"fs\").readFileSync(\"/etc/passwd\", \"utf8\")')",
      "                    hits.append(str(fn())[:20])",
      "                except BaseException:",
      "                    pass",
      "    return [hits, tried]",
    ].join("\n");
    const result = only(await py(hunt, "hits, tried = f()\nprint('tried', tried)\nassert hits == [], hits"));
    expect(result.status).toBe("pass");
    expect(result.output).not.toContain("root:");
    await expectHealthy(pool, "python");
  });

  it("blocks frame and gc introspection", async () => {
    const frame = only(await py("import sys\ndef f():\n    return sorted(sys._getframe(1).f_globals)\n"));
    expect(frame.status).toBe("error");
    const gc = only(await py("import gc\ndef f():\n    return len(gc.get_objects())\n"));
    expect(gc.status).toBe("error");
    const traced = only(await py("import sys\ndef f():\n    sys.settrace(lambda *a: None)\n    return 1\n"));
    expect(traced.status).toBe("error");
  });
});

describe("python sandbox: time, memory and output limits", () => {
  it("stops an infinite loop at the deadline (interrupt) and keeps working", async () => {
    const result = await py("def f():\n    while True:\n        pass\n", "f()", 500);
    expect(only(result).status).toBe("timeout");
    expect(result.tests[0]!.durationMs).toBeLessThan(1500);
    await expectHealthy(pool, "python");
  });

  it("kills a loop that swallows KeyboardInterrupt and replaces the process", async () => {
    const code = "def f():\n    while True:\n        try:\n            while True:\n                pass\n        except BaseException:\n            pass\n";
    expect(only(await py(code, "f()", 400)).status).toBe("timeout");
    await expectHealthy(pool, "python");
  });

  it("reports deep recursion as an error", async () => {
    const result = only(await py("import sys\nsys.setrecursionlimit(10**6)\ndef f(n=0):\n    return f(n + 1)\n", "f()"));
    expect(["error", "timeout"]).toContain(result.status);
    await expectHealthy(pool, "python");
  });

  it("refuses a 10 GB allocation", async () => {
    const result = only(await py("def f():\n    return len(bytearray(10 * 1024 ** 3))\n"));
    expect(result.status).toBe("error");
    expect(result.message).toMatch(/MemoryError|OverflowError/);
    await expectHealthy(pool, "python");
  });

  it("kills a process whose memory keeps growing", async () => {
    const result = only(await py("def f():\n    keep = []\n    while True:\n        keep.append(bytearray(20 * 1024 * 1024))\n", "f()", 20_000));
    expect(result.status).toBe("error");
    expect(result.message).toMatch(/memory/i);
    await expectHealthy(pool, "python");
  }, 40_000);

  it("caps an output flood and still finishes", async () => {
    const result = only(await py("def f():\n    for _ in range(2000):\n        print('x' * 10000)\n    return 1\n", "assert f() == 1"));
    expect(result.status).toBe("pass");
    expect(Buffer.byteLength(result.output)).toBeLessThan(70 * 1024);
    expect(result.output).toMatch(/output truncated: \d+ more bytes/);
  });

  it("does not blame the next job for a callback the candidate scheduled for later", async () => {
    const code = "import asyncio\ndef spin():\n    while True:\n        pass\ndef f():\n    asyncio.get_event_loop().call_later(0.01, spin)\n    return 1\n";
    expect(only(await py(code, "assert f() == 1")).status).toBe("pass");
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (let i = 0; i < 3; i += 1) await expectHealthy(pool, "python");
  });
});
