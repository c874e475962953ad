import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandboxPool, type SandboxEvent, type SandboxPool } from "@/lib/sandbox";
import { detectOsIsolation } from "@/lib/sandbox/launch";
import { expectHealthy, only, runOne, SECRET_NAME, SECRET_VALUE, startTrapServer, type TrapServer } from "./helpers";

// What the OS sees of a sandbox child: user, namespaces, environment, flags. And
// the fallback without namespaces (osIsolation: "off") must still keep Python off
// the network.

function childrenOf(pid: number): number[] {
  try {
    return fs.readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      fs.readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** The node process under the spawned pid (the pid itself without wrappers). */
function nodeProcessOf(pid: number): number {
  let current = pid;
  for (let depth = 0; depth < 4; depth += 1) {
    const cmdline = fs.readFileSync(`/proc/${current}/cmdline`, "utf8");
    if (cmdline.includes("runner.cjs") && !cmdline.startsWith("setpriv") && !cmdline.startsWith("unshare")) return current;
    const next = childrenOf(current)[0];
    if (next === undefined) break;
    current = next;
  }
  return current;
}

const osAvailable = process.platform === "linux" && detectOsIsolation([]).mode !== "unisolated";

describe.skipIf(!osAvailable)("OS isolation (Linux namespaces)", () => {
  let pool: SandboxPool;
  const spawned: SandboxEvent[] = [];

  beforeAll(async () => {
    process.env[SECRET_NAME] = SECRET_VALUE;
    pool = createSandboxPool({ size: 1, warm: ["javascript"], osIsolation: "required", onEvent: (event) => event.type === "spawn" && spawned.push(event) });
    await pool.warmup("javascript");
  }, 60_000);

  afterAll(async () => {
    await pool?.close();
    delete process.env[SECRET_NAME];
  });

  it("runs the child as nobody, in its own network and PID namespaces, with an empty environment", () => {
    const node = nodeProcessOf(spawned[0]!.pid!);
    const status = fs.readFileSync(`/proc/${node}/status`, "utf8");
    if (process.getuid?.() === 0) expect(status).toMatch(/^Uid:\s+65534\s/m);
    expect(fs.readlinkSync(`/proc/${node}/ns/net`)).not.toBe(fs.readlinkSync("/proc/self/ns/net"));
    expect(fs.readlinkSync(`/proc/${node}/ns/pid`)).not.toBe(fs.readlinkSync("/proc/self/ns/pid"));
    const environ = fs.readFileSync(`/proc/${node}/environ`, "utf8");
    expect(environ).not.toContain(SECRET_VALUE);
    expect(environ.split("\0").filter((entry) => entry && !entry.startsWith("NODE_CHANNEL_"))).toEqual([]);
    const flags = fs.readFileSync(`/proc/${node}/cmdline`, "utf8").split("\0");
    expect(flags).toContain("--disallow-code-generation-from-strings");
    expect(flags.some((flag) => /^--(experimental-)?permission$/.test(flag))).toBe(true);
    expect(flags.filter((flag) => flag.startsWith("--allow-fs-read=")).length).toBeGreaterThan(0);
    expect(flags.some((flag) => flag.startsWith("--allow-fs-write") || flag === "--allow-child-process")).toBe(false);
  });

  it("reports the isolation it uses", () => {
    expect(pool.info().isolation.os).toBe(true);
  });
});

describe("fallback without OS isolation (osIsolation: 'off')", () => {
  let pool: SandboxPool;
  let trap: TrapServer;

  beforeAll(async () => {
    trap = await startTrapServer();
    pool = createSandboxPool({ size: 1, warm: ["python"], osIsolation: "off", timeoutMs: 2000 });
    await pool.warmup("python");
  }, 60_000);

  afterAll(async () => {
    await pool?.close();
    await trap?.close();
  });

  it("says so", () => {
    expect(pool.info().isolation.os).toBe(false);
  });

  it("still keeps Python off the network (audit hook on every socket operation, no bridge)", async () => {
    const attempts = [
      `import socket\ndef f():\n    return socket.create_connection(('127.0.0.1', ${trap.port})).recv(10)\n`,
      `import urllib.request\ndef f():\n    return urllib.request.urlopen('${trap.url}').read()\n`,
      `import _socket\ndef f():\n    s = _socket.socket()\n    s.connect(('127.0.0.1', ${trap.port}))\n    return 1\n`,
      `import http.client\ndef f():\n    c = http.client.HTTPConnection('127.0.0.1', ${trap.port})\n    c.request('GET', '/')\n    return c.getresponse().read()\n`,
    ];
    for (const code of attempts) {
      const result = only(await runOne(pool, "python", code, "print(f())"));
      expect(result.status, code).toBe("error");
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(trap.connections()).toBe(0);
    await expectHealthy(pool, "python");
  });
});
