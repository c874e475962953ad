import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandboxPool, type SandboxPool } from "@/lib/sandbox";
import { expectHealthy, only, runOne, SECRET_NAME, SECRET_VALUE, startTrapServer, type TrapServer } from "./helpers";

// Hostile JavaScript / TypeScript programs (QuickJS). Each must end as a non-pass
// (or be harmless) and the next normal run must pass.

let pool: SandboxPool;
let trap: TrapServer;

beforeAll(async () => {
  process.env[SECRET_NAME] = SECRET_VALUE;
  trap = await startTrapServer();
  pool = createSandboxPool({ size: 2, warm: ["javascript"], timeoutMs: 1500, killGraceMs: 1000 });
  await pool.warmup("javascript");
}, 60_000);

afterAll(async () => {
  await pool?.close();
  await trap?.close();
  delete process.env[SECRET_NAME];
});

const js = (code: string, test = "f()", timeoutMs?: number) => runOne(pool, "javascript", code, test, timeoutMs);

describe("javascript sandbox: no host access", () => {
  it("has no require('child_process') / require('fs')", async () => {
    for (const name of ["child_process", "fs", "node:fs", "net"]) {
      const result = only(await js(`function f() { return require(${JSON.stringify(name)}).execSync ? 1 : 2; }`));
      expect(result.status, name).toBe("error");
      expect(result.message, name).toMatch(/Cannot find module/);
    }
    await expectHealthy(pool, "javascript");
  });

  it("has no process, so no process.env and no process.exit", async () => {
    const env = only(await js("function f() { return JSON.stringify(process.env); }", "console.log(f())"));
    expect(env.status).toBe("error");
    expect(env.output + env.message).not.toContain(SECRET_VALUE);
    const exit = only(await js("function f() { process.exit(0); }"));
    expect(exit.status).toBe("error");
    expect(exit.message).toMatch(/'?process'? is not defined/);
    await expectHealthy(pool, "javascript");
  });

  it("the Function constructor only reaches the QuickJS global", async () => {
    const code = "function f() { const g = Function('return this')(); return [typeof g.process, typeof g.require === 'function' ? 'shim' : 'none', typeof g.fetch, typeof g.Deno]; }";
    const result = only(await js(code, "console.log(JSON.stringify(f()))"));
    expect(result.status).toBe("pass");
    expect(result.output.trim()).toBe('["undefined","shim","undefined","undefined"]');
  });

  it("cannot reach a local HTTP server (no fetch, no sockets)", async () => {
    const result = only(await js(`function f() { return fetch(${JSON.stringify(trap.url)}); }`));
    expect(result.status).toBe("error");
    const viaXhr = only(await js(`function f() { const x = new XMLHttpRequest(); x.open('GET', ${JSON.stringify(trap.url)}); x.send(); }`));
    expect(viaXhr.status).toBe("error");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(trap.connections()).toBe(0);
  });
});

describe("javascript sandbox: time, memory, stack and output limits", () => {
  it("stops a synchronous infinite loop", async () => {
    const result = await js("function f() { for (;;) {} }", "f()", 400);
    expect(only(result).status).toBe("timeout");
    expect(result.tests[0]!.durationMs).toBeLessThan(1400);
    await expectHealthy(pool, "javascript");
  });

  it("stops an infinite loop in promises / microtasks", async () => {
    const code = "function f() { Promise.resolve().then(function loop() { return Promise.resolve().then(loop); }); return 1; }";
    expect(only(await js(code, "f()", 400)).status).toBe("timeout");
    const busy = "function f() { (async () => { await null; for (;;) {} })(); return 1; }";
    expect(only(await js(busy, "f()", 400)).status).toBe("timeout");
    await expectHealthy(pool, "javascript");
  });

  it("a catch block cannot swallow the deadline", async () => {
    const code = "function f() { for (;;) { try { for (;;) {} } catch (e) { } } }";
    expect(only(await js(code, "f()", 400)).status).toBe("timeout");
    await expectHealthy(pool, "javascript");
  });

  it("reports deep recursion as an error, without crashing the host", async () => {
    const result = only(await js("function f(n = 0) { return f(n + 1) + 1; }"));
    expect(result.status).toBe("error");
    expect(result.message).toMatch(/stack overflow|call stack/i);
    await expectHealthy(pool, "javascript");
  });

  it("refuses a 10 GB allocation", async () => {
    for (const code of [
      "function f() { return new ArrayBuffer(10 * 1024 ** 3).byteLength; }",
      "function f() { return 'x'.repeat(10 * 1024 ** 3).length; }",
      "function f() { return new Array(10 * 1024 ** 3).fill(0).length; }",
    ]) {
      const result = only(await js(code));
      expect(result.status, code).not.toBe("pass");
    }
    await expectHealthy(pool, "javascript");
  });

  it("caps an output flood", async () => {
    // 20 MB through console.log is finite work, but with test files running in parallel it can outlast
    // the pool's 1.5 s deadline, which is meant for the endless flood below: this test is about the cap.
    const result = only(await js("function f() { for (let i = 0; i < 2000; i++) console.log('y'.repeat(10000)); return 1; }", "console.assert(f() === 1)", 10_000));
    expect(result.status).toBe("pass");
    expect(Buffer.byteLength(result.output)).toBeLessThan(70 * 1024);
    expect(result.output).toMatch(/output truncated/);
  });

  it("stops an endless flood at the deadline", async () => {
    const result = only(await js("function f() { for (;;) console.log('z'.repeat(1000)); }", "f()", 400));
    expect(result.status).toBe("timeout");
    expect(Buffer.byteLength(result.output)).toBeLessThan(70 * 1024);
    await expectHealthy(pool, "javascript");
  });
});

describe("typescript sandbox", () => {
  it("transpiles, then runs under the same limits", async () => {
    const loop = await runOne(pool, "typescript", "function f(): number { while (true) {} }", "f()", 400);
    expect(only(loop).status).toBe("timeout");
    const spy = await runOne(pool, "typescript", "declare const process: any;\nfunction f(): string { return process.env.HOME as string; }", "f()");
    expect(only(spy).status).toBe("error");
    await expectHealthy(pool, "typescript");
  });

  it("reports a syntax error as an error without running anything", async () => {
    const result = only(await runOne(pool, "typescript", "function f(: number {", "f()"));
    expect(result.status).toBe("error");
    expect(result.message).toMatch(/TypeScript transpile of the candidate failed.*line 1/);
  });
});
