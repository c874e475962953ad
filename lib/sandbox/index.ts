/**
 * Code sandbox: runs untrusted Python / JavaScript / TypeScript against tests in
 * pre-warmed child processes (Pyodide, QuickJS) under Node's permission model and,
 * when available, fresh Linux namespaces. See docs/decisions/0006-code-sandbox.md.
 */
export { createSandboxPool } from "./pool";
export type {
  RunTestsRequest,
  RunTestsResult,
  SandboxEngine,
  SandboxEvent,
  SandboxIsolationInfo,
  SandboxLanguage,
  SandboxPool,
  SandboxPoolOptions,
  SandboxTest,
  TestResult,
  TestStatus,
} from "./types";
export { closeSharedSandboxPool, configureSharedSandboxPool, sharedSandbox, sharedSandboxPool } from "./shared-pool";
