import { AppError } from "@/lib/domain/errors";
import { transpileTypeScript } from "./transpile";
import type { RunTestsRequest, SandboxEngine, SandboxTest, TestResult } from "./types";

/** A validated request, TypeScript already transpiled. */
export interface NormalizedRequest {
  engine: SandboxEngine;
  code: string;
  /** The function under test ("" when not given). */
  entryPoint: string;
  setup: string;
  tests: SandboxTest[];
  /** Per-test limit in ms. */
  timeoutMs: number;
  /** Set when the request fails before reaching a sandbox (e.g. TypeScript syntax error). */
  immediate?: TestResult[];
}

/** Largest accepted per-test limit, in ms. */
export const MAX_TIMEOUT_MS = 10 * 60_000;
/** Largest accepted program or test, in characters. */
export const MAX_SOURCE_CHARS = 1_000_000;

function invalid(message: string): never {
  throw new AppError("invalid-input", `Invalid sandbox request: ${message}`);
}

function checkSource(value: unknown, what: string): string {
  if (typeof value !== "string") invalid(`${what} must be a string`);
  if (value.length > MAX_SOURCE_CHARS) invalid(`${what} is longer than ${MAX_SOURCE_CHARS} characters`);
  return value;
}

/**
 * Validates a {@link RunTestsRequest} and transpiles TypeScript.
 *
 * @throws AppError `invalid-input` for a malformed request (no tests, bad language...).
 */
export async function normalizeRequest(request: RunTestsRequest, defaultTimeoutMs: number): Promise<NormalizedRequest> {
  if (typeof request !== "object" || request === null) invalid("expected an object");
  const { language } = request;
  if (language !== "python" && language !== "javascript" && language !== "typescript") invalid(`unknown language ${JSON.stringify(language)}`);
  const code = checkSource(request.code, "code");
  const setup = request.setup === undefined || request.setup === null ? "" : checkSource(request.setup, "setup");
  if (!Array.isArray(request.tests) || request.tests.length === 0) invalid("at least one test is required");
  const tests = request.tests.map((test, index) => {
    if (typeof test !== "object" || test === null) invalid(`tests[${index}] must be an object`);
    return { name: typeof test.name === "string" && test.name !== "" ? test.name : `test ${index + 1}`, code: checkSource(test.code, `tests[${index}].code`) };
  });
  const entryPoint = request.entryPoint ?? "";
  if (typeof entryPoint !== "string" || (entryPoint !== "" && !/^[A-Za-z_$][\w$]*$/.test(entryPoint))) invalid("entryPoint must be an identifier");
  const timeoutMs = request.timeoutMs ?? defaultTimeoutMs;
  if (!Number.isFinite(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS) invalid(`timeoutMs must be between 1 and ${MAX_TIMEOUT_MS}`);
  const engine: SandboxEngine = language === "python" ? "python" : "javascript";
  if (language !== "typescript") return { engine, code, entryPoint, setup, tests, timeoutMs: Math.round(timeoutMs) };

  const failAll = (message: string): NormalizedRequest => ({
    engine, code, entryPoint, setup, tests, timeoutMs,
    immediate: tests.map((test) => ({ name: test.name, status: "error", message, output: "", durationMs: 0 })),
  });
  const program = await transpileTypeScript(code, "candidate");
  if (!program.ok) return failAll(program.message);
  const prelude = setup ? await transpileTypeScript(setup, "setup") : { ok: true as const, code: "" };
  if (!prelude.ok) return failAll(prelude.message);
  const compiled: SandboxTest[] = [];
  const immediate: TestResult[] = [];
  for (const test of tests) {
    const result = await transpileTypeScript(test.code, `test '${test.name}'`);
    compiled.push({ name: test.name, code: result.ok ? result.code : "" });
    immediate.push({ name: test.name, status: "error", message: result.ok ? "" : result.message, output: "", durationMs: 0 });
  }
  if (immediate.some((result) => result.message !== "")) {
    return { engine, code, entryPoint, setup, tests, timeoutMs, immediate: immediate.map((r) => (r.message ? r : { ...r, message: "not run: another test failed to transpile" })) };
  }
  return { engine, code: program.code, entryPoint, setup: prelude.code, tests: compiled, timeoutMs: Math.round(timeoutMs) };
}
