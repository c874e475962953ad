import type { RunTestsRequest, RunTestsResult, SandboxPool, SandboxPoolOptions } from "./types";
import { createSandboxPool } from "./pool";

/**
 * One sandbox pool per process, created on first use and kept on `globalThis`
 * (so Next's dev hot reload does not leak child processes). The server and the
 * CLI run every code task through it. Only the JavaScript engine is warmed at
 * creation; Python children start on the first Python request (~3–5 s).
 */

const key = Symbol.for("reflexion-playground.sandbox-pool");
type Holder = typeof globalThis & { [key]?: SandboxPool };

/** Options used when the shared pool is created (tests and the CLI may set them before first use). */
let sharedOptions: SandboxPoolOptions = { size: 2, warm: ["javascript"] };

/** Sets the options of the shared pool; has no effect once it exists. */
export function configureSharedSandboxPool(options: SandboxPoolOptions): void {
  sharedOptions = options;
}

/** The process-wide pool, created on first call. @throws Error when the sandbox cannot start (see createSandboxPool). */
export function sharedSandboxPool(): SandboxPool {
  const holder = globalThis as Holder;
  holder[key] ??= createSandboxPool(sharedOptions);
  return holder[key];
}

/** A `runTests` port that creates the shared pool lazily, on the first request. */
export const sharedSandbox = {
  runTests(request: RunTestsRequest): Promise<RunTestsResult> {
    return sharedSandboxPool().runTests(request);
  },
};

/** Closes the shared pool if it was created (the CLI calls this before exiting). */
export async function closeSharedSandboxPool(): Promise<void> {
  const holder = globalThis as Holder;
  const pool = holder[key];
  delete holder[key];
  await pool?.close();
}
