import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import type { RunTestsResult, SandboxLanguage, SandboxPool } from "@/lib/sandbox";

/** A local HTTP server that counts every TCP connection it receives. */
export interface TrapServer {
  port: number;
  url: string;
  /** TCP connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/** Starts a {@link TrapServer} on 127.0.0.1 (random port). */
export async function startTrapServer(): Promise<TrapServer> {
  let count = 0;
  const server = http.createServer((_request, response) => response.end("secret-from-host"));
  server.on("connection", () => {
    count += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}/`,
    connections: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const HEALTHY: Record<SandboxLanguage, { code: string; test: string }> = {
  python: { code: "def add(a, b):\n    return a + b\n", test: "assert add(2, 3) == 5" },
  javascript: { code: "function add(a, b) { return a + b; }", test: "console.assert(add(2, 3) === 5)" },
  typescript: { code: "function add(a: number, b: number): number { return a + b; }", test: "console.assert(add(2, 3) === 5)" },
};

/** Asserts that a normal program still passes on this pool (the sandbox recovered). */
export async function expectHealthy(pool: SandboxPool, language: SandboxLanguage): Promise<void> {
  const sample = HEALTHY[language];
  const result = await pool.runTests({ language, code: sample.code, tests: [{ name: "healthy", code: sample.test }] });
  expect(result.tests[0]?.message).toBe("");
  expect(result.verdict).toBe("pass");
}

/** Runs one program against one test. */
export function runOne(pool: SandboxPool, language: SandboxLanguage, code: string, test: string, timeoutMs?: number): Promise<RunTestsResult> {
  return pool.runTests({ language, code, tests: [{ name: "t", code: test }], timeoutMs });
}

/** Status and message of the single test of `result`. */
export function only(result: RunTestsResult): { status: string; message: string; output: string } {
  const test = result.tests[0]!;
  return { status: test.status, message: test.message, output: test.output };
}

/** A secret put in the parent's environment; it must never reach sandboxed code. */
export const SECRET_NAME = "SANDBOX_TEST_SECRET_TOKEN";
export const SECRET_VALUE = "s3cr3t-7f1c9a-do-not-leak";
